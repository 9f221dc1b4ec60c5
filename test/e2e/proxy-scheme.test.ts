// Proxy URLs formctl takes or refuses by their scheme, from the built binary (src/api/proxy.ts).
// A SOCKS proxy (or any scheme but http:// and https://) is exit 12, one line, for a request that
// would go through it; NO_PROXY, or a variable for the other scheme, sends requests direct and then
// nothing is refused (undici's experimental SOCKS5 support, and its warning on stderr, never run).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';

const home = tempHome();
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 3 });
});
afterAll(async () => {
  await sb?.close();
  home.cleanup();
});
const env = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...home.env, ...sb.env, ...extra });

describe('a proxy that is not http:// or https://', () => {
  it.each([
    ['HTTP_PROXY', 'socks5://carol:hunter2@127.0.0.1:1080', 'socks5://carol:***@127.0.0.1:1080', 'is a SOCKS proxy'],
    ['http_proxy', 'socks5h://127.0.0.1:1080', 'socks5h://127.0.0.1:1080', 'is a SOCKS proxy'],
    ['HTTP_PROXY', 'SOCKS4://127.0.0.1:1080', 'socks4://127.0.0.1:1080', 'is a SOCKS proxy'],
    ['HTTP_PROXY', 'socks://127.0.0.1:1080', 'socks://127.0.0.1:1080', 'is a SOCKS proxy'],
    ['HTTP_PROXY', 'ftp://127.0.0.1:2121', 'ftp://127.0.0.1:2121', 'uses ftp://'],
  ])('%s=%s: exit 12, one line naming it (password masked), no request sent, no warning', async (name, value, shown, what) => {
    const r = await runFormctl(['workspace', 'list'], { env: env({ [name]: value }) });
    expect(r.code).toBe(12);
    expect(r.stderr).toBe(
      `error: The proxy ${shown} (${name}) ${what}: only http:// and https:// proxies are supported (GET /open/workspaces).\n` +
        `hint: Set ${name} to an http:// or https:// proxy, or add 127.0.0.1 to NO_PROXY to reach it directly.\n`,
    );
    expect(r.stdout).toBe('');
  });

  it('an https:// service with HTTPS_PROXY=socks5://…: refused before any connection', async () => {
    const r = await runFormctl(['workspace', 'list'], {
      env: { ...home.env, FORMCTL_BASE_URL: 'https://forms.example.test', FORMCTL_TOKEN: 'fsk_t', HTTPS_PROXY: 'socks5://u:pw@127.0.0.1:1080' },
    });
    expect(r.code).toBe(12);
    expect(r.stderr).toBe(
      'error: The proxy socks5://u:***@127.0.0.1:1080 (HTTPS_PROXY) is a SOCKS proxy: only http:// and https:// proxies are supported (GET /open/workspaces).\n' +
        'hint: Set HTTPS_PROXY to an http:// or https:// proxy, or add forms.example.test to NO_PROXY to reach it directly.\n',
    );
  });

  it('webhook send through it: exit 12, the same line', async () => {
    const secret = join(home.dir, 'secret.txt');
    writeFileSync(secret, 'whsec_proxy_test\n');
    const r = await runFormctl(['webhook', 'send', `${sb.url}/receiver`, '--secret-file', secret, '--json'], {
      env: env({ HTTP_PROXY: 'socks5://127.0.0.1:1080' }),
    });
    expect(r.code).toBe(12);
    expect(r.stderr).toMatch(
      /^error: The proxy socks5:\/\/127\.0\.0\.1:1080 \(HTTP_PROXY\) is a SOCKS proxy: only http:\/\/ and https:\/\/ proxies are supported \(POST [^\n]*\)\.\nhint: [^\n]*\n$/,
    );
  });

  it.each([
    [{ HTTP_PROXY: 'socks5://127.0.0.1:1', NO_PROXY: '127.0.0.1' }],
    [{ HTTP_PROXY: 'socks5://127.0.0.1:1', no_proxy: '127.0.0.0/8' }],
    [{ HTTP_PROXY: 'socks4://127.0.0.1:1', NO_PROXY: '*' }],
    // An http:// service uses HTTP_PROXY only: a SOCKS HTTPS_PROXY is not its proxy.
    [{ HTTPS_PROXY: 'socks5://127.0.0.1:1' }],
  ])('a request the proxy would not carry (%o) goes direct: exit 0, nothing on stderr', async (extra) => {
    const r = await runFormctl(['workspace', 'list', '--json', 'id'], { env: env(extra) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
  });
});
