import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../../helpers/cli.js';
import { runCli, runInProcess } from '../../helpers/run-cli.js';
import { FLAVORS, type TestSandbox, startTestSandbox } from '../../helpers/sandbox.js';

interface Listed {
  id: number;
  submission_id: string;
  completion_time?: number | null;
  data: Record<string, unknown>;
}

/** The answers of a listed submission without the keys the deployed list adds inside `data`. */
function answers(s: Listed): Record<string, unknown> {
  const { status: _s, created_at: _c, id: _i, submission_id: _u, ...rest } = s.data;
  return rest;
}

// Every data-path command on both services' behaviours, run in-process (src/main.ts `run`) against
// the sandbox: the spec's (patch with `data`) and the deployed OpnForm server's (answers replaced by
// the top-level keys, UUID submission ids, path ids read as their leading digits, export status
// closed to tokens). test/e2e/flavours.test.ts runs the built binary on both flavours, with a bulk
// run killed mid-way.
describe.each(FLAVORS)('submissions on the %s flavour ', (flavor) => {
  let home: ReturnType<typeof tempHome>;
  let sb: TestSandbox;
  let env: NodeJS.ProcessEnv;
  let work: string;
  beforeAll(async () => {
    home = tempHome();
    work = mkdtempSync(join(tmpdir(), 'formctl-flavors-'));
    sb = await startTestSandbox({ flavor, seed: 30 });
    env = { ...home.env, ...sb.env };
  });
  afterAll(async () => {
    await sb.close();
    home.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  const list = async (): Promise<Listed[]> => {
    const r = await runInProcess(['submission', 'list', String(sb.formId), '--json'], { env });
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as Listed[];
  };
  /** Answers the demo form as a respondent would, with a completion time. */
  const answer = async (values: Record<string, unknown>): Promise<Listed> => {
    const res = await fetch(`${sb.url}/forms/${sb.formSlug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(values),
    });
    expect(res.status).toBe(200);
    return (await list())[0]!;
  };

  it('a one-field update keeps every other answer and the completion time', async () => {
    const before = await answer({ name: 'Grace Hopper', email: 'grace@example.com', rating: 2, comments: 'compilers', completion_time: 42 });
    const r = await runInProcess(['submission', 'update', String(sb.formId), String(before.id), '--set', 'Rating=5'], { env });
    expect(r.code).toBe(0);
    // The deployed flavour seeds a Slack and an e-mail integration: they fire again, and formctl says so.
    // The seeded Slack and e-mail integrations, named by kind (the seeded webhook is inactive).
    if (flavor === 'deployed')
      expect(r.stderr).toBe(
        'warning: the form has 2 active integrations; on the deployed OpnForm service they run again for each updated submission: 1 Slack, 1 e-mail will fire again.\n',
      );
    const after = (await list()).find((s) => s.id === before.id)!;
    expect(answers(after)).toEqual({ ...answers(before), rating: 5 });
    expect(after.completion_time ?? null).toEqual(before.completion_time ?? null);
    if (flavor === 'deployed') expect(after.completion_time).toBe(42);
  });

  it('--file takes a record saved from `submission list --json`, edited (the keys the list adds are left out)', async () => {
    const rec = (await list())[2]!;
    const file = join(work, `record-${flavor}.json`);
    writeFileSync(file, JSON.stringify({ ...rec, data: { ...rec.data, comments: 'edited in a file' } }));
    const r = await runInProcess(['submission', 'update', String(sb.formId), String(rec.id), '--file', file, '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).updated.sort()).toEqual(Object.keys(answers(rec)).sort());
    const after = (await list()).find((s) => s.id === rec.id)!;
    expect(answers(after)).toEqual({ ...answers(rec), comments: 'edited in a file' });
  });

  it('a UUID never reaches a path: update and delete look it up and send the numeric id', async () => {
    const subs = await list();
    const [a, b] = [subs[3]!, subs[4]!];
    if (flavor === 'deployed') expect(a.submission_id).toMatch(/^[0-9a-f]{8}-/);
    const u = await runInProcess(['--debug', 'submission', 'update', String(sb.formId), a.submission_id, '--set', 'Comments=by uuid'], { env });
    expect(u.code).toBe(0);
    const d = await runInProcess(['--debug', 'submission', 'delete', String(sb.formId), b.submission_id, '--yes'], { env });
    expect(d.code).toBe(0);
    const sent = [...u.stderr.split('\n'), ...d.stderr.split('\n')].filter((l) => /^\[debug\] > (PUT|DELETE) /.test(l));
    expect(sent.map((l) => l.replace(/^.*\/submissions\//, ''))).toEqual([String(a.id), String(b.id)]);
    const after = await list();
    expect(after.find((s) => s.id === a.id)!.data.comments).toBe('by uuid');
    expect(after.some((s) => s.id === b.id)).toBe(false);
    expect(after.length).toBe(subs.length - 1);
    // Gone now: a UUID is still only looked up in the list, and the error says so (no GET of it was sent).
    const again = await runInProcess(['submission', 'delete', String(sb.formId), b.submission_id, '--yes'], { env });
    expect(again.code).toBe(6);
    if (/^[0-9a-f]{8}-/.test(b.submission_id)) {
      expect(again.stderr).toBe(
        `error: Form ${sb.formId} has no submission ${b.submission_id}: it is not in the form's submission list (looked up in GET /open/forms/${sb.formId}/submissions, 1 page read).\n` +
          `hint: Check the submission id: formctl submission list ${sb.formId}\n`,
      );
    }
    // Everything else is as it was.
    const others = (xs: Listed[]) => xs.filter((s) => s.id !== a.id && s.id !== b.id).map((s) => JSON.stringify([s.id, answers(s)]));
    expect(others(after)).toEqual(others(subs));
  });

  it('a 3-line bulk run touches exactly those 3 submissions (a line with both ids uses the numeric one)', async () => {
    const subs = await list();
    const [x, y, z] = [subs[6]!, subs[10]!, subs[15]!];
    const from = join(work, `three-${flavor}.ndjson`);
    writeFileSync(
      from,
      [
        JSON.stringify({ id: x.id, submission_id: x.submission_id, Comments: 'bulk x' }),
        JSON.stringify({ submission_id: y.submission_id, Rating: 1 }),
        JSON.stringify({ id: z.id, Name: 'Zed' }),
      ].join('\n') + '\n',
    );
    const r = await runInProcess(['--debug', 'submission', 'update', String(sb.formId), '--from', from, '--yes'], { env });
    expect(r.code).toBe(0);
    expect(
      r.stderr
        .split('\n')
        .filter((l) => l.startsWith('[debug] > PUT'))
        .map((l) => l.replace(/^.*\/submissions\//, ''))
        .sort(),
    ).toEqual([x.id, y.id, z.id].map(String).sort());
    const after = await list();
    const changed = after.filter((s) => JSON.stringify(answers(s)) !== JSON.stringify(answers(subs.find((o) => o.id === s.id)!))).map((s) => s.id);
    expect(changed.sort((p, q) => p - q)).toEqual([x.id, y.id, z.id].sort((p, q) => p - q));
    expect(answers(after.find((s) => s.id === x.id)!)).toEqual({ ...answers(x), comments: 'bulk x' });
    expect(answers(after.find((s) => s.id === y.id)!)).toEqual({ ...answers(y), rating: 1 });
    expect(answers(after.find((s) => s.id === z.id)!)).toEqual({ ...answers(z), name: 'Zed' });
  });

  it("submission get: the list's record of one submission, found through the list, as JSON, --jq, TSV and a table; by UUID too", async () => {
    const target = await answer({ name: 'Ada Get', email: 'ada@get.example', rating: 4, comments: 'one of many', completion_time: 12 });
    const rec = (await list()).find((x) => x.id === target.id)!;
    const json = await runInProcess(['--debug', 'submission', 'get', String(sb.formId), String(target.id), '--json'], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(rec);
    // No request for the submission itself: the route is closed to tokens on the deployed service, and the spec has none.
    expect(json.stderr.match(/^\[debug\] > GET .*$/gm)).toEqual([
      `[debug] > GET ${sb.url}/open/forms/${sb.formId}`,
      `[debug] > GET ${sb.url}/open/forms/${sb.formId}/submissions?page=1&per_page=100`,
    ]);
    const jq = await runInProcess(['submission', 'get', String(sb.formId), rec.submission_id, '--jq', '.data.email'], { env });
    expect([jq.code, jq.stdout]).toEqual([0, 'ada@get.example\n']);
    const tsv = await runInProcess(['submission', 'get', String(sb.formId), String(target.id)], { env });
    const deployed = flavor === 'deployed';
    expect(tsv.stdout).toBe(
      [
        `id\t${target.id}`,
        ...(deployed ? [`uuid\t${rec.submission_id}`] : []),
        `submitted\t${(rec as unknown as { submitted_at: string }).submitted_at}`,
        ...(deployed ? ['status\tcompleted', 'seconds taken\t12'] : []),
        'name\tAda Get',
        'email\tada@get.example',
        'rating\t4',
        'comments\tone of many',
        '',
      ].join('\n'),
    );
    const table = await runCli(['submission', 'get', String(sb.formId), String(target.id)], { url: sb.url, tty: true, env });
    expect(table.err).toBe('');
    expect(table.out).toMatch(new RegExp(`^ID +${target.id}\n(UUID +${rec.submission_id}\n)?Submitted +(just now|\\d+ seconds? ago)\n`));
    // Headers padded to the longest ("Seconds taken" on the deployed flavour, "Submitted" on the spec's) and two spaces.
    expect(table.out).toContain(`\nName${' '.repeat(deployed ? 11 : 7)}Ada Get\n`);
    const missing = await runInProcess(['submission', 'get', String(sb.formId), '99999'], { env });
    expect(missing.code).toBe(6);
    expect(missing.stderr).toMatch(/^error: Form \d+ has no submission 99999: it is not in the form's submission list/);
  });

  it('a small export is the CSV itself: every row, one header', async () => {
    const out = join(work, `small-${flavor}.csv`);
    const r = await runInProcess(['submission', 'export', String(sb.formId), '-o', out], { env });
    expect(r.code).toBe(0);
    const csv = readFileSync(out, 'utf8');
    expect(csv.startsWith('\ufeff')).toBe(true);
    expect(csv.trimEnd().split('\n').length).toBe((await list()).length + 1);
  });
});

describe.each(FLAVORS)('a 1,200-row export on the %s flavour ', (flavor) => {
  it('exports 1,200 rows with one BOM and one header', async () => {
    const home = tempHome();
    const work = mkdtempSync(join(tmpdir(), 'formctl-flavors-big-'));
    const sb = await startTestSandbox({ flavor, seed: 1200, exportJobStepMs: 5 });
    try {
      const out = join(work, 'big.csv');
      const r = await runInProcess(['--debug', 'submission', 'export', String(sb.formId), '-o', out, '--poll-interval', '0.1'], {
        env: { ...home.env, ...sb.env },
      });
      expect(r.code).toBe(0);
      const csv = readFileSync(out, 'utf8');
      const lines = csv.trimEnd().split('\n');
      expect(lines.length).toBe(1201);
      expect(csv.split('\ufeff').length).toBe(2);
      expect(lines.filter((l) => l === lines[0]).length).toBe(1);
      expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(1200);
      if (flavor === 'deployed') {
        // The job's status is closed to tokens: said truthfully, then the rows come in chunks of ids.
        expect(r.stderr).toContain('this service does not let API tokens read the status of export job');
        expect(r.stderr).not.toMatch(/expire/i);
        expect(r.stderr.split('\n').filter((l) => /^\[debug\] > POST .*\/submissions\/export$/.test(l)).length).toBe(3);
        // Remembered for this service: the second export starts no job, it goes straight to the 2 chunks.
        const again = await runInProcess(['--debug', 'submission', 'export', String(sb.formId), '-o', out, '--clobber'], {
          env: { ...home.env, ...sb.env },
        });
        expect(again.code, again.stderr).toBe(0);
        expect(again.stderr).toMatch(
          /note: this service does not let API tokens read export jobs \(seen \d{4}-\d\d-\d\d\), and form \d+ has 1,200 submissions: exporting them in chunks of 1,000 rows, without starting a job\./,
        );
        expect(again.stderr.split('\n').filter((l) => /^\[debug\] > POST .*\/submissions\/export$/.test(l)).length).toBe(2);
        expect(again.stderr).not.toMatch(/export\/status|\/status\b/);
        const second = readFileSync(out, 'utf8').trimEnd().split('\n');
        expect(second.length).toBe(1201);
        expect(second.filter((l: string) => l === second[0]).length).toBe(1);
      }
    } finally {
      await sb.close();
      home.cleanup();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
