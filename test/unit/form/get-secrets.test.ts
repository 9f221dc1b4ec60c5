import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/main.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';
import { Capture } from '../../helpers/io.js';

// `form get --json` (every field) is what people save and log: the form password stays out of it
// unless the field list names it (docs/forms.md, "Secrets").
const FORM = {
  id: 42,
  slug: 'contact',
  title: 'Contact',
  visibility: 'public',
  updated_at: '2025-01-01T00:00:00Z',
  password: 'hunter2-secret',
  properties: [{ id: 'a', type: 'text', name: 'A' }],
};

describe('form get keeps the form password out of output unless asked for', () => {
  const home = mkdtempSync(join(tmpdir(), 'formctl-get-secrets-'));
  let server: StubServer;
  beforeAll(async () => {
    let form: Record<string, unknown> = { ...FORM };
    server = await startStubServer((req, res) => {
      const path = req.url.split('?')[0];
      if (req.method === 'GET' && path === '/open/forms/42') return json(res, 200, form);
      // The deprecated list answers full forms on the deployed service, password included.
      if (req.method === 'GET' && path === '/open/forms') return json(res, 200, [form, { ...form, id: 43, slug: 'other', password: null }]);
      if (req.method === 'PUT' && path === '/open/forms/42') {
        form = { ...form, ...(JSON.parse(req.body) as object), updated_at: '2025-01-02T00:00:00Z' };
        return json(res, 200, { type: 'success', message: 'Form updated.', form });
      }
      if (req.method === 'POST' && path === '/open/forms') return json(res, 201, { ...(JSON.parse(req.body) as object), id: 44, slug: 'new' });
      return json(res, 404, { message: 'Not found.' });
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  async function formctl(args: string[]) {
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.end();
    const stdout = new Capture(false);
    const stderr = new Capture(false);
    const env = {
      FORMCTL_CONFIG_DIR: join(home, 'config'),
      FORMCTL_STATE_DIR: join(home, 'state'),
      FORMCTL_CACHE_DIR: join(home, 'cache'),
      FORMCTL_TOKEN: 'tok_x',
      FORMCTL_BASE_URL: server.url,
      NO_COLOR: '1',
    };
    const code = await run(args, env, { stdin, stdout, stderr });
    return { code, out: stdout.text(), err: stderr.text() };
  }

  it('--json leaves it out, with a note naming the field to ask for', async () => {
    for (const flag of ['--json']) {
      const r = await formctl(['form', 'get', '42', flag]);
      expect(r.code).toBe(0);
      expect(r.out).not.toContain('hunter2');
      const { password: _left, ...rest } = FORM;
      expect(JSON.parse(r.out)).toEqual(rest);
      expect(r.err).toBe("note: the form's password is left out; name it to print it: --json password\n");
    }
  });

  it('piped rows never show it; --json password prints it', async () => {
    const tsv = await formctl(['form', 'get', '42']);
    expect(tsv.code).toBe(0);
    expect(tsv.out).not.toContain('hunter2');
    const asked = await formctl(['form', 'get', '42', '--json', 'id,password']);
    expect(JSON.parse(asked.out)).toEqual({ id: 42, password: 'hunter2-secret' });
    expect(asked.err).toBe('');
  });

  // Every other path that prints a whole form follows the same rule as `form get` (reviewer's defect 1).
  it('list-all --json and --ndjson leave it out of every form; --json id,password prints it', async () => {
    for (const flag of ['--json', '--ndjson']) {
      const r = await formctl(['form', 'list-all', flag]);
      expect(r.code).toBe(0);
      expect(r.out).not.toContain('hunter2');
      expect(r.err).toContain("note: the forms' password is left out; name it to print it: --json password\n");
    }
    const asked = await formctl(['form', 'list-all', '--json', 'id,password']);
    expect(JSON.parse(asked.out)).toEqual([
      { id: 42, password: 'hunter2-secret' },
      { id: 43, password: null },
    ]);
  });

  it('update --json and create --json leave it out of the form they print', async () => {
    const upd = await formctl(['form', 'update', '42', '--set', 'description=x', '--json']);
    expect(upd.code).toBe(0);
    expect(upd.out).not.toContain('hunter2');
    expect(JSON.parse(upd.out)).toMatchObject({ id: 42, description: 'x' });
    expect(upd.err).toContain("note: the form's password is left out; name it to print it: --json password\n");
    const same = await formctl(['form', 'update', '42', '--set', 'description=x', '--json']);
    expect(same.code).toBe(0);
    expect(same.out).not.toContain('hunter2');
    const created = await formctl(['form', 'create', '-w', '1', '--title', 'New', '--field', 'Name', '--set', 'password=pw-new-1', '--yes', '--json']);
    expect(created.code).toBe(0);
    expect(created.out).not.toContain('pw-new-1');
    expect(JSON.parse(created.out)).toMatchObject({ id: 44 });
  });
});
