import { channel } from 'node:diagnostics_channel';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, type Server as NetServer, type Socket, createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyError } from '../../../src/api/errors.js';
import { type ProxySetting, noProxyRanges, proxyAgent, proxyAnswerFailure, proxySetting, proxyTimeoutFailure, traceProxy } from '../../../src/api/proxy.js';
import { unwrapFetchError } from '../../../src/api/transport.js';
import { ExitCode } from '../../../src/errors.js';

describe("NO_PROXY's IP addresses and CIDR ranges (curl 7.86+), for hosts written as IP addresses", () => {
  it.each([
    ['10.0.0.0/8', '10.1.2.3', true],
    ['10.0.0.0/8', '11.1.2.3', false],
    ['127.0.0.0/8', '127.0.0.1', true],
    ['192.168.1.7', '192.168.1.7', true],
    ['192.168.1.7', '192.168.1.8', false],
    ['::1/128', '[::1]', true],
    ['::1', '[::1]', true],
    ['[::1]', '[::1]', true],
    ['[::1]/128', '[::1]', true],
    ['fd00::/8', '[fd12:3456::1]', true],
    ['fd00::/8', '[fe80::1]', false],
    ['10.0.0.0/8', '[::ffff:10.0.0.1]', true], // an IPv4-mapped IPv6 address is its IPv4 one
    ['::1/128', '127.0.0.1', false], // never across families
    ['127.0.0.0/8', 'localhost', false], // names are not resolved (nor by curl)
    ['10.0.0.0/8', '10.example.com', false],
    ['example.com, 10.0.0.0/8 *.local', '10.9.9.9', true], // comma or space separated, among other entries
  ])('NO_PROXY=%s sends %s direct: %s', async (noProxy, host, direct) => {
    const match = await noProxyRanges(noProxy);
    expect(match?.(host) ?? false).toBe(direct);
  });

  it.each(['example.com', '*', '10.0.0.1:8080', '[::1]:8080', '10', '0x0a000001', '10.0.0.0/33', '::1/129', '10.0.0.0/8/1', '10.0.0.0/x', ''])(
    'takes nothing from %j (left to undici: names, ports, `*`; or not an address)',
    async (noProxy) => {
      expect(await noProxyRanges(noProxy)).toBeUndefined();
    },
  );
});

describe('the proxy agent sends a host inside a NO_PROXY range direct', () => {
  let service: Server;
  let port: number;
  beforeAll(async () => {
    service = createServer((_req, res) => res.end('direct'));
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    port = (service.address() as AddressInfo).port;
  });
  afterAll(async () => {
    service.closeAllConnections();
    await new Promise<void>((r) => service.close(() => r()));
  });

  // The proxy is a port nothing listens on: a request sent to it fails, one sent direct gets 'direct'.
  const get = async (noProxy: string, url = `http://127.0.0.1:${port}/`): Promise<string> => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const agent = await proxyAgent(proxySetting({ HTTP_PROXY: `http://127.0.0.1:${deadPort}`, NO_PROXY: noProxy })!);
    try {
      const res = await fetch(url, { dispatcher: agent } as unknown as RequestInit);
      return await res.text();
    } catch {
      return 'through the proxy (refused)';
    } finally {
      await agent.close();
    }
  };

  it('127.0.0.0/8: direct', async () => {
    expect(await get('127.0.0.0/8')).toBe('direct');
  });

  it('10.0.0.0/8: through the proxy', async () => {
    expect(await get('10.0.0.0/8')).toBe('through the proxy (refused)');
  });

  it('an IPv6 host: ::1/128 direct, ::2/128 through the proxy', async () => {
    const v6 = createServer((_req, res) => res.end('direct'));
    const listening = await new Promise<boolean>((r) => v6.once('error', () => r(false)).listen(0, '::1', () => r(true)));
    if (!listening) return; // no IPv6 loopback on this machine: nothing to route
    try {
      const url = `http://[::1]:${(v6.address() as AddressInfo).port}/`;
      expect(await get('::1/128', url)).toBe('direct');
      expect(await get('::2/128', url)).toBe('through the proxy (refused)');
    } finally {
      v6.closeAllConnections();
      await new Promise<void>((r) => v6.close(() => r()));
    }
  });
});

