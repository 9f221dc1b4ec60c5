import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { RateLimitError } from '../../../src/api/errors.js';
import { WaitBudget } from '../../../src/api/wait-budget.js';
import { createFactory } from '../../../src/factory.js';
import { userAgent } from '../../../src/version.js';
import { fakeIO } from '../../helpers/io.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';

const servers: StubServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A clock that only the injected sleep moves: waits are counted, never waited. */
function fakeTime(): { now: () => number; sleep: (ms: number) => Promise<void>; sleeps: number[] } {
  let t = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
  };
}

describe('WaitBudget: --max-wait is the total of the command', () => {
  it('adds sequential waits up', () => {
    let t = 0;
    const w = new WaitBudget(3000, () => t);
    expect(w.left()).toBe(3000);
    const end = w.begin(1000);
    t += 1000;
    end();
    expect(w.left()).toBe(2000);
    w.begin(2000)();
    expect(w.left()).toBe(0);
    expect(w.waited()).toBe(3000);
  });

  it('counts overlapping waits of concurrent requests once', () => {
    let t = 0;
    const w = new WaitBudget(3000, () => t);
    const a = w.begin(1000);
    t += 500;
    // Half of this one is covered by the first wait, still under way.
    const b = w.begin(1000);
    expect(w.waited()).toBe(1500);
    // What may start now: the 1500 ms left, plus the 1000 ms until b ends that is already counted.
    expect(w.left()).toBe(2500);
    t += 1000;
    a();
    b();
    expect(w.left()).toBe(1500);
  });

  it('never waits when told so, whatever --max-wait says', () => {
    const w = new WaitBudget(60_000, Date.now, true);
    expect(w.left()).toBe(Number.NEGATIVE_INFINITY);
  });

  it('one budget over several requests: the third 429 finds the total used up (exit 8) without waiting', async () => {
    const s = await startStubServer((_req, res, i) => (i % 2 === 0 ? json(res, 429, {}, { 'Retry-After': '1' }) : json(res, 200, [])));
    servers.push(s);
    const time = fakeTime();
    const waits = new WaitBudget(2500, time.now);
    const make = () =>
      new ApiClient({ baseUrl: s.url, token: 't', userAgent: userAgent(), timeoutMs: 5000, maxWaitMs: 2500, waits, now: time.now, sleep: time.sleep });
    // Two clients of one command (as the factory makes them) share the budget.
    const [c1, c2] = [make(), make()];
    try {
      await c1.request({ path: '/open/workspaces' });
      await c2.request({ path: '/open/workspaces' });
      const e = await c1.request({ path: '/open/workspaces' }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(RateLimitError);
      expect(time.sleeps).toEqual([1000, 1000]);
      expect(s.requests).toHaveLength(5);
    } finally {
      await Promise.all([c1.close(), c2.close()]);
    }
  });

  it("with its own budget per request (as before), each request would have waited: the factory's clients share one", async () => {
    const f = createFactory({
      io: fakeIO().io,
      env: {},
      globals: { debug: false, timeoutMs: 5000, maxWaitMs: 2500, noInput: true, noColor: true },
      signal: new AbortController().signal,
    });
    const a = f.apiFor('http://127.0.0.1:9', 't') as unknown as { waits: WaitBudget };
    const b = f.apiFor('http://127.0.0.1:9', 't') as unknown as { waits: WaitBudget };
    expect(a.waits).toBeInstanceOf(WaitBudget);
    expect(a.waits).toBe(b.waits);
    await f.dispose();
  });
});
