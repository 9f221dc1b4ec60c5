import { Session } from 'node:inspector';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reclaimer } from '../../../src/export/reclaim.js';
import { writeFileAtomically, writeToStream } from '../../../src/export/sink.js';

const MiB = 1024 * 1024;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('reclaimer (a download’s dead read buffers)', () => {
  it('looks at the buffers’ memory once per MiB copied, not per chunk', () => {
    let looks = 0;
    const r = reclaimer(Infinity, () => (looks++, 0));
    for (let total = 64 * 1024; total <= 4 * MiB; total += 64 * 1024) void r.copied(total);
    r.close();
    expect(looks).toBe(4);
  });

  it('asks for no collection, and opens no session, while the buffers stay under the threshold', () => {
    const connect = vi.spyOn(Session.prototype, 'connect');
    const post = vi.spyOn(Session.prototype, 'post');
    const r = reclaimer(32 * MiB, () => 32 * MiB);
    for (let total = MiB; total <= 64 * MiB; total += MiB) void r.copied(total);
    r.close();
    expect(connect).not.toHaveBeenCalled();
    expect(post).not.toHaveBeenCalled();
  });

  it('above the threshold, asks V8 for a collection through one session, closed by close()', async () => {
    const connect = vi.spyOn(Session.prototype, 'connect');
    const post = vi.spyOn(Session.prototype, 'post');
    const disconnect = vi.spyOn(Session.prototype, 'disconnect');
    const r = reclaimer(32 * MiB, () => 40 * MiB);
    await r.copied(MiB);
    await r.copied(2 * MiB);
    expect(r.copied(2 * MiB + 1)).toBeUndefined();
    expect(connect).toHaveBeenCalledTimes(1);
    expect(post.mock.calls.map((c) => c[0])).toEqual(['HeapProfiler.collectGarbage', 'HeapProfiler.collectGarbage']);
    r.close();
    expect(disconnect).toHaveBeenCalledTimes(1);
  });

  it('frees dead buffers for real', async () => {
    let held: ArrayBuffer[] | undefined = Array.from({ length: 384 }, () => new ArrayBuffer(64 * 1024)); // 24 MiB
    const before = process.memoryUsage().arrayBuffers;
    expect(before).toBeGreaterThan(24 * MiB);
    expect(held.length).toBe(384);
    held = undefined;
    const r = reclaimer(8 * MiB);
    // V8 runs the collection from a task, and answers once it is done.
    await r.copied(MiB);
    r.close();
    expect(process.memoryUsage().arrayBuffers).toBeLessThan(before - 20 * MiB);
  });

  it('a Node without a working inspector leaves collection to V8, and tries no more', () => {
    const connect = vi.spyOn(Session.prototype, 'connect').mockImplementation(() => {
      throw Object.assign(new Error('Inspector is not available'), { code: 'ERR_INSPECTOR_NOT_AVAILABLE' });
    });
    const r = reclaimer(0, () => MiB);
    expect(() => {
      void r.copied(MiB);
      void r.copied(2 * MiB);
    }).not.toThrow();
    expect(() => r.close()).not.toThrow();
    expect(connect).toHaveBeenCalledTimes(1);
  });
});

describe('the download sinks use it', () => {
  // 40 chunks of 1 MiB that the test keeps alive: the buffers' memory passes 32 MiB whatever V8 does.
  const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(MiB, i));

  it('a download to a file asks for collections once the buffers pile up', async () => {
    const post = vi.spyOn(Session.prototype, 'post');
    const dir = mkdtempSync(join(tmpdir(), 'formctl-reclaim-'));
    try {
      const n = await writeFileAtomically(Readable.from(chunks), join(dir, 'out.csv'));
      expect(n).toBe(40 * MiB);
      expect(statSync(join(dir, 'out.csv')).size).toBe(40 * MiB);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(post.mock.calls.filter((c) => c[0] === 'HeapProfiler.collectGarbage').length).toBeGreaterThan(0);
  });

  it('so does a download to stdout', async () => {
    const post = vi.spyOn(Session.prototype, 'post');
    const dest = new PassThrough();
    let got = 0;
    dest.on('data', (b: Buffer) => (got += b.length));
    expect(await writeToStream(Readable.from(chunks), dest)).toBe(40 * MiB);
    expect(got).toBe(40 * MiB);
    expect(post.mock.calls.filter((c) => c[0] === 'HeapProfiler.collectGarbage').length).toBeGreaterThan(0);
  });
});
