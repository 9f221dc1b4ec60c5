import { describe, expect, it } from 'vitest';
import { SharedBudget } from '../../src/api/ratelimit.js';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type RunResult, frozenClockEnv, runFormctl } from '../helpers/cli.js';
import { sandboxForTest } from '../helpers/fixture.js';

// The rate budget is shared by every formctl process of one machine (one cache directory) that
// talks to one service as one user. The sandbox counts requests per client address in a fixed
// 60 s window, like the deployed service counts them per user.
//
// The minute is where each test puts it, not where the machine's speed leaves it: the formctl
// processes run with their clock stopped at an instant the test chooses (frozenClockEnv), and the
// sandbox reads a clock the test sets. A loaded machine makes the runs slower, never later.

/** The answers a run's debug log shows (one line per request sent). */
const answers = (r: RunResult) => r.stderr.split('\n').filter((l) => /^\[debug\] < \d{3} /.test(l));

describe('one rate budget for every formctl process on the machine', () => {
  it('4 processes running 3 `workspace list` each (12 requests against 10/min): the budget (8) goes in the first minute, the rest are held without a request, and go after a wait in the next; no 429', async () => {
    const t0 = Math.floor(Date.now() / 1000) * 1000;
    let serviceNow = t0;
    const fx = await sandboxForTest({ rateLimit: 10, now: () => serviceNow });
    const env = { ...fx.env, FORMCTL_DEBUG: '1' };
    // --max-wait 30: a wait for the next minute (61 s) is refused before sending (exit 8); two seconds are waited.
    const run = (at: number) => runFormctl(['workspace', 'list', '--json', 'id', '--max-wait', '30'], { env: { ...env, ...frozenClockEnv(at) } });
    const loop = async () => {
      const out: RunResult[] = [];
      for (let i = 0; i < 3; i++) out.push(await run(t0));
      return out;
    };
    // The first minute: all twelve at its first instant, four processes at a time.
    const first = (await Promise.all([loop(), loop(), loop(), loop()])).flat();
    const sent = first.flatMap(answers);
    // budgetFor(10) = 8 requests, each answered 200: together the processes stayed under the limit.
    expect(sent.map((l) => l.slice(0, 14))).toEqual(Array(8).fill('[debug] < 200 '));
    const held = first.filter((r) => r.code !== 0);
    expect(first.filter((r) => r.code === 0)).toHaveLength(8);
    expect(held.map((r) => [r.code, answers(r).length])).toEqual(Array(4).fill([8, 0]));
    for (const r of held) expect(r.stderr).toContain('general rate budget used up for 61 s more; not sent');
    // The next minute for the service; for the processes, two seconds before their budget's window frees.
    serviceNow = t0 + 61_000;
    const second = await Promise.all(held.map(() => run(t0 + 59_000)));
    expect(second.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(second.flatMap(answers).map((l) => l.slice(0, 14))).toEqual(Array(4).fill('[debug] < 200 '));
    // Each waited for the window, and said so.
    for (const r of second) expect(r.stderr).toContain("note: pacing under the service's rate limit");
  });

  it('completion never waits on the rate limit: with the budget used up it answers nothing at once and sends nothing', async () => {
    const now = Date.now();
    // Its own sandbox with room to spare, so that its X-RateLimit-Remaining counts every request.
    const fx = await sandboxForTest({ rateLimit: 1000 });
    // A minute for the answer (FORMCTL_COMPLETE_TIMEOUT): a loaded machine must not empty the control's answer.
    const env = { ...fx.env, ...frozenClockEnv(now), FORMCTL_COMPLETE_TIMEOUT: '60' };
    // Another formctl process used up this minute's budget for this service and token.
    const budget = new SharedBudget(join(fx.home.env.FORMCTL_CACHE_DIR!, 'ratelimit'), new URL(fx.sb.url).origin, fx.sb.tokens.all, { now: () => now });
    await budget.observe({ limit: 10, remaining: 0 }, { sentAt: now, status: 200, reserved: false });
    const before = await fetch(`${fx.sb.url}/open/workspaces`, { headers: { authorization: `Bearer ${fx.sb.tokens.readonly}` } });
    const seenBefore = Number(before.headers.get('x-ratelimit-remaining'));
    const r = await runFormctl(['__complete', 'workspace', 'use', ''], { env });
    // No candidates: the directive line alone (docs/completion.md).
    expect(r).toEqual({ code: 0, stdout: ':0\n', stderr: '' });
    // The sandbox counted no request from it (only this test's own two probes).
    const after = await fetch(`${fx.sb.url}/open/workspaces`, { headers: { authorization: `Bearer ${fx.sb.tokens.readonly}` } });
    expect(seenBefore - Number(after.headers.get('x-ratelimit-remaining'))).toBe(1);
    // The control: a minute later the budget has room again, and the same completion asks.
    const later = await runFormctl(['__complete', 'workspace', 'use', ''], { env: { ...env, ...frozenClockEnv(now + 61_000) } });
    expect(later.stdout).toMatch(/^\d+\t/);
  });

  it('completion answers from an older cache entry when the budget is used up', async () => {
    const t0 = Date.now();
    const fx = await sandboxForTest({ rateLimit: 3 });
    // A minute for the first answer (FORMCTL_COMPLETE_TIMEOUT): a loaded machine must not empty it.
    const env = { ...fx.env, FORMCTL_COMPLETE_TIMEOUT: '60' };
    const first = await runFormctl(['__complete', 'workspace', 'use', ''], { env: { ...env, ...frozenClockEnv(t0) } });
    expect(first.stdout).toMatch(/^\d+\t/);
    // Others use up the rest of the service's window.
    for (let i = 0; i < 2; i++) await fetch(`${fx.sb.url}/open/workspaces`, { headers: { authorization: `Bearer ${fx.sb.tokens.readonly}` } });
    // Two minutes later the entry is past its 60 s freshness, and the budget is used up.
    const t1 = t0 + 120_000;
    const budget = new SharedBudget(join(fx.home.env.FORMCTL_CACHE_DIR!, 'ratelimit'), new URL(fx.sb.url).origin, fx.sb.tokens.all, { now: () => t1 });
    await budget.observe({ limit: 10, remaining: 0 }, { sentAt: t1, status: 200, reserved: false });
    const again = await runFormctl(['__complete', 'workspace', 'use', ''], { env: { ...env, ...frozenClockEnv(t1) } });
    expect(again).toEqual({ code: 0, stdout: first.stdout, stderr: '' });
  });
});

// The deployed service counts every request of a user against 100 a minute, and export POSTs also
// against a bucket of their own, 10 a minute (docs/service.md). The export answers carry that
// bucket's headers: they must pace the export POSTs only, never every other request.
describe('one budget per limiter bucket', () => {
  // 7,000 rows: the export that answers with a job and 7 chunks of 1,000 ids are 8 export POSTs, all
  // the export budget allows in a minute (budgetFor(10) = 8) and under the service's 10.
  it('a 7,000-row chunked export waits for nothing, and the commands after it are not held either', { timeout: 120_000 }, async () => {
    const fx = await sandboxForTest({ flavor: 'deployed', seed: 7000, rateLimit: 100, exportRateLimit: 10 });
    const out = join(fx.home.dir, 'big.csv');
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '-o', out, '--debug'], { env: fx.env, timeoutMs: 100_000 });
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(1 + 7000);
    const sent = r.stderr
      .split('\n')
      .filter((l) => l.startsWith('[debug] > '))
      .map((l) =>
        /^\[debug\] > (\w+) https?:\/\/[^/]+(\/[^?\s]*)/
          .exec(l)!
          .slice(1)
          .join(' ')
          .replace(/[0-9a-f-]{36}/, 'JOB'),
      );
    const f = `/open/forms/${fx.sb.formId}`;
    // The form, the export that answers with a job, its status on both paths (closed to tokens),
    // the 70 list pages holding the ids, and 7 chunks of 1,000 ids (the list read one chunk ahead).
    expect(sent.filter((l) => l.startsWith('POST'))).toEqual(Array<string>(8).fill(`POST ${f}/submissions/export`));
    expect(sent.filter((l) => l === `GET ${f}/submissions`)).toHaveLength(70);
    expect(sent.slice(0, 4)).toEqual([
      `GET ${f}`,
      `POST ${f}/submissions/export`,
      `GET ${f}/submissions/export/JOB/status`,
      `GET ${f}/submissions/export/status/JOB`,
    ]);
    expect(sent).toHaveLength(4 + 70 + 7);
    expect(r.stderr).not.toContain('pacing');
    expect(r.stderr).not.toMatch(/^\[debug\] < 429/m);
    // Later commands in the same minute count against the general limit only (100 a minute, about
    // 81 used): they go at once. Taken for the whole service, the export bucket's "2 left of 10"
    // would hold them for a minute (here: exit 8, as --max-wait is short).
    const later: Array<[string[], number]> = [
      [['workspace', 'list'], 1],
      [['submission', 'list', String(fx.sb.formId), '--limit', '5'], 2], // the form, then one page
      [['form', 'get', String(fx.sb.formId)], 1],
    ];
    for (const [args, requests] of later) {
      const next = await runFormctl([...args, '--debug', '--max-wait', '5'], { env: fx.env, timeoutMs: 30_000 });
      expect(next.stderr).not.toContain('pacing');
      expect(next.code).toBe(0);
      expect(next.stderr.split('\n').filter((l) => l.startsWith('[debug] > '))).toHaveLength(requests);
    }
    // Two files: the general budget knows 100 a minute, the export budget 10.
    const dir = join(fx.home.env.FORMCTL_CACHE_DIR!, 'ratelimit');
    const limits = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .map((n) => (JSON.parse(readFileSync(join(dir, n), 'utf8')) as { limit?: number }).limit)
      .sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(limits).toEqual([10, 100]);
  });
});
