import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { PassThrough, Readable } from 'node:stream';
import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RECLAIM_ABOVE, reclaimer, youngCollection } from '../../../src/export/reclaim.js';
import { writeFileAtomically, writeToStream } from '../../../src/export/sink.js';

const MiB = 1024 * 1024;
/**
 * The kinds of a collection that frees young garbage: a scavenge, a minor mark-sweep (Node 24 and
 * later, whose V8 may use it), or a full one (V8 may finish one it had started instead).
 */
const COLLECTIONS = [
  constants.NODE_PERFORMANCE_GC_MINOR,
  (constants as Record<string, number>).NODE_PERFORMANCE_GC_MINOR_MARK_SWEEP ?? constants.NODE_PERFORMANCE_GC_MINOR,
  constants.NODE_PERFORMANCE_GC_MAJOR,
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('reclaimer (a download’s dead read buffers)', () => {
  it('looks at the buffers’ memory once per MiB copied, not per chunk', () => {
    let looks = 0;
    const collect = vi.fn(() => true);
    const r = reclaimer(Infinity, () => (looks++, 0), collect);
    for (let total = 64 * 1024; total <= 4 * MiB; total += 64 * 1024) r(total);
    expect(looks).toBe(4);
    expect(collect).not.toHaveBeenCalled();
  });

  it('collects only while the buffers are above the threshold (16 MiB by default)', () => {
    expect(RECLAIM_ABOVE).toBe(16 * MiB);
    let held = 16 * MiB;
    const collect = vi.fn(() => true);
    const r = reclaimer(RECLAIM_ABOVE, () => held, collect);
    expect(r(MiB)).toBe(false);
    held = 16 * MiB + 1;
    expect(r(2 * MiB)).toBe(true);
    expect(r(2 * MiB + 1)).toBe(false); // not before the next MiB
    held = 3 * MiB;
    expect(r(3 * MiB)).toBe(false);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('what a collection cannot free raises the bar for the next one: a collection per 16 MiB copied, not one per MiB', () => {
    // 20 MiB held for good (by something else in the process), plus the download's dead buffers:
    // 1 MiB a MiB copied, which a collection frees.
    let dead = 0;
    const collect = vi.fn(() => ((dead = 0), true));
    const r = reclaimer(16 * MiB, () => 20 * MiB + dead, collect);
    const at: number[] = [];
    for (let total = MiB; total <= 100 * MiB; total += MiB) {
      dead += MiB;
      if (r(total)) at.push(total / MiB);
    }
    // The first at once (20 MiB is above 16); then the bar is what the next look saw (the 20 MiB and
    // 1 MiB of new garbage) and 16 MiB more.
    expect(at).toEqual([1, 19, 37, 55, 73, 91]);
  });

  it('gives up for the rest of the download when a collection does not show', () => {
    const collect = vi.fn(() => false);
    const r = reclaimer(16 * MiB, () => 40 * MiB, collect);
    expect(r(MiB)).toBe(true);
    for (let total = 2 * MiB; total <= 64 * MiB; total += MiB) expect(r(total)).toBe(false);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('youngCollection makes V8 collect', async () => {
    const kinds: number[] = [];
    let seen!: () => void;
    const arrived = new Promise<void>((resolve) => (seen = resolve));
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) kinds.push((e as unknown as { detail: { kind: number } }).detail.kind);
      if (kinds.some((k) => COLLECTIONS.includes(k))) seen();
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      expect(youngCollection()).toBe(true);
      await arrived; // the observer hears of every collection; the test's timeout bounds the wait
    } finally {
      observer.disconnect();
    }
  });

  it('frees dead young buffers for real', async () => {
    // One try: 4 MiB of buffers (too few for V8 to collect on their account) made into an empty
    // young generation, dropped, then collected.
    // V8 may still collect on its own while they are alive, which moves them out of the young
    // generation for good, so a try that finds them there is made again, up to 3 times.
    const tryOnce = async (): Promise<boolean> => {
      youngCollection();
      let held: ArrayBuffer[] | undefined = Array.from({ length: 64 }, () => new ArrayBuffer(64 * 1024));
      const before = process.memoryUsage().arrayBuffers;
      expect(held.length).toBe(64);
      held = undefined;
      youngCollection();
      // V8 frees the buffers' memory on a helper thread after the collection: look again, turn by turn.
      for (let turn = 0; turn < 1000 && process.memoryUsage().arrayBuffers > before - 3 * MiB; turn++) await new Promise((r) => setImmediate(r));
      return process.memoryUsage().arrayBuffers <= before - 3 * MiB;
    };
    let freed = false;
    for (let t = 0; t < 3 && !freed; t++) freed = await tryOnce();
    expect(freed).toBe(true);
  });

  it('does nothing on a V8 without a young space of that name', () => {
    vi.spyOn(v8, 'getHeapSpaceStatistics').mockReturnValue([]);
    expect(youngCollection()).toBe(false);
  });
});

describe('the download sinks use it', () => {
  // 40 chunks of 1 MiB that the test keeps alive: the buffers' memory passes 16 MiB whatever V8 does.
  const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(MiB, i));

  it('a download to a file collects once the buffers pile up', async () => {
    const stats = vi.spyOn(v8, 'getHeapSpaceStatistics');
    const dir = mkdtempSync(join(tmpdir(), 'formctl-reclaim-'));
    try {
      const n = await writeFileAtomically(Readable.from(chunks), join(dir, 'out.csv'));
      expect(n).toBe(40 * MiB);
      expect(statSync(join(dir, 'out.csv')).size).toBe(40 * MiB);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(stats).toHaveBeenCalled();
  });

  it('so does a download to stdout', async () => {
    const stats = vi.spyOn(v8, 'getHeapSpaceStatistics');
    const dest = new PassThrough();
    let got = 0;
    dest.on('data', (b: Buffer) => (got += b.length));
    expect(await writeToStream(Readable.from(chunks), dest)).toBe(40 * MiB);
    expect(got).toBe(40 * MiB);
    expect(stats).toHaveBeenCalled();
  });
});
