// Proxy URLs formctl takes or refuses by their scheme, from the built binary (src/api/proxy.ts).
// A SOCKS proxy (or any scheme but http:// and https://) is exit 12, one line, for a request that
// would go through it; NO_PROXY, or a variable for the other scheme, sends requests direct and then
// nothing is refused (undici's experimental SOCKS5 support, and its warning on stderr, never run).
// An https:// proxy written as an IP address works without Node's DEP0123 warning on stderr.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { HAS_OPENSSL, selfSignedCert } from '../helpers/tls.js';

const fx = useSandboxFixture({ seed: 3 });
const env = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...fx.env, ...extra });

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
      env: { ...fx.home.env, FORMCTL_BASE_URL: 'https://forms.example.test', FORMCTL_TOKEN: 'fsk_t', HTTPS_PROXY: 'socks5://u:pw@127.0.0.1:1080' },
    });
    expect(r.code).toBe(12);
    expect(r.stderr).toBe(
      'error: The proxy socks5://u:***@127.0.0.1:1080 (HTTPS_PROXY) is a SOCKS proxy: only http:// and https:// proxies are supported (GET /open/workspaces).\n' +
        'hint: Set HTTPS_PROXY to an http:// or https:// proxy, or add forms.example.test to NO_PROXY to reach it directly.\n',
    );
  });

  it('webhook send through it: exit 12, the same line', async () => {
    const secret = join(fx.home.dir, 'secret.txt');
    writeFileSync(secret, 'whsec_proxy_test\n');
    const r = await runFormctl(['webhook', 'send', `${fx.sb.url}/receiver`, '--secret-file', secret, '--json'], {
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

describe.skipIf(!HAS_OPENSSL)('an https:// proxy written as an IP address', () => {
  // A small https:// proxy (CONNECT only) with a certificate for 127.0.0.1, trusted through NODE_EXTRA_CA_CERTS.
  let work: string;
  let caFile: string;
  let proxy: Server;
  const sockets = new Set<Socket>();
  const connects: string[] = [];
  const names: Array<string | false | null> = [];
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'formctl-https-proxy-'));
    const { cert, key, certFile } = selfSignedCert(work);
    caFile = certFile;
    proxy = createServer({ key, cert });
    proxy.on('secureConnection', (s: TLSSocket) => {
      // What the client named in TLS's SNI: false when it named nothing.
      names.push(s.servername);
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    proxy.on('connect', (req: { url?: string }, client: Socket, head: Buffer) => {
      connects.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      sockets.add(upstream);
      upstream.once('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => (proxy ? proxy.close(() => r()) : r()));
    rmSync(work, { recursive: true, force: true });
  });

  it('API calls go through its tunnel; no DEP0123 (TLS ServerName set to an IP address) on stderr, no IP in SNI', async () => {
    const url = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const r = await runFormctl(['workspace', 'list', '--json', 'id'], { env: env({ HTTP_PROXY: url, NODE_EXTRA_CA_CERTS: caFile }) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
    expect(connects).toEqual([`127.0.0.1:${new URL(fx.sb.url).port}`]);
    expect(names).toEqual([false]);
  });

  it('webhook send through it: no warning either', async () => {
    const secret = join(work, 'secret.txt');
    writeFileSync(secret, 'whsec_proxy_test\n');
    const url = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const before = connects.length;
    const r = await runFormctl(['webhook', 'send', `${fx.sb.url}/receiver`, '--secret-file', secret, '--json'], {
      env: env({ HTTP_PROXY: url, NODE_EXTRA_CA_CERTS: caFile }),
    });
    // The sandbox answers a POST there with 404, which webhook send reports as an error of its own.
    expect(r.stderr).not.toContain('DEP0123');
    expect(r.stderr).not.toMatch(/^\(node:\d+\)/m);
    expect(JSON.parse(r.stdout)).toMatchObject({ signed: true, status: 404 });
    expect(connects.slice(before)).toEqual([`127.0.0.1:${new URL(fx.sb.url).port}`]);
  });
});
