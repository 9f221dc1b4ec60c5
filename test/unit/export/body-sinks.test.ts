import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FileBatchSink, type SequentialFile, StreamSink } from '../../../src/export/body-sinks.js';

/** A file whose writes finish only when the test says so; `cap` makes them short. */
function heldFile(cap = Infinity) {
  const written: Buffer[] = [];
  const pending: Array<() => void> = [];
  let failWith: Error | undefined;
  const file: SequentialFile = {
    write(buffer, offset, length) {
      return new Promise((resolve, reject) => {
        pending.push(() => {
          if (failWith) return reject(failWith);
          const n = Math.min(cap, length);
          written.push(Buffer.from(buffer.subarray(offset, offset + n)));
          resolve({ bytesWritten: n });
        });
      });
    },
  };
  /** Completes the writes pending now, and the ones they start, until none is left. */
  const settle = async () => {
    while (pending.length > 0) {
      pending.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { file, written, pending, settle, fail: (e: Error) => (failWith = e), content: () => Buffer.concat(written).toString() };
}

/** Feeds `pieces` the way wire.ts does: offer, take what fits, wait when asked. */
async function feed(sink: FileBatchSink | StreamSink, pieces: Buffer[], onWait?: () => Promise<void>): Promise<number> {
  let waits = 0;
  for (let piece of pieces) {
    for (;;) {
      piece = piece.subarray(sink.write(piece));
      const wait = sink.ready();
      if (wait) {
        waits++;
        await Promise.all([wait, onWait?.()]);
        continue;
      }
      if (piece.length === 0) break;
    }
  }
  return waits;
}

describe('FileBatchSink', () => {
  it('writes the first bytes at once, gathers what arrives meanwhile, and keeps every byte in order', async () => {
    const f = heldFile();
    const sink = new FileBatchSink(f.file, undefined, 10);
    expect(sink.write(Buffer.from('abc'))).toBe(3);
    expect(f.pending).toHaveLength(1);
    expect(sink.write(Buffer.from('defghijklmnop'))).toBe(10);
    expect(sink.ready()).toBeInstanceOf(Promise);
    await f.settle();
    expect(sink.write(Buffer.from('nop'))).toBe(3);
    await f.settle();
    expect(await sink.end()).toBe(16);
    expect(f.content()).toBe('abcdefghijklmnop');
    expect(f.written.map(String)).toEqual(['abc', 'defghijklm', 'nop']);
  });

  it('copies what it takes: the caller may reuse its buffer at once', async () => {
    const f = heldFile();
    const sink = new FileBatchSink(f.file, undefined, 8);
    const shared = Buffer.from('1234');
    sink.write(shared);
    shared.write('xxxx');
    sink.write(Buffer.from('5678'));
    await f.settle();
    await sink.end();
    expect(f.content()).toBe('12345678');
  });

  it('writes the rest again after a short write and counts only bytes in the file', async () => {
    const f = heldFile(3);
    const seen: number[] = [];
    const sink = new FileBatchSink(f.file, (n) => seen.push(n), 8);
    const pieces = ['hello ', 'world, ', 'this is ', 'a longer body'].map((s) => Buffer.from(s));
    await feed(sink, pieces, f.settle);
    await f.settle();
    expect(await sink.end()).toBe(34);
    expect(f.content()).toBe('hello world, this is a longer body');
    expect(seen.at(-1)).toBe(34);
    expect(seen.every((n, i) => i === 0 || n > seen[i - 1]!)).toBe(true);
  });

  it('a failed write stops the sink: the next offer throws and end rejects with the file error', async () => {
    const f = heldFile();
    const sink = new FileBatchSink(f.file, undefined, 4);
    sink.write(Buffer.from('abcd'));
    f.fail(Object.assign(new Error('no space left'), { code: 'ENOSPC' }));
    await f.settle();
    expect(() => sink.write(Buffer.from('e'))).toThrow('no space left');
    await expect(sink.ready()).rejects.toThrow('no space left');
    await expect(sink.end()).rejects.toThrow('no space left');
  });

  it('stop waits for the write in flight and starts no other', async () => {
    const f = heldFile();
    const sink = new FileBatchSink(f.file, undefined, 4);
    sink.write(Buffer.from('abcd'));
    sink.write(Buffer.from('efgh'));
    const stopped = sink.stop();
    await f.settle();
    await stopped;
    expect(f.content()).toBe('abcd');
    expect(f.pending).toHaveLength(0);
  });

  it('a piece larger than one buffer fills both and then asks to wait, never taking less silently', async () => {
    const f = heldFile();
    const sink = new FileBatchSink(f.file, undefined, 4);
    expect(sink.write(Buffer.from('abcdefghijk'))).toBe(8);
    expect(sink.ready()).toBeInstanceOf(Promise);
    await f.settle();
    expect(sink.write(Buffer.from('ijk'))).toBe(3);
    await f.settle();
    await sink.end();
    expect(f.content()).toBe('abcdefghijk');
  });

  it('a write that accepts nothing is an error rather than a loop', async () => {
    const sink = new FileBatchSink({ write: async () => ({ bytesWritten: 0 }) }, undefined, 4);
    sink.write(Buffer.from('ab'));
    await expect(sink.end()).rejects.toMatchObject({ code: 'EIO' });
  });
});

describe('StreamSink', () => {
  function slowStream(highWaterMark: number) {
    const got: Buffer[] = [];
    const dest = new Writable({
      highWaterMark,
      write(chunk: Buffer, _enc, cb) {
        got.push(chunk);
        setTimeout(cb, 1);
      },
    });
    return { dest, text: () => Buffer.concat(got).toString() };
  }

  it('copies each piece, waits for drain when the stream is full, and ends once the last piece is taken', async () => {
    const s = slowStream(4);
    const sink = new StreamSink(s.dest);
    const shared = Buffer.from('abcdef');
    const waits = await feed(sink, [shared]);
    shared.write('zzzzzz');
    const more = await feed(sink, ['ghij', 'kl'].map((x) => Buffer.from(x)));
    expect(waits + more).toBeGreaterThan(0);
    expect(await sink.end()).toBe(12);
    expect(s.text()).toBe('abcdefghijkl');
    sink.detach();
    expect(s.dest.listenerCount('error')).toBe(0);
  });

  it('a stream already closed without an error fails the offer at once rather than waiting forever', async () => {
    const dest = new Writable({ write: (_c, _e, cb) => cb() });
    dest.destroy();
    await new Promise((r) => setImmediate(r));
    const sink = new StreamSink(dest);
    expect(() => sink.write(Buffer.from('abc'))).toThrow('The output was closed.');
    await expect(sink.ready()).rejects.toMatchObject({ code: 'EPIPE' });
  });

  it('a stream closed while the sink waits for drain ends the wait with an error', async () => {
    const dest = new Writable({ highWaterMark: 1, write: () => undefined });
    const sink = new StreamSink(dest);
    sink.write(Buffer.from('abc'));
    const wait = sink.ready();
    expect(wait).toBeInstanceOf(Promise);
    dest.destroy();
    await expect(wait).rejects.toMatchObject({ code: 'EPIPE' });
  });

  it('an error on the stream (a closed pipe) ends a wait and fails the next offer', async () => {
    const dest = new Writable({ highWaterMark: 1, write: (_c, _e, cb) => setTimeout(() => cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })), 1) });
    const sink = new StreamSink(dest);
    sink.write(Buffer.from('abc'));
    await expect(sink.ready()).rejects.toMatchObject({ code: 'EPIPE' });
    expect(() => sink.write(Buffer.from('d'))).toThrow('write EPIPE');
  });
});
