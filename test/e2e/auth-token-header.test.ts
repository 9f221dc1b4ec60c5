import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type StubServer, json, startStubServer } from '../helpers/http.js';

let server: StubServer;
let home: ReturnType<typeof tempHome>;
beforeAll(async () => {
  server = await startStubServer((_req, res) => json(res, 200, { data: [] }));
  home = tempHome();
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});

describe('a token that cannot be a header value is refused at once (exit 2), unprinted, with nothing sent', () => {
  it('FORMCTL_TOKEN with CR/LF', async () => {
    const r = await runFormctl(['workspace', 'list'], { env: { ...home.env, FORMCTL_BASE_URL: server.url, FORMCTL_TOKEN: 'fsk_secret\r\nX-Injected: 1' } });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: FORMCTL_TOKEN contains a line break; a token is a single line of printable characters.');
    expect(r.stderr).not.toContain('fsk_secret');
    expect(server.requests).toHaveLength(0);
  });

  it('FORMCTL_TOKEN outside Latin-1', async () => {
    const r = await runFormctl(['api', '/open/workspaces'], { env: { ...home.env, FORMCTL_BASE_URL: server.url, FORMCTL_TOKEN: 'fsk_s€cret' } });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: FORMCTL_TOKEN contains a character outside Latin-1 (not a valid token).');
    expect(r.stderr).not.toContain('s€cret');
    expect(server.requests).toHaveLength(0);
  });

  it('a token on stdin for auth login, outside Latin-1 or with a line break inside', async () => {
    for (const [input, what] of [
      ['fsk_s€cret\n', 'a character outside Latin-1'],
      ['fsk_se\rcret\n', 'a line break'],
    ]) {
      const r = await runFormctl(['auth', 'login', '--base-url', server.url, '--with-token'], { env: home.env, input });
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toContain(`error: The token on stdin contains ${what}`);
      expect(r.stderr).not.toContain('cret');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('a token with CR/LF in a hand-edited config.json: exit 2, not a network error; the profile can still be repaired', async () => {
    const own = tempHome();
    try {
      const dir = own.env.FORMCTL_CONFIG_DIR!;
      const file = join(dir, 'config.json');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        file,
        JSON.stringify({
          currentProfile: 'default',
          profiles: { default: { baseUrl: server.url, token: 'fsk_secret\r\nX-Injected: 1', tokenOrigin: server.url } },
        }),
      );
      const before = server.requests.length;
      for (const args of [
        ['workspace', 'list'],
        ['api', '/open/workspaces'],
        ['auth', 'status'],
      ]) {
        const r = await runFormctl(args, { env: own.env });
        expect(r.code, args.join(' ')).toBe(2);
        const lines = r.stderr.trimEnd().split('\n');
        expect(lines[0]).toBe(`error: The token saved in profile "default" (${file}) contains a line break; a token is a single line of printable characters.`);
        expect(lines[1]).toBe('hint: Save the token again: formctl auth login (or fix the file by hand; the value is not shown here).');
        expect(lines).toHaveLength(2);
        expect(r.stdout + r.stderr).not.toContain('secret');
      }
      expect(server.requests.length).toBe(before);
      // The commands that repair the profile still run.
      const out = await runFormctl(['auth', 'logout'], { env: own.env });
      expect(out.code).toBe(0);
      expect((await runFormctl(['workspace', 'list'], { env: own.env })).code).toBe(4);
    } finally {
      own.cleanup();
    }
  });
});
