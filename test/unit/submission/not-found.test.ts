import { afterEach, describe, expect, it } from 'vitest';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';
import { runCli } from '../../helpers/run-cli.js';
import { serveForm } from './util.js';

// A submission named by UUID (or found through the list by id) is never asked for by path: when the
// list does not hold it, the error says the list was read, not that some GET answered 404.
const UUID = '0b9e3c1a-5f0e-4d5b-9a51-3f3e6a1c2d7e';
const row = (id: number) => ({ id, submission_id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`, data: { p_name: `n${id}` } });

let stub: StubServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('a submission the list does not hold', () => {
  it('by UUID: exit 6, naming the list request that was read and how many pages, no GET of the UUID', async () => {
    stub = await startStubServer((req, res) => {
      if (serveForm(req, res)) return;
      const m = /^\/open\/forms\/42\/submissions\?page=(\d+)&per_page=100$/.exec(req.url);
      if (req.method === 'GET' && m) {
        const page = Number(m[1]);
        return json(res, 200, { data: page === 1 ? [row(3), row(2)] : [row(1)], meta: { current_page: page, last_page: 2, per_page: 100, total: 3 } });
      }
      json(res, 599, { message: `unexpected ${req.method} ${req.url}` });
    });
    const r = await runCli(['submission', 'delete', '42', UUID, '--yes'], { url: stub.url });
    expect(r.code).toBe(6);
    expect(r.err).toBe(
      `error: Form 42 has no submission ${UUID}: it is not in the form's submission list (looked up in GET /open/forms/42/submissions, 2 pages read).\n` +
        'hint: Check the submission id: formctl submission list 42\n',
    );
    expect(r.err).not.toContain(`/submissions/${UUID}`);
    expect(stub.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      'GET /open/forms/42',
      'GET /open/forms/42/submissions?page=1&per_page=100',
      'GET /open/forms/42/submissions?page=2&per_page=100',
    ]);
  });

  it('by numeric id in an update: the same wording, one page read', async () => {
    stub = await startStubServer((req, res) => {
      if (serveForm(req, res)) return;
      if (req.method === 'GET' && req.url === '/open/forms/42/submissions?page=1&per_page=100') {
        return json(res, 200, { data: [row(3), row(2)], meta: { current_page: 1, last_page: 1, per_page: 100, total: 2 } });
      }
      json(res, 599, { message: `unexpected ${req.method} ${req.url}` });
    });
    const r = await runCli(['submission', 'update', '42', '9', '--set', 'Name=x'], { url: stub.url });
    expect(r.code).toBe(6);
    expect(r.err.split('\n')[0]).toBe(
      "error: Form 42 has no submission 9: it is not in the form's submission list (looked up in GET /open/forms/42/submissions, 1 page read).",
    );
  });
});
