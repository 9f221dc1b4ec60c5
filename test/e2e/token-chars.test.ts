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
});
