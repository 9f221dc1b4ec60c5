import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type StubServer, json, startStubServer } from '../helpers/http.js';

// The deployed service re-runs every active integration on each submission PUT, so a PUT whose
// answer was a 5xx or was lost is not sent again; a DELETE whose retry finds nothing is done.
const FORM = { id: 5, slug: 'contact', title: 'Contact', visibility: 'public', properties: [{ id: 'f1', type: 'text', name: 'Name' }] };

let server: StubServer;
let onPut: 'fail' | 'drop' = 'fail';
let deletes = 0;
let home: ReturnType<typeof tempHome>;
beforeAll(async () => {
  server = await startStubServer((req, res) => {
    if (req.method === 'GET' && req.url === '/open/forms/5') return json(res, 200, FORM);
    // submission update reads the current answers (through the list) and the integrations first.
    if (req.method === 'GET' && req.url?.startsWith('/open/forms/5/submissions')) {
      return json(res, 200, {
        data: [{ id: 12, submission_id: '12', status: 'completed', data: { f1: 'Bob' } }],
        meta: { current_page: 1, last_page: 1, per_page: 100, total: 1 },
      });
    }
    if (req.method === 'GET' && req.url === '/open/forms/5/integrations') return json(res, 200, []);
    if (req.method === 'PUT') {
      if (onPut === 'drop') {
        res.socket?.destroy();
        return;
      }
      return json(res, 503, { message: 'Service Unavailable' });
    }
    if (req.method === 'DELETE') {
      // The first delete is carried out but its answer is lost; the retry finds nothing.
      if (deletes++ === 0) res.socket?.destroy();
      else json(res, 404, { message: 'Not found.' });
      return;
    }
    json(res, 404, { message: 'Not found.' });
  });
  home = tempHome();
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});
const env = () => ({ ...home.env, FORMCTL_BASE_URL: server.url, FORMCTL_TOKEN: 'fsk_t' });
const puts = () => server.requests.filter((r) => r.method === 'PUT').length;

describe('retries and side effects', () => {
  it('a submission PUT answered 503 is sent once, and the error says it may have been applied and how to check', async () => {
    onPut = 'fail';
    const before = puts();
    const r = await runFormctl(['submission', 'update', '5', '12', '--set', 'Name=Ada'], { env: env() });
    expect(puts() - before).toBe(1);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: Service Unavailable. (HTTP 503, PUT /open/forms/5/submissions/12); the PUT may have been applied all the same, so it was not sent again.\n' +
        'hint: See whether submission 12 already holds the new values before sending it again: formctl submission list 5\n',
    );
  });

  it('a submission PUT whose connection drops is sent once too (exit 11)', async () => {
    onPut = 'drop';
    const before = puts();
    const r = await runFormctl(['submission', 'update', '5', '12', '--set', 'Name=Ada'], { env: env() });
    expect(puts() - before).toBe(1);
    expect(r.code).toBe(11);
    expect(r.stderr).toContain('may have been applied all the same');
    expect(r.stderr).toContain('formctl submission list 5');
  });

  it('a DELETE whose retry gets 404 after a lost answer reports success with a note', async () => {
    const r = await runFormctl(['workspace', 'delete', '7', '--yes'], { env: env() });
    expect(server.requests.filter((q) => q.method === 'DELETE').map((q) => q.url)).toEqual(['/open/workspaces/7', '/open/workspaces/7']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'note: the first DELETE /open/workspaces/7 may have been carried out before its answer was lost; the retry found nothing there (HTTP 404), so it is taken as deleted.',
    );
  });
});
