import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { SharedBudget } from '../../../src/api/ratelimit.js';
import { type SubmissionBulkDeleteOptions, submissionBulkDeleteRun } from '../../../src/commands/submission/delete-bulk.js';
import { CancelledError, InterruptedError, UsageError } from '../../../src/errors.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { fakeIO } from '../../helpers/io.js';
import { FLAVORS, type TestSandbox, csvRowIds, startTestSandbox } from '../../helpers/sandbox.js';

describe.each(FLAVORS)('submission delete --before/--where/--from (%s sandbox)', (flavor) => {
  let sb: TestSandbox;
  let dir: string;
  let client: ApiClient;

  beforeEach(async () => {
    sb = await startTestSandbox({ flavor, seed: 12 });
    dir = mkdtempSync(join(tmpdir(), 'formctl-bulk-delete-'));
    client = new ApiClient({ baseUrl: sb.url, token: sb.tokens.all, userAgent: 'formctl-test', timeoutMs: 5_000, maxWaitMs: 1_000, retryBaseMs: 1 });
  });
  afterEach(async () => {
    await client.close();
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function ids(): Promise<number[]> {
    const r = await client.request<{ data: { id: number }[] }>({ path: `/open/forms/${sb.formId}/submissions`, query: { page: 1, per_page: 100 } });
    return (r.data as { data: { id: number }[] }).data.map((s) => Number(s.id));
  }

  function opts(o: Partial<SubmissionBulkDeleteOptions>, io = fakeIO()): SubmissionBulkDeleteOptions {
    return {
      io: io.io,
      api: async () => client,
      prompter: () => ({}) as Prompter,
      form: String(sb.formId),
      now: () => Date.now(),
      sleep: async () => undefined,
      backup: join(dir, 'backup.csv'),
      ...o,
    } as SubmissionBulkDeleteOptions;
  }

  it('the backup CSV holds exactly the deleted rows; off a terminal --yes is required (exit 2, nothing sent)', async () => {
    const before = await ids();
    const file = join(dir, 'ids.txt');
    const chosen = before.filter((_, i) => i % 3 === 0);
    writeFileSync(file, `${chosen.join('\n')}\n999999\n`);
    await expect(submissionBulkDeleteRun(opts({ from: file }))).rejects.toBeInstanceOf(UsageError);
    expect(await ids()).toEqual(before);

    const io = fakeIO();
    await submissionBulkDeleteRun(opts({ from: file, yes: true, json: true }, io));
    const after = await ids();
    const deleted = before.filter((id) => !after.includes(id));
    expect(deleted.sort()).toEqual([...chosen].sort());
    expect(csvRowIds(readFileSync(join(dir, 'backup.csv'), 'utf8'), flavor).sort()).toEqual([...chosen].sort());
    expect(JSON.parse(io.out())).toEqual({
      form_id: sb.formId,
      selected: chosen.length,
      deleted: chosen.length,
      gone: 0,
      failed: 0,
      backup: join(dir, 'backup.csv'),
      results: join(dir, 'backup.csv.log.ndjson'),
    });
    expect(io.err()).toContain(`note: 1 id of ${file} is not in form ${sb.formId} (already deleted?): 999999.`);
    expect(io.err()).toMatch(new RegExp(`\n${chosen.length} submissions of form .* match:\n`));
  });

  it('stopped midway and resumed: every planned submission deleted once, one already gone counts as done', async () => {
    const before = await ids();
    const plan = before.slice(0, 6);
    const file = join(dir, 'ids.txt');
    writeFileSync(file, plan.join('\n'));
    const ctl = new AbortController();
    let deletes = 0;
    // The run is stopped (as Ctrl-C would) once two DELETEs have been answered.
    const counting = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop !== 'request') return Reflect.get(target, prop, receiver) as unknown;
        return async (req: { method?: string }) => {
          const res = await target.request(req as Parameters<ApiClient['request']>[0]);
          if (req.method === 'DELETE' && ++deletes === 2) ctl.abort();
          return res;
        };
      },
    });
    const first = fakeIO();
    // The log's path needs quoting, and the profile came from --profile: the command to continue
    // names both as another shell needs them.
    const log = join(dir, "run's log.ndjson");
    const context = async () => ({ profileName: 'ci-box', profileSource: 'flag' });
    await expect(
      submissionBulkDeleteRun(opts({ from: file, yes: true, results: log, context, api: async () => counting, signal: ctl.signal, rateLimit: 6000 }, first)),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(first.err()).toContain(
      `continue with: formctl --profile ci-box submission delete ${sb.formId} --resume --results '${dir}/run'\\''s log.ndjson' --rate-limit 6000\n`,
    );
    expect((await ids()).length).toBe(before.length - 2);

    // A kill between the DELETE and its record: the log says "deleting" only; and one planned
    // submission is deleted by someone else meanwhile.
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    writeFileSync(log, lines.slice(0, -1).join('\n') + '\n');
    await client.request({ method: 'DELETE', path: `/open/forms/${sb.formId}/submissions/${plan[4]}` });

    const second = fakeIO();
    await submissionBulkDeleteRun(opts({ resume: true, results: log, backup: undefined, json: true }, second));
    expect(JSON.parse(second.out())).toMatchObject({ selected: 6, deleted: 3, gone: 2, failed: 0 });
    expect(second.err()).toContain('note: resuming: 1 of 6 already done, 5 to go');
    const after = await ids();
    expect(after).toEqual(before.slice(6));
    expect(csvRowIds(readFileSync(join(dir, 'backup.csv'), 'utf8'), flavor)).toEqual(plan);
    // Each planned id ends the log as deleted or gone, once.
    const ends = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id?: number; status?: string })
      .filter((r) => r.status === 'deleted' || r.status === 'gone');
    expect(ends.map((r) => r.id).sort()).toEqual([...plan].sort());
  });

  it('--before and --where select by time and answer; --dry-run deletes nothing', async () => {
    const before = await ids();
    const io = fakeIO();
    await submissionBulkDeleteRun(opts({ where: ['rating', '5'], dryRun: true, json: true }, io));
    const dry = JSON.parse(io.out());
    expect(dry).toMatchObject({ dry_run: true, form_id: sb.formId });
    expect(dry.selected).toBeGreaterThan(0);
    expect(await ids()).toEqual(before);
    const none = fakeIO();
    await submissionBulkDeleteRun(
      opts({ before: { kind: 'instant', ms: Date.parse('2000-01-01T00:00:00Z'), dateOnly: true, text: '2000-01-01' }, yes: true }, none),
    );
    expect(none.err()).toMatch(/^0 submissions of form .* match; nothing to delete\.\n$/);
    expect(await ids()).toEqual(before);
  });

  it('the backup keeps the answers to fields the form no longer has (its removed_properties)', async () => {
    const form = (await client.request<Record<string, unknown>>({ path: `/open/forms/${sb.formId}` })).data;
    const properties = (form.properties as Array<{ id: string }>).filter((p) => p.id !== 'comments');
    await client.request({ method: 'PUT', path: `/open/forms/${sb.formId}`, body: { ...form, properties } });
    const r = await client.request<{ data: Array<{ id: number; data: Record<string, unknown> }> }>({
      path: `/open/forms/${sb.formId}/submissions`,
      query: { page: 1, per_page: 100 },
    });
    const target = (r.data as { data: Array<{ id: number; data: Record<string, unknown> }> }).data.find((x) => typeof x.data.comments === 'string')!;
    const file = join(dir, 'one.txt');
    writeFileSync(file, `${target.id}\n`);
    await submissionBulkDeleteRun(opts({ from: file, yes: true }));
    const [header, row] = readFileSync(join(dir, 'backup.csv'), 'utf8')
      .replace(/^\uFEFF/, '')
      .split('\n');
    expect(header).toBe('id,Name,Email,Rating,Comments,created_at');
    expect(row).toContain(String(target.data.comments).includes(',') ? `"${String(target.data.comments)}"` : String(target.data.comments));
  });

  it("a field whose id is part of an earlier field's column name: the deployed server's backup has no column for it, so nothing is deleted", async () => {
    // Username (user) comes first; the deployed export picks the first key holding "name" for Full (name).
    const form = (await client.request<Record<string, unknown>>({ path: `/open/forms/${sb.formId}` })).data;
    const properties = [
      { id: 'user', name: 'Username', type: 'text' },
      { id: 'name', name: 'Full', type: 'text' },
    ];
    await client.request({ method: 'PUT', path: `/open/forms/${sb.formId}`, body: { ...form, properties } });
    const before = await ids();
    const file = join(dir, 'one.txt');
    writeFileSync(file, `${before[0]}\n`);
    const run = submissionBulkDeleteRun(opts({ from: file, yes: true }));
    if (flavor === 'deployed') {
      await expect(run).rejects.toMatchObject({ exitCode: 1, message: expect.stringContaining('"Full" (name)') as unknown });
      expect(await ids()).toEqual(before);
      expect(existsSync(join(dir, 'backup.csv'))).toBe(false);
    } else {
      await run;
      expect(await ids()).toEqual(before.slice(1));
      expect(
        readFileSync(join(dir, 'backup.csv'), 'utf8')
          .replace(/^\uFEFF/, '')
          .split('\n')[0],
      ).toContain('Username,Full');
    }
  });

  it('--json takes a field list and --jq beside it, through the output layer as every --json does', async () => {
    const picked = fakeIO();
    await submissionBulkDeleteRun(opts({ where: ['rating', '5'], dryRun: true, json: ['form_id', 'selected'] }, picked));
    expect(Object.keys(JSON.parse(picked.out()) as object)).toEqual(['form_id', 'selected']);
    const jq = fakeIO();
    await submissionBulkDeleteRun(opts({ where: ['rating', '5'], dryRun: true, jq: '.dry_run' }, jq));
    expect(jq.out()).toBe('true\n');
  });

  it('a default backup name another run takes after it was chosen (its .part held, or its backup saved first) moves on to -2; a --backup given is refused', async () => {
    const form = (await client.request<{ slug: string }>({ path: `/open/forms/${sb.formId}` })).data;
    const at = Date.UTC(2026, 10, 28, 12, 0, 0);
    const stem = `${form.slug}-deleted-2026-11-28T12-00-00Z`;
    const before = await ids();
    // What another run does to `file` once this run has chosen its names and reads the list: a
    // running export holds its .part (an owner record naming a live process: this one), or has saved it.
    const competing = (take: () => void) => {
      let taken = false;
      return new Proxy(client, {
        get(target, prop, receiver) {
          if (prop !== 'request') return Reflect.get(target, prop, receiver) as unknown;
          return async (req: { method?: string; path: string }) => {
            if (!taken && (req.method ?? 'GET') === 'GET' && req.path.endsWith('/submissions')) {
              taken = true;
              take();
            }
            return target.request(req as Parameters<ApiClient['request']>[0]);
          };
        },
      });
    };
    const holdPart = (file: string) => () => {
      writeFileSync(`${file}.part`, 'rows of the other run\n');
      writeFileSync(`${file}.part.owner`, JSON.stringify({ pid: process.pid, host: hostname(), started: new Date().toISOString() }));
    };
    const run = async (id: number, take: () => void, more: Partial<SubmissionBulkDeleteOptions> = {}) => {
      const file = join(dir, `ids-${id}.txt`);
      writeFileSync(file, `${id}\n`);
      const io = fakeIO();
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        await submissionBulkDeleteRun(
          opts({ from: file, yes: true, json: true, backup: undefined, now: () => at, api: async () => competing(take), ...more }, io),
        );
      } finally {
        process.chdir(cwd);
      }
      return { io, out: JSON.parse(io.out()) as { backup: string; results: string; deleted: number } };
    };

    // Its .part held by a running export: that run's files are left as they are, the backup goes to -2.
    const held = await run(before[0]!, holdPart(join(dir, `${stem}.csv`)));
    expect(held.out).toMatchObject({ deleted: 1, backup: `${stem}-2.csv`, results: `${stem}-2.csv.log.ndjson` });
    expect(held.io.err()).toContain(`note: ${stem}.csv was taken by another run meanwhile; the backup goes to ${stem}-2.csv instead.`);
    expect(readFileSync(join(dir, `${stem}.csv.part`), 'utf8')).toBe('rows of the other run\n');
    expect(existsSync(join(dir, `${stem}.csv.part.owner`))).toBe(true);
    expect(csvRowIds(readFileSync(join(dir, `${stem}-2.csv`), 'utf8'), flavor)).toEqual([before[0]]);
    rmSync(join(dir, `${stem}.csv.part`));
    rmSync(join(dir, `${stem}.csv.part.owner`));

    // Saved under that name while this run downloaded (-2 is taken now too): never replaced, the backup goes to -3.
    const saved = await run(before[1]!, () => writeFileSync(join(dir, `${stem}.csv`), 'backup of the other run\n'));
    expect(saved.out).toMatchObject({ deleted: 1, backup: `${stem}-3.csv` });
    expect(readFileSync(join(dir, `${stem}.csv`), 'utf8')).toBe('backup of the other run\n');
    expect(csvRowIds(readFileSync(join(dir, `${stem}-3.csv`), 'utf8'), flavor)).toEqual([before[1]]);

    // A name the user gave is theirs: refused (exit 2), nothing deleted, the other run's .part kept.
    const given = join(dir, 'given.csv');
    const refused = run(before[2]!, holdPart(given), { backup: given });
    await expect(refused).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining(`${given}.part exists: another export to ${given} is running`),
    });
    expect(readFileSync(`${given}.part`, 'utf8')).toBe('rows of the other run\n');
    expect(existsSync(given)).toBe(false);
    expect(await ids()).toEqual(before.slice(2));
  });

  it('on a terminal the count must be typed: another number cancels (exit 3) and deletes nothing', async () => {
    const before = await ids();
    const asked: string[] = [];
    const typing = (answer: string) => () => ({ input: async (q: { message: string }) => (asked.push(q.message), answer) }) as unknown as Prompter;
    const wrong = fakeIO({ tty: true, canPrompt: true });
    await expect(submissionBulkDeleteRun(opts({ where: ['rating', '5'], prompter: typing('1') }, wrong))).rejects.toBeInstanceOf(CancelledError);
    expect(await ids()).toEqual(before);
    const count = asked[0]!.match(/Delete (\d+) submissions?/)![1]!;
    expect(asked[0]).toContain(`Type the count ${count} to confirm:`);
    const right = fakeIO({ tty: true, canPrompt: true });
    await submissionBulkDeleteRun(opts({ where: ['rating', '5'], prompter: typing(count), backup: join(dir, 'typed.csv') }, right));
    expect((await ids()).length).toBe(before.length - Number(count));
  });
});

