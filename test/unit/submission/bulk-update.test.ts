import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BulkUpdateRunOptions, bulkUpdateRun } from '../../../src/commands/submission/bulk.js';
import type { CliError } from '../../../src/errors.js';
import { json, startStubServer, type StubServer } from '../../helpers/http.js';
import { fakeIO } from '../../helpers/io.js';
import { FORM, clientFor, serveForm } from './util.js';

let dir: string;
let stub: StubServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-bulk-'));
});
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Submissions 11..40 as the list shows them (99 is not there). */
const LISTED = Array.from({ length: 30 }, (_, i) => ({ id: 40 - i, submission_id: String(40 - i), data: { p_name: `N${40 - i}` } }));

/** Answers the list and the (empty) integrations list; true when it did. */
function serveReads(req: { method: string; url: string }, res: Parameters<typeof json>[0]): boolean {
  if (req.method !== 'GET') return false;
  if (req.url.includes('/submissions?')) {
    json(res, 200, { data: LISTED, meta: { current_page: 1, last_page: 1, per_page: 100, total: LISTED.length } });
    return true;
  }
  if (req.url.endsWith('/integrations')) {
    json(res, 200, []);
    return true;
  }
  return false;
}

/** PUT answers 200, except submission 13 (422); the form lookup announces a limit of 600/min. */
function server() {
  return startStubServer((req, res) => {
    if (req.method === 'GET' && serveForm(req, res)) return;
    if (serveReads(req, res)) return;
    const id = /submissions\/(\w+)$/.exec(req.url)?.[1];
    if (id === '13') return json(res, 422, { message: 'The given data was invalid.', errors: { 'data.p_email': ['Must be an email.'] } });
    json(res, 200, { message: 'Record successfully updated.' }, { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '500' });
  });
}

const INPUT = [
  '{"submission_id": "11", "Name": "Ada"}',
  '{"submission_id": 12, "data": {"p_email": "b@c.d"}}',
  '',
  '{"submission_id": "13", "Email": "nope"}',
  '{not json',
  '{"Name": "no id"}',
  '{"submission_id": "14", "Shoe size": 44}',
  '{"submission_id": "99", "Name": "gone"}',
  '{"submission_id": "15", "Age": 3}',
].join('\n');

function setup(o: Partial<BulkUpdateRunOptions> = {}) {
  const fio = fakeIO();
  let t = 0;
  const sleeps: number[] = [];
  const from = join(dir, 'in.ndjson');
  writeFileSync(from, INPUT + '\n');
  const options: BulkUpdateRunOptions = {
    io: fio.io,
    api: async () => clientFor(stub!.url),
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
    form: '42',
    from,
    concurrency: 1,
    results: join(dir, 'results.ndjson'),
    ...o,
  };
  return { fio, options, sleeps };
}

async function failure(p: Promise<unknown>): Promise<CliError> {
  try {
    await p;
  } catch (err) {
    return err as CliError;
  }
  throw new Error('expected a failure');
}

