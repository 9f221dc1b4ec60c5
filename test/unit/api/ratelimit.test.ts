import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Pacer, createPacer } from '../../../src/api/ratelimit.js';
import { InterruptedError } from '../../../src/errors.js';

/** A fake clock: sleep() advances it instantly, so nothing really waits. */
function clock(start = 1_700_000_000_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

/** Most requests in any 60 s span (the worst case for the server's fixed window, wherever it starts). */
function maxPerMinute(times: number[]): number {
  let max = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 60_000) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

async function run(p: Pacer, c: ReturnType<typeof clock>, n: number, gap = () => 0): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    await p.take();
    times.push(c.now());
    c.advance(gap());
  }
  return times;
}

describe('createPacer', () => {
  it('paces at 95 % of the default 100/min, the first request at once', async () => {
    const c = clock();
    const p = createPacer({ limitPerMinute: 100, now: c.now, sleep: c.sleep });
    expect(p.ratePerMinute).toBe(95);
    const t0 = c.now();
    const times = await run(p, c, 96);
    expect(times[0]).toBe(t0);
    expect(times[95]! - t0).toBeCloseTo(60_000, 1);
    expect(maxPerMinute(times)).toBeLessThanOrEqual(100);
  });

  it('does not make a request wait when the job itself is slower than the pace', async () => {
    const c = clock();
    const sleeps: number[] = [];
    const p = createPacer({ limitPerMinute: 100, now: c.now, sleep: async (ms) => void sleeps.push(ms) });
    for (let i = 0; i < 5; i++) {
      await p.take();
      c.advance(1_000);
    }
    expect(sleeps).toEqual([]);
  });

  it('adapts to the observed X-RateLimit-Limit and uses at least 90 % of 6000/min', async () => {
    const c = clock();
    const p = createPacer({ limitPerMinute: 100, now: c.now, sleep: c.sleep });
    await p.take();
    p.observe({ limit: 6000, remaining: 5999 });
    expect(p.limitPerMinute).toBe(6000);
    const start = c.now();
    const times = await run(p, c, 7000, () => 3);
    const inFirstMinute = times.filter((t) => t - start < 60_000).length;
    expect(inFirstMinute).toBeGreaterThanOrEqual(5400);
    expect(maxPerMinute(times)).toBeLessThanOrEqual(6000);
  });

  it('slows down when the server reports a lower limit', async () => {
    const c = clock();
    const p = createPacer({ limitPerMinute: 100, now: c.now, sleep: c.sleep });
    p.observe({ limit: 10 });
    expect(p.ratePerMinute).toBeLessThan(10);
    expect(maxPerMinute(await run(p, c, 40))).toBeLessThanOrEqual(10);
  });

  it('holds requests until the window resets when Remaining is 0', async () => {
    const c = clock();
    const p = createPacer({ limitPerMinute: 100, now: c.now, sleep: c.sleep });
    await p.take();
    p.observe({ limit: 100, remaining: 0, resetAt: c.now() + 42_000 });
    const before = c.now();
    await p.take();
    expect(c.now() - before).toBe(42_000);
  });

  it('spreads the Remaining budget until the reset instead of spending it at once', async () => {
    const c = clock();
    const p = createPacer({ limitPerMinute: 100, now: c.now, sleep: c.sleep });
    await p.take();
    // 4 left in a window that resets in 40 s: one every 10 s, not four at the steady pace.
    p.observe({ limit: 100, remaining: 4, resetAt: c.now() + 40_000 });
    const before = c.now();
    await p.take();
    expect(c.now() - before).toBe(10_000);
  });

  it('without a reset time, Remaining 0 costs at least one interval', async () => {
    const c = clock();
    const p = createPacer({ limitPerMinute: 100, now: c.now, sleep: c.sleep });
    c.advance(10_000);
    p.observe({ remaining: 0 });
    const before = c.now();
    await p.take();
    expect(c.now() - before).toBeCloseTo(60_000 / 95, 1);
  });

  it('queues concurrent callers on distinct slots', async () => {
    const c = clock();
    const sleeps: number[] = [];
    const p = createPacer({ limitPerMinute: 100, now: c.now, sleep: async (ms) => void sleeps.push(ms) });
    await Promise.all([p.take(), p.take(), p.take()]);
    const i = 60_000 / 95;
    expect(sleeps.map((s) => Math.round(s))).toEqual([Math.round(i), Math.round(2 * i)]);
  });

  it('rejects with InterruptedError when the signal aborts', async () => {
    const ac = new AbortController();
    const p = createPacer({ limitPerMinute: 1 });
    await p.take(ac.signal);
    const waiting = p.take(ac.signal);
    ac.abort();
    await expect(waiting).rejects.toBeInstanceOf(InterruptedError);
  });

  it('refuses a nonsensical limit', () => {
    expect(() => createPacer({ limitPerMinute: 0 })).toThrow(RangeError);
  });

  it('never lets more than the limit into any 60 s span (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.nat({ max: 2_000 }), { minLength: 1, maxLength: 50 }),
        async (limit, burst, gaps) => {
          const c = clock();
          const p = createPacer({ limitPerMinute: limit, burst, now: c.now, sleep: c.sleep });
          let g = 0;
          const n = Math.min(3 * limit + 10, 2_000);
          const times = await run(p, c, n, () => gaps[g++ % gaps.length]!);
          expect(maxPerMinute(times)).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 60 },
    );
  });
});