describe.each(FLAVORS)('submission delete paced under the rate limit (%s sandbox)', (flavor) => {
  /** A bulk delete of form `formId` through `client`, on the simulated clock, answering --yes and --json; its stdout. */
  async function deleteOn(
    client: ApiClient,
    formId: number | undefined,
    clock: { now: () => number; sleep: (ms: number) => Promise<void> },
    more: Partial<SubmissionBulkDeleteOptions>,
  ) {
    const io = fakeIO();
    await submissionBulkDeleteRun({
      io: io.io,
      api: async () => client,
      prompter: () => ({}) as Prompter,
      form: String(formId),
      ...clock,
      yes: true,
      json: true,
      ...more,
    } as SubmissionBulkDeleteOptions);
    return io.out();
  }

  // A run longer than a rate window, as formctl runs it: the budget shared with other formctl
  // processes and --max-wait's 60 s for the whole command. The pacing must keep every DELETE under
  // the shared budget, so that no DELETE is refused for a wait (recorded "failed", exit 10).
  it('deletes 30 submissions at 10 requests a minute with none failed', async () => {
    let clock = Date.parse('2026-05-01T10:00:00.000Z');
    const now = () => clock;
    const sleep = async (ms: number) => {
      clock += ms;
    };
    const sb = await startTestSandbox({ flavor, seed: 30, rateLimit: 10, now });
    const dir = mkdtempSync(join(tmpdir(), 'formctl-bulk-delete-pace-'));
    const budgets = {
      general: new SharedBudget(join(dir, 'ratelimit'), sb.url, sb.tokens.all, { now }),
      export: new SharedBudget(join(dir, 'ratelimit'), sb.url, sb.tokens.all, { now, bucket: 'export' }),
    };
    const client = new ApiClient({
      baseUrl: sb.url,
      token: sb.tokens.all,
      userAgent: 'formctl-test',
      timeoutMs: 5_000,
      maxWaitMs: 60_000,
      now,
      sleep,
      budgets,
    });
    try {
      const out = await deleteOn(client, sb.formId, { now, sleep }, { before: { kind: 'ago', ms: 0, text: '0m' }, backup: join(dir, 'backup.csv') });
      expect(JSON.parse(out)).toMatchObject({ selected: 30, deleted: 30, gone: 0, failed: 0 });
    } finally {
      await client.close();
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  // A service that announces no limit (here the sandbox with --rate-limit 0: no X-RateLimit-* headers)
  // is paced at 100/min unless --rate-limit says otherwise. Simulated time: the clock moves only by the waits asked for.
  it('--rate-limit sets the pace where the service announces no limit; without it, 100/min', async () => {
    const sb = await startTestSandbox({ flavor, seed: 30, rateLimit: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'formctl-bulk-delete-rate-'));
    try {
      const waited = async (rateLimit: number | undefined, before: string) => {
        let clock = Date.now();
        const now = () => clock;
        const sleep = async (ms: number) => {
          clock += ms;
        };
        const start = clock;
        const client = new ApiClient({ baseUrl: sb.url, token: sb.tokens.all, userAgent: 'formctl-test', timeoutMs: 5_000, maxWaitMs: 60_000, now, sleep });
        try {
          const out = await deleteOn(client, sb.formId, { now, sleep }, { from: join(dir, `${before}.ids`), backup: join(dir, `${before}.csv`), rateLimit });
          expect(JSON.parse(out)).toMatchObject({ deleted: 15, failed: 0 });
        } finally {
          await client.close();
        }
        return clock - start;
      };
      const ids = Array.from({ length: 30 }, (_, i) => i + 1);
      writeFileSync(join(dir, 'a.ids'), ids.slice(0, 15).join('\n') + '\n');
      writeFileSync(join(dir, 'b.ids'), ids.slice(15).join('\n') + '\n');
      // 15 DELETEs at 95/min take about 14 intervals of 632 ms; at 6000/min (5700 paced) nearly none.
      expect(await waited(undefined, 'a')).toBeGreaterThan(8_000);
      expect(await waited(6000, 'b')).toBeLessThan(1_000);
    } finally {
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