/** The results file without the intent records; `input_hash` is checked on its own (it is a hash of the line's text). */
const results = () =>
  readFileSync(join(dir, 'results.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((r) => r.status !== 'sending')
    .map((l) => {
      const { input_hash, ...r } = l;
      expect(input_hash).toMatch(/^[0-9a-f]{16}$/);
      return r;
    });

describe('bulk update', () => {
  it('writes one result per line, keeps going past failures, exits 10, paced at the announced limit', async () => {
    stub = await server();
    const { fio, options, sleeps } = setup();
    const err = await failure(bulkUpdateRun(options));
    expect(err.exitCode).toBe(10);
    expect(err.message).toBe('5 of 8 lines failed.');
    expect(results()).toEqual([
      { line: 1, submission_id: '11', id: 11, status: 'ok' },
      { line: 2, submission_id: '12', id: 12, status: 'ok' },
      {
        line: 4,
        submission_id: '13',
        id: 13,
        status: 'failed',
        http_status: 422,
        error: 'The given data was invalid. (HTTP 422, PUT /open/forms/42/submissions/13); data.p_email: Must be an email.',
      },
      { line: 5, submission_id: null, status: 'failed', error: expect.stringMatching(/^--from .*in\.ndjson, line 5, column \d+: not valid JSON: .*\.$/) },
      { line: 6, submission_id: null, status: 'failed', error: 'missing "submission_id" (string or number)' },
      { line: 7, submission_id: '14', status: 'failed', error: 'Unknown field "Shoe size" in form contact-us.' },
      // Not in the list: refused without a request (a path id the service might read as another submission is never guessed).
      { line: 8, submission_id: '99', status: 'failed', error: 'form 42 has no submission 99 (it is not in `formctl submission list 42`)' },
      { line: 9, submission_id: '15', id: 15, status: 'ok' },
    ]);
    expect(stub.requests.filter((r) => r.method === 'PUT').map((r) => JSON.parse(r.body))).toEqual([
      { p_name: 'Ada', data: { p_name: 'Ada' } },
      { p_name: 'N12', p_email: 'b@c.d', data: { p_email: 'b@c.d' } },
      { p_name: 'N13', p_email: 'nope', data: { p_email: 'nope' } },
      { p_name: 'N15', p_age: 3, data: { p_age: 3 } },
    ]);
    // The form lookup carried no X-RateLimit-Limit, so the pace starts at 95 % of the default 100/min;
    // the first PUT announces 600/min and the pace follows it (95 % of 600).
    // The list read (the current answers) is the first paced request, so the first PUT waits one slot too.
    expect(sleeps.map((ms) => Math.round(ms))).toEqual([632, 632, 105, 105]);
    expect(fio.out()).toBe('');
    // Under a second of (fake) time: too short to measure a rate, so none is shown.
    expect(fio.err()).toBe(`8/8 lines · 3 ok · 5 failed (results in ${join(dir, 'results.ndjson')})\n`);
  });

  it('a non-number for a numeric field fails that line only', async () => {
    stub = await server();
    const { options } = setup();
    writeFileSync(options.from, '{"submission_id": "11", "Age": "old"}\n{"submission_id": "15", "Age": 3}\n');
    const err = await failure(bulkUpdateRun(options));
    expect(err.exitCode).toBe(10);
    expect(results()).toEqual([
      { line: 1, submission_id: '11', status: 'failed', error: 'Field "Age" (p_age) is a number field and takes a number, got "old".' },
      { line: 2, submission_id: '15', id: 15, status: 'ok' },
    ]);
    expect(stub.requests.filter((r) => r.method === 'PUT').map((r) => r.url)).toEqual(['/open/forms/42/submissions/15']);
  });

  it('a line that empties a required field, or unchecks a required checkbox, fails that line only, before its PUT (as a single update refuses it)', async () => {
    const required = {
      ...FORM,
      properties: [
        ...FORM.properties.map((p) => (p.id === 'p_name' ? { ...p, required: true } : p)),
        { id: 'p_ok', type: 'checkbox', name: 'Consent', required: true },
        { id: 'p_why', type: 'text', name: 'Why', required: true, logic: { conditions: {}, actions: ['make-it-optional'] } },
      ],
    };
    stub = await startStubServer((req, res) => {
      if (req.method === 'GET' && /^\/open\/forms\/42$/.test(req.url)) return json(res, 200, required);
      if (serveReads(req, res)) return;
      json(res, 200, { message: 'Record successfully updated.' });
    });
    const { options } = setup();
    writeFileSync(
      options.from,
      [
        '{"submission_id": "11", "Name": "  "}',
        '{"submission_id": "12", "data": {"p_name": null}}',
        '{"submission_id": "13", "Consent": false}',
        // Logic may make it optional: left to the service.
        '{"submission_id": "14", "Why": ""}',
        '{"submission_id": "15", "Name": "Bo"}',
      ].join('\n') + '\n',
    );
    const err = await failure(bulkUpdateRun(options));
    expect(err.exitCode).toBe(10);
    expect(err.message).toBe('3 of 5 lines failed.');
    const empty = 'Field "Name" (p_name) is required: the service refuses to empty it (422); nothing was sent.';
    expect(results()).toEqual([
      { line: 1, submission_id: '11', status: 'failed', error: empty },
      { line: 2, submission_id: '12', status: 'failed', error: empty },
      {
        line: 3,
        submission_id: '13',
        status: 'failed',
        error: 'Field "Consent" (p_ok) is required (it must be checked): the service refuses to uncheck it (422); nothing was sent.',
      },
      { line: 4, submission_id: '14', id: 14, status: 'ok' },
      { line: 5, submission_id: '15', id: 15, status: 'ok' },
    ]);
    expect(stub.requests.filter((r) => r.method === 'PUT').map((r) => r.url)).toEqual(['/open/forms/42/submissions/14', '/open/forms/42/submissions/15']);
  });

  it('--resume skips lines already ok and appends the rest', async () => {
    stub = await server();
    const first = setup();
    await failure(bulkUpdateRun(first.options));
    const puts = stub.requests.filter((r) => r.method === 'PUT').length;
    const again = setup({ resume: true });
    await failure(bulkUpdateRun(again.options));
    const retried = stub.requests
      .filter((r) => r.method === 'PUT')
      .slice(puts)
      .map((r) => r.url);
    expect(retried).toEqual(['/open/forms/42/submissions/13']);
    expect(results().length).toBe(8 + 5);
  });

  it('--resume sends a line again when its text changed since that run (same line and id), and says so', async () => {
    stub = await server();
    const first = setup();
    writeFileSync(first.options.from, '{"submission_id": "11", "Name": "Ada"}\n{"submission_id": "12", "Name": "Bob"}\n{"submission_id": "15", "Age": 3}\n');
    await bulkUpdateRun(first.options);
    const puts = stub.requests.filter((r) => r.method === 'PUT').length;
    expect(puts).toBe(3);
    const again = setup({ resume: true });
    // The user notices a typo in a line that went through and fixes it.
    writeFileSync(first.options.from, '{"submission_id": "11", "Name": "Ada"}\n{"submission_id": "12", "Name": "Bobby"}\n{"submission_id": "15", "Age": 3}\n');
    await bulkUpdateRun(again.options);
    const sent = stub.requests.filter((r) => r.method === 'PUT').slice(puts);
    expect(sent.map((r) => [r.url, JSON.parse(r.body)])).toEqual([['/open/forms/42/submissions/12', { p_name: 'Bobby', data: { p_name: 'Bobby' } }]]);
    expect(again.fio.err()).toContain('warning: 1 line that');
    expect(again.fio.err()).toContain('reads differently now (the input was edited or lines moved); it was not skipped.');
  });

  it('--resume still skips ok lines of a results file written before input_hash existed', async () => {
    stub = await server();
    const { options } = setup({ resume: true });
    writeFileSync(options.from, '{"submission_id": "11", "Name": "Ada"}\n{"submission_id": "15", "Age": 3}\n');
    writeFileSync(join(dir, 'results.ndjson'), '{"line":1,"submission_id":"11","status":"ok"}\n');
    await bulkUpdateRun(options);
    expect(stub.requests.filter((r) => r.method === 'PUT').map((r) => r.url)).toEqual(['/open/forms/42/submissions/15']);
  });

  it('refuses --results naming the --from file (the results would be read back as input)', async () => {
    stub = await server();
    const { options } = setup({ resume: true });
    const err = await failure(bulkUpdateRun({ ...options, results: options.from }));
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('--results must not be the --from file.');
    expect(stub.requests.length).toBe(0);
  });

  it('file errors read as short words: a missing --from, a directory, a --results in a missing directory', async () => {
    stub = await server();
    const missing = join(dir, 'nofile.ndjson');
    const e1 = await failure(bulkUpdateRun(setup({ from: missing }).options));
    expect([e1.exitCode, e1.message]).toEqual([2, `Cannot read ${missing}: no such file.`]);
    const e2 = await failure(bulkUpdateRun(setup({ from: dir }).options));
    expect([e2.exitCode, e2.message]).toEqual([2, `Cannot read ${dir}: it is a directory.`]);
    const nowhere = join(dir, 'nodir', 'r.ndjson');
    const e3 = await failure(bulkUpdateRun(setup({ results: nowhere }).options));
    expect([e3.exitCode, e3.message]).toEqual([2, `Cannot write ${nowhere}: no such directory.`]);
    const e4 = await failure(bulkUpdateRun(setup({ results: dir, resume: true }).options));
    expect([e4.exitCode, e4.message]).toEqual([2, `Cannot write ${dir}: it is a directory.`]);
    expect(stub.requests.filter((r) => r.method === 'PUT')).toEqual([]);
  });

  it('refuses to overwrite an existing results file without --resume', async () => {
    stub = await server();
    writeFileSync(join(dir, 'results.ndjson'), '{"line":1,"submission_id":"11","status":"ok"}\n');
    const err = await failure(bulkUpdateRun(setup().options));
    expect(err.exitCode).toBe(2);
    expect(stub.requests.length).toBe(0);
  });

  it('--dry-run resolves every line and sends nothing', async () => {
    stub = await server();
    const { fio, options } = setup({ dryRun: true, results: undefined });
    await failure(bulkUpdateRun(options));
    // The form, the list (the current answers) and the integrations: reads only.
    expect(stub.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
    const lines = fio
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      line: 1,
      submission_id: '11',
      id: 11,
      status: 'dry-run',
      data: { p_name: 'Ada' },
      body: { p_name: 'Ada', data: { p_name: 'Ada' } },
      input_hash: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(lines.filter((l) => l.status === 'failed').map((l) => l.line)).toEqual([5, 6, 7, 8]);
    // Nothing was sent, so there is no rate or ETA to show.
    expect(fio.err()).toBe('Dry run: 8/8 lines · 4 ok · 4 failed\n');
  });

  it('a dry run says what comes next: nothing was sent, the command that sends the lines for real; no --results or --resume', async () => {
    stub = await server();
    const context = async () => ({ profileName: 'ci-box', profileSource: 'env' });
    // Some lines fail: where their errors are, and how to send the others as they are (--concurrency and --rate-limit kept).
    const failing = setup({ dryRun: true, results: join(dir, 'dry.ndjson'), rateLimit: 50, context });
    const err = await failure(bulkUpdateRun(failing.options));
    expect(err.exitCode).toBe(10);
    expect(err.message).toBe('4 of 8 lines failed the dry run; nothing was sent.');
    expect(err.hint).toBe(
      `See the "error" of each failed line in ${join(dir, 'dry.ndjson')}; fix them and run the dry run again (or, to send the lines that passed as they are, run: formctl --profile ci-box submission update 42 --from ${join(dir, 'in.ndjson')} --concurrency 1 --rate-limit 50).`,
    );
    // Every line passes, from a file whose name needs quoting: the command to run for real, quoted.
    const from = join(dir, "Bob's fixes.ndjson");
    writeFileSync(from, '{"submission_id": "11", "Name": "Ada"}\n{"submission_id": 12, "data": {"p_email": "b@c.d"}}\n');
    const ok = setup({ dryRun: true, results: undefined, from, context });
    await bulkUpdateRun(ok.options);
    expect(ok.fio.err()).toBe(
      `Dry run: 2/2 lines · 2 ok · 0 failed\nnote: dry run: nothing was sent; to send the 2 lines, run: formctl --profile ci-box submission update 42 --from '${dir}/Bob'\\''s fixes.ndjson' --concurrency 1\n`,
    );
    expect(ok.fio.err()).not.toMatch(/--results|--resume/);
    expect(stub.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('an all-skipped --resume run shows no rate', async () => {
    stub = await server();
    const { fio, options } = setup({ resume: true });
    writeFileSync(options.from, '{"submission_id": "11", "Name": "Ada"}\n');
    writeFileSync(join(dir, 'results.ndjson'), '{"line":1,"submission_id":"11","status":"ok"}\n');
    await bulkUpdateRun(options);
    expect(fio.err()).toBe(`1/1 lines · 0 ok · 0 failed · 1 skipped (results in ${join(dir, 'results.ndjson')})\n`);
  });

  it('under --rate-limit 20 the rate shown and the ETA never exceed what the pacer lets through (18/min)', async () => {
    stub = await server();
    const { fio, options } = setup({ rateLimit: 20 });
    writeFileSync(options.from, Array.from({ length: 10 }, (_, i) => `{"submission_id": "${20 + i}", "Name": "x"}`).join('\n') + '\n');
    await bulkUpdateRun(options);
    // One line every 10 s (not a terminal); a line goes every 60/18 = 3.33 s.
    expect(fio.err()).toBe(
      [
        // The list read took the first slot.
        '3/10 lines · 3 ok · 0 failed · 18/min · ETA 23s',
        '6/10 lines · 6 ok · 0 failed · 18/min · ETA 13s',
        '10/10 lines · 10 ok · 0 failed · 18/min',
        `10/10 lines · 10 ok · 0 failed · 18/min (results in ${join(dir, 'results.ndjson')})`,
        '',
      ].join('\n'),
    );
  });

  it('Ctrl-C stops reading, flushes the results written so far and exits 130', async () => {
    const ac = new AbortController();
    let n = 0;
    stub = await startStubServer((req, res) => {
      if (req.method === 'GET' && serveForm(req, res)) return;
      if (serveReads(req, res)) return;
      if (++n === 2) ac.abort();
      json(res, 200, { message: 'ok' });
    });
    const { fio, options } = setup({ signal: ac.signal, api: async () => clientFor(stub!.url, { signal: ac.signal }) });
    const err = await failure(bulkUpdateRun(options));
    expect(err.exitCode).toBe(130);
    const r = results();
    expect(r[0]).toEqual({ line: 1, submission_id: '11', id: 11, status: 'ok' });
    // Line 2 was answered or cut off; either way nothing after it was started.
    expect(r.map((x) => x.line)).toEqual([1, 2]);
    expect(['ok', 'interrupted']).toContain(r[1].status);
    expect(stub.requests.filter((x) => x.method === 'PUT').length).toBe(2);
    // The last line says where the run stopped and how to go on, not a stale ETA.
    expect(fio.err()).toMatch(/^Interrupted after [12]\/8 lines; rerun with --resume to continue\.\n$/);
  });

  it('Ctrl-C in a dry run says nothing was sent, not to --resume', async () => {
    const ac = new AbortController();
    stub = await startStubServer((req, res) => {
      if (req.method === 'GET' && serveForm(req, res)) return;
      if (serveReads(req, res)) return;
    });
    const client = clientFor(stub.url, { signal: ac.signal });
    // Stopped (as Ctrl-C would) once the run has read what it checks the lines against: the integrations come last.
    const stopping = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop !== 'request') return Reflect.get(target, prop, receiver) as unknown;
        return async (req: { path: string }) => {
          const answer = await target.request(req as Parameters<typeof client.request>[0]);
          if (req.path.endsWith('/integrations')) ac.abort();
          return answer;
        };
      },
    });
    const { fio, options } = setup({ dryRun: true, signal: ac.signal, api: async () => stopping });
    const err = await failure(bulkUpdateRun(options));
    expect(err.exitCode).toBe(130);
    expect(fio.err()).toMatch(/^Interrupted after \d\/8 lines; nothing was sent \(dry run\)\.\n$/);
  });
});
