import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS, csvRowIds } from '../helpers/sandbox.js';

const DAY = 86_400_000;

// The built binary against both flavours: --since/--until on list and export, and the incremental
// export past the 1,000-row wall (the demo form seeded with 1,100 answers).
describe.each(FLAVORS)('submission date ranges and incremental exports from the built binary (%s sandbox)', (flavor) => {
  const today = Date.now();
  let clock = today - 40 * DAY;
  const fx = useSandboxFixture({ flavor, seed: 1100, now: () => clock });
  /** Ids answered 2 days ago and today, newest first. */
  let recent: number[] = [];

  async function answer(): Promise<number> {
    const res = await fetch(`${fx.sb.url}/forms/${fx.sb.formSlug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'New', email: 'new@example.com' }),
    });
    expect(res.status).toBe(200);
    const r = await runFormctl(['submission', 'list', String(fx.sb.formId), '-L', '1', '--json', 'id'], { env: fx.env });
    return JSON.parse(r.stdout)[0].id as number;
  }

  beforeAll(async () => {
    clock = today - 2 * DAY;
    const a = await answer();
    const b = await answer();
    clock = today;
    const c = await answer();
    recent = [c, b, a];
  }, 60_000);

  it('list --since reads only down to the range; --until ends it', async () => {
    const r = await runFormctl(['--debug', 'submission', 'list', String(fx.sb.formId), '--since', '3d', '--json', 'id'], { env: fx.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((s: { id: number }) => s.id)).toEqual(recent);
    // One page of 100 holds the range's start: the other 11 pages are never asked for.
    expect(r.stderr.match(/^\[debug\] > GET .*\/submissions\?/gm)).toHaveLength(1);
    const until = await runFormctl(['submission', 'list', String(fx.sb.formId), '--since', '3d', '--until', '1d', '--json', 'id'], { env: fx.env });
    expect(JSON.parse(until.stdout).map((s: { id: number }) => s.id)).toEqual(recent.slice(1));
    const bad = await runFormctl(['submission', 'list', String(fx.sb.formId), '--since', '3 days'], { env: fx.env });
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^error: --since: "3 days" is not a date, a time or a duration\.\nhint: /);
  });

  it('export --since/--until holds exactly the rows of the range', async () => {
    const file = join(fx.home.dir, `range-${flavor}.csv`);
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '--since', '3d', '-o', file, '--json'], { env: fx.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file, rows: 3, gone: 0, requests: { list: 1, export: 1 } });
    expect(csvRowIds(readFileSync(file, 'utf8'), flavor)).toEqual(recent);
    const none = join(fx.home.dir, `none-${flavor}.csv`);
    const empty = await runFormctl(['submission', 'export', String(fx.sb.formId), '--since', '2000-01-01', '--until', '2000-01-02', '-o', none], {
      env: fx.env,
    });
    expect(empty.code).toBe(0);
    expect(csvRowIds(readFileSync(none, 'utf8'), flavor)).toEqual([]);
    expect(readFileSync(none, 'utf8')).toMatch(/^\uFEFFid,/);
  });

  it('--incremental: every row on the first run (past 1,000, in chunks), then only the new ones; a header-only file when none', async () => {
    const state = join(fx.home.dir, `state-${flavor}.json`);
    const first = join(fx.home.dir, `inc1-${flavor}.csv`);
    const r1 = await runFormctl(['submission', 'export', String(fx.sb.formId), '--incremental', state, '-o', first, '--json'], {
      env: fx.env,
      timeoutMs: 60_000,
    });
    expect(r1.stderr).not.toContain('error');
    expect(r1.code).toBe(0);
    expect(JSON.parse(r1.stdout)).toMatchObject({ rows: 1103, first_run: true, known: 0, requests: { list: 12, export: 2 } });
    const ids1 = csvRowIds(readFileSync(first, 'utf8'), flavor);
    expect(new Set(ids1).size).toBe(1103);

    clock = today + 1000;
    const d = await answer();
    const second = join(fx.home.dir, `inc2-${flavor}.csv`);
    const r2 = await runFormctl(['submission', 'export', String(fx.sb.formId), '--incremental', state, '-o', second, '--json'], { env: fx.env });
    expect(r2.code).toBe(0);
    expect(JSON.parse(r2.stdout)).toMatchObject({ rows: 1, new: 1, first_run: false, requests: { list: 1, export: 1 } });
    expect(csvRowIds(readFileSync(second, 'utf8'), flavor)).toEqual([d]);

    const third = join(fx.home.dir, `inc3-${flavor}.csv`);
    const r3 = await runFormctl(['submission', 'export', String(fx.sb.formId), '--incremental', state, '-o', third], { env: fx.env });
    expect(r3.code).toBe(0);
    expect(r3.stderr).toMatch(
      /^note: no new rows since the last run \(newest exported: .*\): .*inc3-.*\.csv has the header only; 1 request \(1 list page, 0 exports\)\.\n$/,
    );
    expect(csvRowIds(readFileSync(third, 'utf8'), flavor)).toEqual([]);

    // The state names its form and columns: another column list is refused before any request.
    const cols = await runFormctl(
      ['submission', 'export', String(fx.sb.formId), '--incremental', state, '-o', join(fx.home.dir, 'x.csv'), '--columns', 'name'],
      {
        env: fx.env,
      },
    );
    expect(cols.code).toBe(2);
    expect(cols.stderr).toContain(`error: --incremental ${state} exports the columns`);
    const noFile = await runFormctl(['submission', 'export', String(fx.sb.formId), '--incremental', state], { env: fx.env });
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('error: --incremental needs -o FILE');
  }, 90_000);
});
