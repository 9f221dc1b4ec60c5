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
  password: 'hunter2-secret',
  properties: [{ id: 'a', type: 'text', name: 'A' }],
};

describe('form get keeps the form password out of output unless asked for', () => {
  const home = mkdtempSync(join(tmpdir(), 'formctl-get-secrets-'));
  let server: StubServer;
  beforeAll(async () => {
    server = await startStubServer((req, res) => (req.url === '/open/forms/42' ? json(res, 200, FORM) : json(res, 404, { message: 'Not found.' })));
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
});
