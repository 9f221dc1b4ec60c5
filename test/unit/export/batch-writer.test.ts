import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { BatchWriter, type VectorFile, dropBytes } from '../../../src/export/batch-writer.js';

/** A file that keeps what it is given, accepting at most `cap` bytes per writev (a short write). */
function fakeFile(cap = Infinity, failAfter = Infinity) {
  const parts: Buffer[] = [];
  const calls: number[] = [];
  const file: VectorFile = {
    async writev(buffers) {
      const all = Buffer.concat(buffers);
      if (parts.reduce((n, p) => n + p.length, 0) >= failAfter) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      const taken = all.subarray(0, Math.min(cap, all.length));
      parts.push(Buffer.from(taken));
      calls.push(buffers.length);
      return { bytesWritten: taken.length };
    },
  };
  return { file, calls, content: () => Buffer.concat(parts) };
}

const chunks = (n: number, size: number) => Array.from({ length: n }, (_, i) => Buffer.alloc(size, 65 + (i % 26)));

describe('BatchWriter', () => {
  it('writes every byte in order and gathers the chunks that arrive during a write into one writev', async () => {
    const f = fakeFile();
    const seen: number[] = [];
    const input = chunks(40, 1000);
    await pipeline(Readable.from(input), new BatchWriter(f.file, (n) => seen.push(n), 64 * 1024));
    expect(f.content().equals(Buffer.concat(input))).toBe(true);
    expect(f.calls.length).toBeLessThan(40);
    expect(Math.max(...f.calls)).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(40_000);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('writes the rest again after a short write, never dropping or repeating a byte', async () => {
    const f = fakeFile(777);
    const input = chunks(30, 500);
    const w = new BatchWriter(f.file, undefined, 8 * 1024);
    await pipeline(Readable.from(input), w);
    expect(f.content().equals(Buffer.concat(input))).toBe(true);
    expect(w.total).toBe(15_000);
  });

  it('fails the pipeline with the file error (a full disk) instead of going on', async () => {
    const f = fakeFile(Infinity, 2000);
    const err = await pipeline(Readable.from(chunks(20, 1000)), new BatchWriter(f.file, undefined, 1)).catch((e: unknown) => e);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
  });

  it('treats a write that accepts nothing as an error rather than looping forever', async () => {
    const err = await pipeline(Readable.from(chunks(2, 10)), new BatchWriter({ writev: async () => ({ bytesWritten: 0 }) })).catch((e: unknown) => e);
    expect((err as NodeJS.ErrnoException).code).toBe('EIO');
  });
});

describe('dropBytes', () => {
  const bufs = [Buffer.from('abc'), Buffer.from('de'), Buffer.from('fgh')];
  it.each([
    [0, 'abc|de|fgh'],
    [2, 'c|de|fgh'],
    [3, 'de|fgh'],
    [4, 'e|fgh'],
    [7, 'h'],
    [8, ''],
  ])('after %i bytes leaves %s', (n, rest) => {
    expect(dropBytes(bufs, n).map(String).join('|')).toBe(rest);
  });
});
