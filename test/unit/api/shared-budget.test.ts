import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedBudget, budgetFor } from '../../../src/api/ratelimit.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function budgets(n: number, clock: { t: number }): SharedBudget[] {
  dir = mkdtempSync(join(tmpdir(), 'formctl-budget-'));
  return Array.from({ length: n }, () => new SharedBudget(dir!, 'https://api.example', 'tok', { now: () => clock.t }));
}

describe('SharedBudget', () => {
  it('is named by a key of origin, token and bucket (src/name-key.ts); a new key clears out the files nobody wrote for a day (old SHA-256 names too)', async () => {
    const clock = { t: 1_000_000 };
    const [b] = budgets(1, clock);
    expect(b!.file).toMatch(/\/[0-9a-f]{8}\.json$/);
    const other = new SharedBudget(dir!, 'https://api.example', 'tok', { now: () => clock.t, bucket: 'export' });
    expect(other.file).not.toBe(b!.file);
    const old = join(dir!, `${'a'.repeat(32)}.json`);
    const recent = join(dir!, '0badf00d.json');
    const notABudget = join(dir!, 'notes.txt');
    for (const f of [old, recent, notABudget]) writeFileSync(f, '{}');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    utimesSync(notABudget, twoDaysAgo, twoDaysAgo);
    await b!.observe({ limit: 100, remaining: 99 }, { sentAt: clock.t, status: 200, reserved: false });
    expect(existsSync(b!.file)).toBe(true);
    expect([existsSync(old), existsSync(recent), existsSync(notABudget)]).toEqual([false, true, true]);
    // An existing key's writes (every request) never list the directory.
    writeFileSync(old, '{}');
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    await b!.observe({ limit: 100, remaining: 10 }, { sentAt: clock.t, status: 200, reserved: true });
    expect(existsSync(old)).toBe(true);
  });

  it('paces nothing until the service announced a limit, and never names the token in the file', async () => {
    const clock = { t: 1_000_000 };
    const [b] = budgets(1, clock);
    expect(await b!.take()).toEqual({ waitMs: 0, reserved: false });
    await b!.observe({ limit: 10, remaining: 9 }, { sentAt: clock.t, status: 200, reserved: false });
    expect(readFileSync(b!.file, 'utf8')).not.toContain('tok');
    expect(b!.file).not.toContain('tok');
  });

  it('processes sharing the file send at most budgetFor(limit) in any 60 s, then wait for the window', async () => {
    const clock = { t: 1_000_000 };
    const [a, b] = budgets(2, clock);
    await a!.observe({ limit: 10 }, { sentAt: clock.t, status: 200, reserved: false });
    expect(budgetFor(10)).toBe(8);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) waits.push((await (i % 2 ? a! : b!).take()).waitMs);
    // 1 unreserved send recorded by observe + 7 slots now; the 8th goes when the first second has left the window.
    expect(waits).toEqual([0, 0, 0, 0, 0, 0, 0, 61_000]);
    // A caller that may not wait (completion) is refused, and nothing is reserved for it.
    expect(await a!.take(-1)).toEqual({ waitMs: 61_000, refused: true, reserved: false });
    expect(await a!.take(0)).toMatchObject({ refused: true });
  });

  it('paces from X-RateLimit-Remaining: what others used of this window is not sent again', async () => {
    const clock = { t: 5_000_000 };
    const [a, b] = budgets(2, clock);
    // Right after an interrupted run: the service says 3 requests are left in this window.
    await a!.observe({ limit: 100, remaining: 3 }, { sentAt: clock.t, status: 200, reserved: false });
    clock.t += 10;
    expect((await b!.take()).waitMs).toBe(0);
    expect((await a!.take()).waitMs).toBe(0);
    // The request that brought the observation counts too (a margin for requests in flight): the next waits for the window to reset.
    expect((await b!.take()).waitMs).toBe(60_000 - 10);
  });

  it('sends of one second that an answer already counted in its Remaining are not counted again (a limit of 10)', async () => {
    const clock = { t: 7_000_000 };
    const [a] = budgets(1, clock);
    // Export POSTs a few ms apart, each answered with what the export bucket has left: 10 − n.
    const waits: number[] = [];
    for (let n = 1; n <= 9; n++) {
      const slot = await a!.take();
      waits.push(slot.waitMs);
      await a!.observe({ limit: 10, remaining: 10 - n }, { sentAt: clock.t, status: 200, reserved: slot.reserved });
      clock.t += 5;
    }
    // budgetFor(10) = 8 in any 60 s: the 9th waits for the window, not the 6th.
    expect(waits.slice(0, 8)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(waits[8]).toBeGreaterThan(59_000);
  });

  it('a busy process reserves a few slots per turn at the file, and every one is counted', async () => {
    const clock = { t: 2_000_000 };
    const [a] = budgets(1, clock);
    await a!.observe({ limit: 6000 }, { sentAt: clock.t, status: 200, reserved: false });
    const waits: number[] = [];
    for (let i = 0; i < 50; i++) waits.push((await a!.take()).waitMs);
    expect(waits.every((w) => w === 0)).toBe(true);
    const file = JSON.parse(readFileSync(a!.file, 'utf8')) as { sent: Array<[number, number]> };
    const counted = file.sent.reduce((n, [, c]) => n + c, 0);
    expect(counted).toBeGreaterThanOrEqual(51);
    expect(counted).toBeLessThanOrEqual(51 + 16);
  });

  it('a 429 holds every process until its Retry-After', async () => {
    const clock = { t: 9_000_000 };
    const [a, b] = budgets(2, clock);
    await a!.observe({ limit: 100, remaining: 50 }, { sentAt: clock.t, status: 429, retryAfterMs: 7_000, reserved: true });
    expect((await b!.take()).waitMs).toBe(7_000);
  });

  it('an unusable cache directory turns pacing off instead of failing', async () => {
    const clock = { t: 1 };
    const b = new SharedBudget('/dev/null/formctl', 'https://api.example', 'tok', { now: () => clock.t });
    await b.observe({ limit: 10, remaining: 0 }, { sentAt: 1, status: 200, reserved: false });
    expect(await b.take()).toEqual({ waitMs: 0, reserved: false });
  });
});
