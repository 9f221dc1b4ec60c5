// A proxy that takes the connection and then does not answer as an HTTP proxy: it never answers
// the CONNECT, closes the connection, or writes something that is not HTTP (a SOCKS proxy, or
// another service on the port a proxy variable names). Each is the proxy's failure, exit 12, one
// line naming the proxy and its variable, never "the service did not answer" or "the service sent
// a malformed answer": the service was never reached (src/api/proxy.ts, proxyUnanswered).
// The service's name (.invalid, RFC 6761) is never resolved: only the proxy sees it, in the CONNECT.
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';

const home = tempHome();
/** What each fake proxy does with the first bytes it reads. */
const behaviours = {
  silent: (_s: Socket) => undefined,
  closes: (s: Socket) => s.destroy(),
  // A SOCKS5 server's answer to a greeting it cannot read: version 5, no acceptable method.
  socks: (s: Socket) => s.end(Buffer.from([5, 255])),
};
const servers = new Map<keyof typeof behaviours, { server: Server; requests: string[] }>();
const sockets = new Set<Socket>();
const port = (name: keyof typeof behaviours): number => (servers.get(name)!.server.address() as AddressInfo).port;

beforeAll(async () => {
  for (const [name, act] of Object.entries(behaviours) as [keyof typeof behaviours, (s: Socket) => void][]) {
    const requests: string[] = [];
    const server = createServer((s) => {
      sockets.add(s.once('close', () => sockets.delete(s)));
      s.on('error', () => undefined);
      s.once('data', (d) => {
        requests.push(d.toString('latin1').split('\r\n')[0]!);
        act(s);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.set(name, { server, requests });
  }
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all([...servers.values()].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  home.cleanup();
});

const env = (proxy: string): NodeJS.ProcessEnv => ({
  ...home.env,
  FORMCTL_BASE_URL: 'https://forms.example.invalid',
  FORMCTL_TOKEN: 'tok_never_shown_0123456789',
  HTTPS_PROXY: proxy,
});
const hint =
  'hint: Check that HTTPS_PROXY names an HTTP proxy (a SOCKS proxy, or another service on that port, does not answer one), or add forms.example.invalid to NO_PROXY to reach it directly.\n';

describe('an https:// service through a proxy that does not answer its CONNECT', () => {
  it('never answers: exit 12 at --timeout, the tunnel request named, not "the service did not answer"', async () => {
    const proxy = `http://alice:pr0xyPw@127.0.0.1:${port('silent')}`;
    const r = await runFormctl(['workspace', 'list', '--timeout', '1'], { env: env(proxy) });
    expect(r.stderr).toBe(
      `error: The proxy http://alice:***@127.0.0.1:${port('silent')} (HTTPS_PROXY) took the connection but did not answer the request for a tunnel to forms.example.invalid (CONNECT) within 1 s (GET /open/workspaces).\n` +
        'hint: The proxy may not reach forms.example.invalid, or HTTPS_PROXY may not name an HTTP proxy; check it, raise --timeout, or add forms.example.invalid to NO_PROXY to reach it directly.\n',
    );
    expect(r.code).toBe(12);
    expect(servers.get('silent')!.requests.at(-1)).toBe('CONNECT forms.example.invalid:443 HTTP/1.1');
  });

  it('closes the connection: exit 12 at once (undici would connect again without end), one line naming it', async () => {
    const before = servers.get('closes')!.requests.length;
    // A --timeout far longer than the test: the answer must come from the close, not the clock.
    const r = await runFormctl(['workspace', 'list', '--timeout', '600'], { env: env(`http://127.0.0.1:${port('closes')}`) });
    expect(r.stderr).toBe(
      `error: The proxy http://127.0.0.1:${port('closes')} (HTTPS_PROXY) closed the connection without answering (other side closed) (GET /open/workspaces).\n${hint}`,
    );
    expect(r.code).toBe(12);
    expect(servers.get('closes')!.requests.length - before).toBeGreaterThan(0);
    expect(servers.get('closes')!.requests.length - before).toBeLessThanOrEqual(5);
  });

  it('answers in something that is not HTTP (a SOCKS proxy): exit 12, not "the service sent a malformed answer", not retried', async () => {
    const before = servers.get('socks')!.requests.length;
    const r = await runFormctl(['workspace', 'list'], { env: env(`http://127.0.0.1:${port('socks')}`) });
    expect(r.stderr).toBe(
      `error: The proxy http://127.0.0.1:${port('socks')} (HTTPS_PROXY) answered in something that is not HTTP (Expected HTTP/, RTSP/ or ICE/) (GET /open/workspaces).\n${hint}`,
    );
    expect(r.code).toBe(12);
    expect(servers.get('socks')!.requests.length - before).toBe(1);
  });

  it('webhook send through it: the same words', async () => {
    const secret = join(home.dir, 'secret.txt');
    writeFileSync(secret, 'whsec_unanswered\n');
    const r = await runFormctl(['webhook', 'send', 'https://hooks.example.invalid/in', '--secret-file', secret], {
      env: { ...env(`http://127.0.0.1:${port('socks')}`) },
    });
    expect(r.stderr).toContain(`error: The proxy http://127.0.0.1:${port('socks')} (HTTPS_PROXY) answered in something that is not HTTP`);
    expect(r.code).toBe(12);
  });
});

describe('a plain http:// request forwarded through a proxy that then closes', () => {
  it('keeps the words that say a write may have been carried out (exit 11), not "the proxy closed without answering"', async () => {
    // The forwarded request reached the proxy whole: the service may have acted on it before the proxy failed.
    const r = await runFormctl(['workspace', 'create', '--name', 'ViaProxy'], {
      env: {
        ...home.env,
        FORMCTL_BASE_URL: 'http://127.0.0.1:8999',
        FORMCTL_TOKEN: 'tok_never_shown_0123456789',
        HTTP_PROXY: `http://127.0.0.1:${port('closes')}`,
      },
    });
    expect(r.code).toBe(11);
    expect(r.stderr).not.toContain('closed the connection without answering');
    expect(r.stderr).toContain('was dropped (POST /open/workspaces/create)');
  });
});