describe("a timeout that runs out before the connection to the proxy is made is the proxy's", () => {
  // A proxy that accepts the TCP connection, reads, and never writes a byte: as tinyproxy treats a TLS ClientHello.
  let silent: NetServer;
  let port: number;
  const sockets = new Set<Socket>();
  /** Resolves at the first bytes the proxy receives (a ClientHello, or a CONNECT request). */
  let received: Promise<void>;
  let onReceived: () => void;
  beforeAll(async () => {
    silent = createNetServer((s) => {
      sockets.add(s);
      s.on('error', () => undefined).once('close', () => sockets.delete(s));
      s.once('data', () => onReceived());
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    port = (silent.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  /** A GET to `target` through `env`'s proxy, aborted once the proxy received its first bytes; the timeout's failure for it, if the proxy's. */
  const stalled = async (env: NodeJS.ProcessEnv, target: string): Promise<ProxyError | undefined> => {
    received = new Promise((r) => (onReceived = r));
    const p = proxySetting(env)!;
    const agent = await proxyAgent(p);
    const ac = new AbortController();
    try {
      const fetched = fetch(target, { dispatcher: agent, signal: ac.signal } as unknown as RequestInit);
      // (A fetch that failed at once, before reaching the proxy, ends the race too: the test then fails, never hangs.)
      await Promise.race([received, fetched.catch(() => undefined)]);
      ac.abort(Object.assign(new Error('timeout'), { code: 'FORMCTL_EXCHANGE_TIMEOUT' }));
      const err = await fetched.then(
        () => undefined,
        (e: unknown) => e,
      );
      return proxyTimeoutFailure(p, agent, new URL(target), err, '3 s', '(GET /)');
    } finally {
      await agent.shutdown();
    }
  };

  it('an https:// proxy that never completes the TLS handshake: exit 12, naming it (password masked) and its variable', async () => {
    const err = await stalled({ HTTPS_PROXY: `https://bob:s3cret@127.0.0.1:${port}` }, 'https://127.0.0.1:4430/open/workspaces');
    expect(err).toBeInstanceOf(ProxyError);
    expect(err?.exitCode).toBe(ExitCode.proxy);
    expect(err?.message).toBe(`The proxy https://bob:***@127.0.0.1:${port} (HTTPS_PROXY) did not complete a TLS handshake within 3 s (GET /).`);
    expect(err?.hint).toBe('If it is a plain http:// proxy, write it with http:// in HTTPS_PROXY; else check that the proxy is up, or raise --timeout.');
  });

  it('the same for an http:// service through it (HTTP_PROXY)', async () => {
    const err = await stalled({ HTTP_PROXY: `https://127.0.0.1:${port}` }, 'http://127.0.0.1:4430/open/workspaces');
    expect(err?.message).toBe(`The proxy https://127.0.0.1:${port} (HTTP_PROXY) did not complete a TLS handshake within 3 s (GET /).`);
  });

  it('an http:// proxy that took the CONNECT and never answered it: the tunnel request named, exit 12', async () => {
    const err = await stalled({ HTTPS_PROXY: `http://127.0.0.1:${port}` }, 'https://127.0.0.1:4430/open/workspaces');
    expect(err?.exitCode).toBe(ExitCode.proxy);
    expect(err?.message).toBe(
      `The proxy http://127.0.0.1:${port} (HTTPS_PROXY) took the connection but did not answer the request for a tunnel to 127.0.0.1:4430 (CONNECT) within 3 s (GET /).`,
    );
  });

  it('a proxy that has not even taken the TCP connection: "could not be reached within", with the NO_PROXY hint', () => {
    const p = proxySetting({ HTTPS_PROXY: 'http://bob:s3cret@proxy.example:3128' })!;
    const connectingTo = { connecting: (u: string) => (u === p.https!.url ? 'connect' : undefined) };
    const err = proxyTimeoutFailure(
      p,
      connectingTo,
      new URL('https://forms.example.com/open/workspaces'),
      new Error('timeout'),
      '3 s',
      '(GET /open/workspaces)',
    );
    expect(err?.exitCode).toBe(ExitCode.proxy);
    expect(err?.message).toBe('The proxy http://bob:***@proxy.example:3128 (HTTPS_PROXY) could not be reached within 3 s (GET /open/workspaces).');
    expect(err?.hint).toBe('Check HTTPS_PROXY, or add forms.example.com to NO_PROXY to reach it directly.');
  });

  it('NO_PROXY sends the request direct: not the proxy', async () => {
    const p = proxySetting({ HTTPS_PROXY: `https://127.0.0.1:${port}`, NO_PROXY: '127.0.0.1' })!;
    const agent = await proxyAgent(p);
    try {
      expect(agent.connecting(p.https!.url)).toBeUndefined();
      expect(proxyTimeoutFailure(p, agent, new URL('https://127.0.0.1:4430/'), new Error('timeout'), '3 s', '(GET /)')).toBeUndefined();
    } finally {
      await agent.shutdown();
    }
  });

  it("undici's connect timeout for the proxy (connectTimeoutMs, here shorter than the test's own timeout) is the proxy's too", async () => {
    const p = proxySetting({ HTTPS_PROXY: `https://127.0.0.1:${port}` })!;
    const agent = await proxyAgent(p, { connectTimeoutMs: 200 });
    try {
      const err = await fetch('https://127.0.0.1:4430/', { dispatcher: agent } as unknown as RequestInit).then(
        () => undefined,
        (e: unknown) => unwrapFetchError(e),
      );
      expect((err as { code?: string }).code).toBe('UND_ERR_CONNECT_TIMEOUT');
      // The connection is gone by now: the error itself tells how far it had got.
      expect(agent.connecting(p.https!.url)).toBeUndefined();
      expect(proxyTimeoutFailure(p, agent, new URL('https://127.0.0.1:4430/'), err, '0.2 s', '(GET /)')?.message).toBe(
        `The proxy https://127.0.0.1:${port} (HTTPS_PROXY) did not complete a TLS handshake within 0.2 s (GET /).`,
      );
    } finally {
      await agent.shutdown();
    }
  });
});

describe("an answer the proxy wrote itself to a forwarded request (tinyproxy's 401 to wrong credentials)", () => {
  const p: ProxySetting = proxySetting({ HTTP_PROXY: 'http://bob:s3cret@proxy.example:3128' })!;
  const url = new URL('http://127.0.0.1:8080/open/workspaces');
  const forwarded = { forwarded: (u: URL) => u.origin === url.origin };
  const direct = { forwarded: () => false };
  const tiny = { server: 'tinyproxy/1.11.1', 'www-authenticate': 'Basic realm="Tinyproxy"', 'content-type': 'text/html' };

  it('is exit 12, naming the proxy with its password masked', () => {
    const err = proxyAnswerFailure(p, forwarded, url, 401, tiny, '(GET /open/workspaces)');
    expect(err).toBeInstanceOf(ProxyError);
    expect(err?.exitCode).toBe(ExitCode.proxy);
    expect(err?.message).toBe(
      'The proxy http://bob:***@proxy.example:3128 (HTTP_PROXY) did not accept the credentials in its URL (HTTP 401) (GET /open/workspaces).',
    );
    expect(`${err?.message} ${err?.hint}`).not.toContain('s3cret');
  });

  it('tinyproxy without its version in Server (its later releases) too', () => {
    expect(proxyAnswerFailure(p, forwarded, url, 401, { server: 'tinyproxy' }, '(GET /)')).toBeInstanceOf(ProxyError);
  });

  it.each([
    ['the service (no Server header)', 401, { 'content-type': 'application/json' }, forwarded],
    ['another server', 401, { server: 'nginx/1.27' }, forwarded],
    ['a request sent direct (NO_PROXY)', 401, tiny, direct],
    ['no proxy dispatcher', 401, tiny, undefined],
    ['another status', 403, tiny, forwarded],
  ])('is not the proxy: %s', (_what, status, headers, dispatcher) => {
    expect(proxyAnswerFailure(p, dispatcher, url, status, headers, '(GET /)')).toBeUndefined();
  });
});

describe('--debug names the variable used for the target URL scheme', () => {
  const same = 'http://proxy.example:3128';
  const trace = (p: ProxySetting, publish: () => void): string[] => {
    const lines: string[] = [];
    const stop = traceProxy(p, (l) => lines.push(l));
    try {
      publish();
    } finally {
      stop();
    }
    return lines;
  };
  const both = proxySetting({ HTTP_PROXY: same, HTTPS_PROXY: same })!;

  it('a forwarded http:// request: HTTP_PROXY, even when HTTPS_PROXY holds the same proxy', () => {
    const lines = trace(both, () =>
      channel('undici:request:create').publish({ request: { origin: `${same}/`, path: 'http://10.0.0.5:8080/open/forms?x=1', method: 'GET' } }),
    );
    expect(lines).toEqual([`  via proxy ${same} (HTTP_PROXY): forward GET to 10.0.0.5:8080`]);
  });

  it('a tunnel: the scheme of the request made for its host:port (HTTPS_PROXY for https://, HTTP_PROXY for http://)', () => {
    const lines = trace(both, () => {
      channel('undici:request:create').publish({ request: { origin: 'https://api.example:443', path: '/open/forms', method: 'GET' } });
      channel('undici:proxy:connected').publish({ connectParams: { origin: same, path: 'api.example:443' } });
      channel('undici:request:create').publish({ request: { origin: 'http://api.example:8080', path: '/x', method: 'GET' } });
      channel('undici:proxy:connected').publish({ connectParams: { origin: same, path: 'api.example:8080' } });
    });
    expect(lines).toEqual([`  via proxy ${same} (HTTPS_PROXY): CONNECT api.example:443`, `  via proxy ${same} (HTTP_PROXY): CONNECT api.example:8080`]);
  });
});

describe('proxySetting', () => {
  it('reads a value without a scheme as an http:// proxy, as curl does; a scheme given stays', () => {
    expect(proxySetting({ HTTP_PROXY: 'proxy.example:3128' })?.http).toEqual({ url: 'http://proxy.example:3128', from: 'HTTP_PROXY' });
    expect(proxySetting({ https_proxy: 'bob:pw@proxy.example:3128' })?.https).toEqual({ url: 'http://bob:pw@proxy.example:3128', from: 'https_proxy' });
    expect(proxySetting({ HTTPS_PROXY: 'https://proxy.example' })?.https?.url).toBe('https://proxy.example');
  });
});
