import { describe, expect, it } from 'vitest';
import { createPacer } from '../../../src/bulk/pacer.js';

/** A fake clock whose sleep just advances time. */
function fakeClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, sleep: async (ms: number) => void (t += ms), advance: (ms: number) => void (t += ms) };
}

/** Most requests inside any fixed 60 s window opening at a request (how the service counts). */
function worstWindow(times: number[]): number {
  let worst = 0;
  for (let i = 0; i < times.length; i++) {
    let n = 0;
    for (let j = i; j < times.length && times[j]! < times[i]! + 60_000; j++) n++;
    worst = Math.max(worst, n);
  }
  return worst;
}

describe('createPacer', () => {
  it('never lets more than the limit into any 60 s window, and runs close to it', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ limitPerMinute: 100, headroom: 0.95, now: clock.now, sleep: clock.sleep });
    const times: number[] = [];
    // One extra request (the form lookup) just before the run also counts against the window.
    times.push(clock.now());
    for (let i = 0; i < 500; i++) {
      await pacer.take();
      times.push(clock.now());
    }
    expect(worstWindow(times)).toBeLessThanOrEqual(100);
    const perMinute = (500 / (times.at(-1)! - times[1]!)) * 60_000;
    expect(perMinute).toBeGreaterThan(90);
    expect(perMinute).toBeLessThanOrEqual(95.2);
  });

  it('does not bank unused time as a burst', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ limitPerMinute: 60, now: clock.now, sleep: clock.sleep });
    await pacer.take();
    clock.advance(600_000);
    const t0 = clock.now();
    await pacer.take();
    await pacer.take();
    expect(clock.now() - t0).toBe(1_000);
  });

  it('slows to a lower server limit and waits for an exhausted window to reset', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ limitPerMinute: 600, now: clock.now, sleep: clock.sleep });
    pacer.observe({ limit: 60, remaining: 10 });
    expect(pacer.perMinute).toBe(60);
    await pacer.take();
    pacer.observe({ limit: 60, remaining: 0, resetAt: clock.now() + 30_000 });
    const t0 = clock.now();
    await pacer.take();
    expect(clock.now() - t0).toBe(30_000);
    // A higher server limit never speeds past the configured one.
    pacer.observe({ limit: 6000 });
    expect(pacer.perMinute).toBe(60);
  });
});
