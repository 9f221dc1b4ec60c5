// Proxies from the environment, as curl, npm and gh read them: http_proxy/HTTP_PROXY for http://
// services, https_proxy/HTTPS_PROXY for https:// ones (else the http proxy, as undici and npm do),
// no_proxy/NO_PROXY for the hosts to reach directly (host suffixes, host:port, `*`, and, as curl
// 7.86+ reads them, IP addresses and CIDR ranges such as 10.0.0.0/8 or ::1/128 for hosts written as
// IP addresses). The work is undici's EnvHttpProxyAgent, loaded only when one of these variables is
// set (docs/performance.md); the IP ranges, which it does not read, are matched here with ipaddr.js.
// A request to an https:// service goes to the proxy as a CONNECT tunnel, so its token is only ever
// sent inside TLS, end to end with the service. A request to a plain http:// service is forwarded
// (the proxy gets it with the full URL, as curl sends it): many proxies allow CONNECT to port 443
// only (squid's default), and an http:// request is in clear on the way anyway.

import { channel, subscribe, unsubscribe } from 'node:diagnostics_channel';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';
import { ProxyError } from './errors.js';
import { TLS_FAILURE, untrustedCertificate } from './network.js';
import { PROTOCOL_ERROR } from './retry.js';

export interface ProxySetting {
  /** The proxy for http:// URLs, and the variable it came from. */
  http?: { url: string; from: string };
  /** The proxy for https:// URLs, and the variable it came from. */
  https?: { url: string; from: string };
  /** NO_PROXY's value ('' when unset). */
  noProxy: string;
}

/**
 * The first variable of `names` that is set and not empty. A value without a scheme
 * (`proxy.example.com:3128`, `bob:secret@proxy:3128`) is an http:// proxy, as curl, npm and Go's
 * tools read it.
 */
function pick(env: NodeJS.ProcessEnv, names: string[]): { url: string; from: string } | undefined {
  for (const from of names) {
    const url = env[from]?.trim();
    if (url) return { url: /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`, from };
  }
  return undefined;
}

/** The proxies the environment asks for; undefined when it names none (the usual case: nothing is loaded). */
export function proxySetting(env: NodeJS.ProcessEnv): ProxySetting | undefined {
  const http = pick(env, ['http_proxy', 'HTTP_PROXY']);
  const https = pick(env, ['https_proxy', 'HTTPS_PROXY']) ?? http;
  if (!http && !https) return undefined;
  return { http, https, noProxy: env.no_proxy ?? env.NO_PROXY ?? '' };
}

/** A proxy URL as messages show it: the password masked (`http://user:***@host:3128`). */
export function maskProxyUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href.replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  }
}

/**
 * Whether formctl can use this proxy: an http:// or https:// one. Any other scheme (socks5://,
 * socks4://, socks5h://) is refused with exit 12 for the requests that would go through it
 * (unsupportedProxy); NO_PROXY may still send every request direct. undici's SOCKS5 support is
 * marked experimental and announces it on stderr with a process warning on first use. A value that
 * is not a URL is left to undici (proxyFailure words its error).
 */
function supported(url: string): boolean {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return true;
  }
}

/**
 * An unsupported proxy is given to undici as this https:// origin, so that undici still decides by
 * NO_PROXY which requests would go through it: those come to clientFactory as a CONNECT to this
 * origin, whose connection fails at once with UNSUPPORTED_PROXY, without a socket (the .invalid
 * name is never resolved: RFC 6761).
 */
const UNSUPPORTED_ORIGIN = 'https://unsupported-proxy.formctl.invalid';
const UNSUPPORTED_PROXY = 'FORMCTL_PROXY_UNSUPPORTED';

/**
 * How far a connection to a proxy had got: `connect`, its TCP connection not yet accepted;
 * `handshake`, accepted, its TLS handshake (an https:// proxy) not yet done; `tunnel`, connected,
 * and the proxy has not answered the CONNECT that asks it for a tunnel to the service.
 */
export type ProxyStage = 'connect' | 'handshake' | 'tunnel';

/**
 * The errors of connections to a proxy (proxyAgent's connector for the proxy's pool), and how far
 * each connection had got: a TLS error among them is the https:// proxy's certificate or handshake,
 * not the service's. A TLS error carries no address, and the service's own handshake (inside a
 * CONNECT tunnel, made by undici's ProxyAgent over the tunnel's socket, not through this
 * connector) fails with the same codes.
 */
const proxyConnectErrors = new WeakMap<object, ProxyStage>();

/**
 * The errors of the CONNECTs made to a proxy before it answered anything: it closed the connection,
 * or wrote something that is not HTTP (a SOCKS proxy, or another service on that port). The service
 * was never reached, whatever the error names; undici gives the request to the target the same
 * error object. A forwarded plain http:// request is not among them: it may have reached the service.
 */
const proxyUnanswered = new WeakSet<object>();

/** The proxy for a URL's scheme, if any (NO_PROXY is left to the agent: see proxyFailure). */
function proxyForScheme(p: ProxySetting, url: URL): { url: string; from: string } | undefined {
  return url.protocol === 'https:' ? p.https : p.http;
}

/** The dispatcher proxyAgent makes: fetch's dispatcher, and what it saw of the requests sent through it. */
export interface ProxyDispatcher {
  close(): Promise<void>;
  /**
   * Ends its connections at once, for the end of a command: a CONNECT the proxy never answered
   * included. undici's close() waits for it (up to its 300 s headers timeout: the fetch's abort
   * does not reach a tunnel's CONNECT), which would hold the process after its --timeout error.
   */
  shutdown(): Promise<void>;
  /** Whether requests to `url`'s origin were forwarded through a proxy (a plain http:// request sent to the proxy with its full URL). */
  forwarded(url: URL): boolean;
  /**
   * How far a connection to `proxyUrl` still under way has got (undefined when none is): read when
   * a timeout runs out, to tell a proxy that never completed the connection (proxyTimeoutFailure).
   */
  connecting(proxyUrl: string): ProxyStage | undefined;
}

/**
 * Which hosts NO_PROXY's IP entries send direct: its CIDR ranges (`10.0.0.0/8`, `::1/128`) and bare
 * IP addresses (`::1`, which undici reads as host `:` port 1), matched against a host written as an
 * IP address (`127.0.0.1`, `[::1]`; an IPv4-mapped IPv6 address as its IPv4 one), never against a
 * name (curl does not resolve names for NO_PROXY either). Every other entry is left to the agent.
 */
export async function noProxyRanges(noProxy: string): Promise<((hostname: string) => boolean) | undefined> {
  // Every IP entry holds a digit or a colon: without one, ipaddr.js is not even loaded.
  if (!/[\d:]/.test(noProxy)) return undefined;
  const ipaddr = (await import('ipaddr.js')).default;
  type Range = [ReturnType<typeof ipaddr.parse>, number];
  const ranges: Range[] = [];
  for (const entry of noProxy.split(/[,\s]+/)) {
    // `[::1]` and `[::1]/128` are unbracketed; `[::1]:8080` (a port) is left to the agent.
    const [addr, bits, extra] = entry.replace(/^\[([^\]]*)\](\/|$)/, '$1$2').split('/');
    // IPv4 in dotted-quad form only: ipaddr.js would also read `10` or `0x0a` as an address.
    if (extra !== undefined || !addr || !(ipaddr.IPv4.isValidFourPartDecimal(addr) || ipaddr.IPv6.isValid(addr))) continue;
    const ip = ipaddr.parse(addr);
    const max = ip.kind() === 'ipv4' ? 32 : 128;
    if (bits === undefined) ranges.push([ip, max]);
    else if (/^\d{1,3}$/.test(bits) && Number(bits) <= max) ranges.push([ip, Number(bits)]);
  }
  if (ranges.length === 0) return undefined;
  return (hostname) => {
    const h = hostname.replace(/^\[|\]$/g, '');
    if (!ipaddr.IPv4.isValidFourPartDecimal(h) && !ipaddr.IPv6.isValid(h)) return false;
    const ip = ipaddr.process(h);
    return ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
  };
}

/**
 * The dispatcher for fetch that sends through the proxies of `p`. `connectTimeoutMs` bounds each
 * connection to a proxy (its TLS handshake included), as --timeout bounds an exchange; without it,
 * undici's 10 s.
 */
export async function proxyAgent(p: ProxySetting, o: { connectTimeoutMs?: number } = {}): Promise<ProxyDispatcher> {
  // `default` is undici's CommonJS module.exports, from node_modules or bundled by the build.
  const { EnvHttpProxyAgent, Agent, Pool } = (await import('undici')).default;
  const direct = await noProxyRanges(p.noProxy);
  const forwardedTo = new Set<string>();
  const proxies = [p.http?.url, p.https?.url].filter((u) => u !== undefined);
  // A forwarded request is made to the proxy's origin with the target's full URL as its path
  // (undici's Http1ProxyWrapper), and undici tells each request it makes on this channel.
  // The CONNECTs made to a proxy that it has not answered yet, with the proxy's origin: undici tells
  // when it creates each request, its answer's head, and its error.
  const unanswered = new Map<object, string>();
  const proxyOrigins = new Set(proxies.map((x) => originOf(x)).filter((x) => x !== undefined));
  const onCreate = (m: unknown): void => {
    const target = forwardedTarget(m, proxies);
    if (target) forwardedTo.add(target.origin);
    const r = (m as { request?: { origin?: unknown; method?: unknown } }).request;
    const origin = r && originOf(String(r.origin ?? ''));
    // Only a CONNECT: a forwarded request reached the proxy whole and may have been carried out by the
    // service before the proxy failed, so its failure keeps the words that say so (the client's).
    if (r && r.method === 'CONNECT' && origin !== undefined && proxyOrigins.has(origin)) unanswered.set(r, origin);
  };
  const onHeaders = (m: unknown): void => void unanswered.delete((m as { request?: object }).request ?? {});
  const onError = (m: unknown): void => {
    const { request, error } = m as { request?: object; error?: unknown };
    if (!request || !unanswered.delete(request)) return;
    // A connection to the proxy that was never made (refused, not resolved, its TLS) is proxyFailure's
    // own case: marked by the connector (proxyConnectErrors), and told by the error as well.
    if (typeof error !== 'object' || error === null || proxyConnectErrors.has(error)) return;
    const { code, syscall } = error as { code?: unknown; syscall?: unknown };
    if (syscall === 'connect' || syscall === 'getaddrinfo' || code === 'UND_ERR_CONNECT_TIMEOUT' || (typeof code === 'string' && TLS_FAILURE.test(code)))
      return;
    proxyUnanswered.add(error);
  };
  const channels: [string, (m: unknown) => void][] = [
    ['undici:request:create', onCreate],
    ['undici:request:headers', onHeaders],
    ['undici:request:error', onError],
  ];
  for (const [name, fn] of channels) subscribe(name, fn);
  const stopListening = (): void => {
    for (const [name, fn] of channels) unsubscribe(name, fn);
  };
  const directAgent = direct ? new Agent() : undefined;
  // The sockets to the proxies, while open: a connection still in its TLS handshake (to an https://
  // proxy, or to the service inside a tunnel, which runs over such a socket) is not the agent's
  // yet, and destroy() would leave it, and undici's connect timer, to run out (10 s) after the
  // command. shutdown() ends them with an error, which also stops that timer.
  const sockets = new Set<Duplex>();
  // The connections to a proxy whose connector has not called back yet, with their proxy's origin.
  const pending = new Set<{ origin: string; stage: ProxyStage }>();
  type Connector = (opts: object, callback: (...args: unknown[]) => void) => Duplex;
  const clientFactory = (origin: URL, o: object): Dispatcher => {
    if (origin.origin === UNSUPPORTED_ORIGIN) {
      return new Pool(origin, {
        ...o,
        connect: (_opts: object, callback: (...args: unknown[]) => void) =>
          callback(Object.assign(new Error('only http:// and https:// proxies are supported'), { code: UNSUPPORTED_PROXY })),
      } as ConstructorParameters<typeof Pool>[1]);
    }
    const connect = (o as { connect: Connector }).connect;
    return new Pool(origin, {
      ...o,
      connect: (opts: { servername?: string | null }, callback: (...args: unknown[]) => void) => {
        // undici names an https:// proxy in TLS's SNI by its host, an IP address included, and Node
        // warns about that (DEP0123: RFC 6066 allows names only). Without a servername, undici's
        // connector names none for an IP address, and the certificate is still checked against it.
        const named = opts.servername && isIP(opts.servername.replace(/^\[|\]$/g, '')) ? { ...opts, servername: null } : opts;
        const attempt = { origin: origin.origin, stage: 'connect' as ProxyStage };
        pending.add(attempt);
        const socket = connect(named, (err: unknown, ...rest: unknown[]) => {
          pending.delete(attempt);
          if (typeof err === 'object' && err !== null) proxyConnectErrors.set(err, attempt.stage);
          callback(err, ...rest);
        });
        sockets.add(socket);
        // A TLS socket tells its TCP connection with 'connect', before its handshake's 'secureConnect'.
        if (origin.protocol === 'https:') socket.once('connect', () => (attempt.stage = 'handshake'));
        socket.once('close', () => {
          sockets.delete(socket);
          pending.delete(attempt);
        });
        return socket;
      },
    } as ConstructorParameters<typeof Pool>[1]);
  };
  class Routed extends EnvHttpProxyAgent implements ProxyDispatcher {
    override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      if (directAgent && direct?.(new URL(String(opts.origin)).hostname)) return directAgent.dispatch(opts, handler);
      return super.dispatch(opts, handler);
    }

    // undici's close() without a callback calls close(callback): the work is done there, once.
    override close(): Promise<void>;
    override close(callback: (err: Error | null) => void): void;
    override close(callback?: (err: Error | null) => void): Promise<void> | void {
      if (!callback) return super.close();
      stopListening();
      const own = new Promise<void>((resolve) => super.close(() => resolve()));
      void Promise.all([own, directAgent?.close()]).then(
        () => callback(null),
        (err: Error) => callback(err),
      );
    }

    async shutdown(): Promise<void> {
      stopListening();
      const closed = [...sockets].map((socket) => {
        const gone = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        socket.on('error', () => undefined).destroy(Object.assign(new Error('formctl is done'), { code: 'FORMCTL_SHUTDOWN' }));
        return gone;
      });
      await Promise.all([this.destroy(), directAgent?.destroy(), ...closed]);
    }

    forwarded(url: URL): boolean {
      return forwardedTo.has(url.origin);
    }

    connecting(proxyUrl: string): ProxyStage | undefined {
      let origin: string;
      try {
        origin = new URL(proxyUrl).origin;
      } catch {
        return undefined;
      }
      let stage: ProxyStage | undefined;
      for (const a of pending) if (a.origin === origin && stage !== 'handshake') stage = a.stage;
      if (stage === undefined && [...unanswered.values()].includes(origin)) stage = 'tunnel';
      return stage;
    }
  }
  // Given explicitly (an empty string: none), so that the agent reads no variable of its own.
  // proxyTunnel false: http:// targets through an http:// proxy are forwarded; https:// ones (and
  // any through an https:// proxy) still get a CONNECT tunnel (undici's ProxyAgent decides per target).
  const given = (x: { url: string } | undefined): string => (x === undefined ? '' : supported(x.url) ? x.url : UNSUPPORTED_ORIGIN);
  // proxyTls.timeout: the connect timeout of undici's connector for the proxies (not the service's).
  const proxyTls = o.connectTimeoutMs === undefined ? undefined : { timeout: o.connectTimeoutMs };
  // The pools for the services: undici takes a connection that closed before it was made for a
  // passing fault and connects again at once, without end (its client leaves UND_ERR_SOCKET to
  // recover), so a proxy that closes every CONNECT unanswered would hold the request until
  // --timeout. Such a close is handed on as a failure of its own, to the client's retry rule.
  const factory = (origin: URL | string, o: object): Dispatcher => {
    const connect = (o as { connect?: unknown }).connect;
    if (typeof connect !== 'function') return new Pool(origin, o);
    const tunnel = connect as Connector;
    return new Pool(origin, {
      ...o,
      connect: (opts: object, callback: (...args: unknown[]) => void) =>
        tunnel(opts, (err: unknown, ...rest: unknown[]) => callback(closedUnanswered(err) ?? err, ...rest)),
    } as ConstructorParameters<typeof Pool>[1]);
  };
  return new Routed({ httpProxy: given(p.http), httpsProxy: given(p.https), noProxy: p.noProxy, proxyTunnel: false, clientFactory, factory, proxyTls });
}

/** A proxy's close of a CONNECT it never answered (undici's UND_ERR_SOCKET), as an error undici does not connect again for; else undefined. */
function closedUnanswered(err: unknown): Error | undefined {
  if (typeof err !== 'object' || err === null || !proxyUnanswered.has(err) || (err as { code?: unknown }).code !== 'UND_ERR_SOCKET') return undefined;
  const closed = Object.assign(new Error((err as Error).message, { cause: err }), { code: 'PROXY_CLOSED' });
  proxyUnanswered.add(closed);
  return closed;
}

/** The target of a request undici made to one of `proxies` with a full URL as its path (a forwarded request), from its `undici:request:create` message. */
function forwardedTarget(m: unknown, proxies: string[]): URL | undefined {
  const r = (m as { request?: { origin?: unknown; path?: unknown } }).request;
  const origin = typeof r?.origin === 'string' ? r.origin : String(r?.origin ?? '');
  if (typeof r?.path !== 'string' || !/^https?:\/\//.test(r.path) || !proxies.some((x) => sameOrigin(x, origin))) return undefined;
  try {
    return new URL(r.path);
  } catch {
    return undefined;
  }
}

/**
 * Tells `debug` which proxy each request goes through, and the variable it came from for the
 * target's scheme (HTTP_PROXY for an http:// URL, even when HTTPS_PROXY holds the same proxy): each
 * tunnel from undici's `undici:proxy:connected` diagnostics channel, each forwarded request from
 * `undici:request:create` (a request made to the proxy's origin, its path the full URL: only the
 * target's host and port are shown, a query can hold a secret). A tunnel's message names only
 * host:port; its scheme is the one of the request undici created for that host:port just before
 * (https:// when none was seen). Returns the function that stops telling.
 */
export function traceProxy(p: ProxySetting, debug: (line: string) => void): () => void {
  // The channels are the process's: with several clients tracing (auth login makes two), each
  // message is told by the first that sees it (a message is one object for every subscriber).
  const once = (m: unknown): boolean => {
    if (typeof m !== 'object' || m === null || told.has(m)) return false;
    told.add(m);
    return true;
  };
  const proxies = [p.https, p.http].filter((x) => x !== undefined);
  const schemes = new Map<string, string>();
  const shown = (origin: string | undefined, scheme: string): string => {
    const forScheme = scheme === 'http:' ? p.http : p.https;
    const via =
      forScheme && origin !== undefined && sameOrigin(forScheme.url, origin)
        ? forScheme
        : proxies.find((x) => origin !== undefined && sameOrigin(x.url, origin));
    return via ? `${maskProxyUrl(via.url)} (${via.from})` : (origin ?? '?');
  };
  const connected = channel('undici:proxy:connected');
  const onConnected = (m: unknown): void => {
    if (!once(m)) return;
    const params = (m as { connectParams?: { origin?: string; path?: string } }).connectParams;
    debug(`  via proxy ${shown(params?.origin, schemes.get(params?.path ?? '') ?? 'https:')}: CONNECT ${params?.path ?? '?'}`);
  };
  const created = channel('undici:request:create');
  const onCreated = (m: unknown): void => {
    const target = forwardedTarget(
      m,
      proxies.map((x) => x.url),
    );
    if (target) {
      if (!once(m)) return;
      const r = (m as { request: { origin?: unknown; method?: unknown } }).request;
      debug(`  via proxy ${shown(String(r.origin), 'http:')}: forward ${typeof r.method === 'string' ? r.method : '?'} to ${target.host}`);
      return;
    }
    // Any other request: remember its scheme by host:port, for the tunnel that may carry it.
    try {
      const u = new URL(String((m as { request?: { origin?: unknown } }).request?.origin ?? ''));
      schemes.set(`${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`, u.protocol);
    } catch {
      // not a URL: nothing to remember
    }
  };
  connected.subscribe(onConnected);
  created.subscribe(onCreated);
  return () => {
    connected.unsubscribe(onConnected);
    created.unsubscribe(onCreated);
  };
}

/** The diagnostics messages a traceProxy already told (see traceProxy). */
const told = new WeakSet<object>();

function sameOrigin(a: string, b: string): boolean {
  const o = originOf(a);
  return o !== undefined && o === originOf(b);
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * The error for a request that failed at the proxy, not at the service: the proxy refused the
 * connection, could not be reached, failed the TLS handshake of an https:// proxy (its certificate
 * not trusted, most often), answered the CONNECT with an error, or answered 407 (it needs
 * credentials, or other ones) to a CONNECT or a forwarded request. Exit 12, naming the proxy with
 * its password masked. Undefined when the failure is not the proxy's (or NO_PROXY sent the request
 * directly).
 */
export function proxyFailure(
  p: ProxySetting,
  url: URL,
  err: NodeJS.ErrnoException & { address?: string; port?: number },
  where: string,
): ProxyError | undefined {
  const proxy = proxyForScheme(p, url);
  if (!proxy) return undefined;
  if (err.code === UNSUPPORTED_PROXY) return unsupportedProxy(proxy, url, where);
  let proxyUrl: URL;
  try {
    proxyUrl = new URL(proxy.url);
  } catch {
    return new ProxyError(
      `The proxy in ${proxy.from} is not a URL: ${maskProxyUrl(proxy.url)} ${where}.`,
      `Set ${proxy.from} to a URL such as http://proxy.example.com:3128, or unset it.`,
      'PROXY_INVALID',
    );
  }
  const shown = `${maskProxyUrl(proxy.url)} (${proxy.from})`;
  // A CONNECT answered with an error: "Proxy response (407) !== 200 when HTTP Tunneling"; a forwarded
  // request answered 407: "Proxy Authentication Required (407)" (undici makes an error of it).
  const status = /^Proxy (?:response|Authentication Required) \((\d+)\)/.exec(err.message ?? '')?.[1];
  if (status !== undefined) {
    // 407 is the status for it; tinyproxy up to 1.11.2 answers wrong credentials with 401 (see proxyAnswerFailure).
    if (status === '407' || status === '401') return credentialsRefused(proxy, status, where);
    return new ProxyError(
      `The proxy ${shown} refused to connect to ${url.host} (HTTP ${status}) ${where}.`,
      `Check the proxy's rules, or add ${url.hostname} to NO_PROXY to reach it directly.`,
      `PROXY_${status}`,
    );
  }
  const proxyPort = Number(proxyUrl.port || (proxyUrl.protocol === 'https:' ? 443 : 80));
  if (err.code && TLS_FAILURE.test(err.code) && proxyConnectErrors.has(err)) {
    // The proxy's own certificate or handshake: its CA is the one to trust, not the service's.
    const untrusted = untrustedCertificate(err.code, `The proxy ${shown}`, undefined, 'proxy');
    if (untrusted) return new ProxyError(`${untrusted.reason} ${where}.`, untrusted.hint, err.code);
    const hint =
      err.code === 'ERR_TLS_CERT_ALTNAME_INVALID'
        ? `Its certificate is for another name: write the proxy in ${proxy.from} with a name the certificate holds.`
        : `If it is a plain http:// proxy, write it so in ${proxy.from}; else check its certificate (NODE_EXTRA_CA_CERTS for a private CA).`;
    return new ProxyError(`TLS error talking to the proxy ${shown}: ${err.code} ${where}.`, hint, err.code);
  }
  if (proxyUnanswered.has(err)) {
    // It took the connection and then closed it, or wrote something that is not HTTP. undici's
    // HTTPParserError may carry no code (the API client's networkError gives it the same one).
    const notHttp = err.name === 'HTTPParserError' || PROTOCOL_ERROR.test(err.code ?? '');
    const detail = notHttp ? (/\(([^)]+)\)\s*$/.exec(err.message ?? '')?.[1] ?? err.code) : err.message || err.code;
    return new ProxyError(
      `The proxy ${shown} ${notHttp ? 'answered in something that is not HTTP' : 'closed the connection without answering'} (${detail}) ${where}.`,
      `Check that ${proxy.from} names an HTTP proxy (a SOCKS proxy, or another service on that port, does not answer one), or add ${url.hostname} to NO_PROXY to reach it directly.`,
      // Not retried when not HTTP (PROTOCOL_ERROR): it will answer the same way again.
      notHttp ? (err.code ?? 'HPE_INVALID_RESPONSE') : (err.code ?? 'PROXY_CLOSED'),
    );
  }
  const atProxy = err.port === proxyPort && (err.address === undefined || hostMatches(proxyUrl.hostname, err.address));
  if (atProxy || (err.code === 'ENOTFOUND' && (err as { hostname?: string }).hostname === proxyUrl.hostname)) {
    const why = err.code === 'ECONNREFUSED' ? 'refused the connection' : `could not be reached (${err.code ?? 'network error'})`;
    return new ProxyError(`The proxy ${shown} ${why} ${where}.`, `Check ${proxy.from}, or add ${url.hostname} to NO_PROXY to reach it directly.`, err.code);
  }
  return undefined;
}

/**
 * The error for a request whose timeout ran out (`err`: the timeout's error, or undici's connect
 * timeout) while its connection to the proxy was still not complete: the proxy never accepted the
 * TCP connection, or accepted it and never finished the TLS handshake of an https:// proxy. The
 * latter is most often a plain HTTP proxy written as https:// (tinyproxy waits for a request line
 * and answers a ClientHello with nothing; a server that answers it with an error is proxyFailure's
 * ERR_SSL_WRONG_VERSION_NUMBER). Exit 12, naming the proxy with its password masked and the
 * variable it came from. Undefined when the connection to the proxy was made (the service, or the
 * proxy's CONNECT to it, was slow: the caller's words), or NO_PROXY sent the request directly.
 * `secs`: the timeout as messages show it ("3 s").
 */
export function proxyTimeoutFailure(p: ProxySetting, dispatcher: unknown, url: URL, err: unknown, secs: string, where: string): ProxyError | undefined {
  const proxy = proxyForScheme(p, url);
  if (!proxy || !supported(proxy.url)) return undefined;
  const code = (err as { code?: unknown } | undefined)?.code;
  const timedOutConnecting = code === 'UND_ERR_CONNECT_TIMEOUT' && typeof err === 'object' && err !== null ? proxyConnectErrors.get(err) : undefined;
  const connecting = (dispatcher as Partial<ProxyDispatcher> | undefined)?.connecting;
  const stage = timedOutConnecting ?? (typeof connecting === 'function' ? connecting.call(dispatcher, proxy.url) : undefined);
  if (!stage) return undefined;
  const shown = `${maskProxyUrl(proxy.url)} (${proxy.from})`;
  if (stage === 'tunnel') {
    return new ProxyError(
      `The proxy ${shown} took the connection but did not answer the request for a tunnel to ${url.host} (CONNECT) within ${secs} ${where}.`,
      `The proxy may not reach ${url.host}, or ${proxy.from} may not name an HTTP proxy; check it, raise --timeout, or add ${url.hostname} to NO_PROXY to reach it directly.`,
      'PROXY_TUNNEL_TIMEOUT',
    );
  }
  if (stage === 'handshake') {
    return new ProxyError(
      `The proxy ${shown} did not complete a TLS handshake within ${secs} ${where}.`,
      `If it is a plain http:// proxy, write it with http:// in ${proxy.from}; else check that the proxy is up, or raise --timeout.`,
      'PROXY_TLS_TIMEOUT',
    );
  }
  return new ProxyError(
    `The proxy ${shown} could not be reached within ${secs} ${where}.`,
    `Check ${proxy.from}, or add ${url.hostname} to NO_PROXY to reach it directly.`,
    'PROXY_CONNECT_TIMEOUT',
  );
}

/** The wire's own timeouts that may run out before the connection to a proxy is made (undici's connect and headers timeouts). */
const WIRE_TIMEOUTS: ReadonlySet<string> = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);

/**
 * A request through `p`'s proxies that failed, as the proxy's error when it is the proxy's, for every
 * caller (the API client, webhook send): `expired`, the caller's own timeout ran out. A timeout (the
 * caller's or the wire's) with the connection to the proxy still unfinished is proxyTimeoutFailure;
 * any other failure is proxyFailure's to judge, except after the caller's timeout, which is the
 * caller's words. Undefined when the failure is not the proxy's.
 */
export function proxyRequestFailure(
  p: ProxySetting,
  dispatcher: unknown,
  url: URL,
  err: NodeJS.ErrnoException,
  o: { expired: boolean; secs: string; where: string },
): ProxyError | undefined {
  const stalled = o.expired || WIRE_TIMEOUTS.has(err.code ?? '') ? proxyTimeoutFailure(p, dispatcher, url, err, o.secs, o.where) : undefined;
  return stalled ?? (o.expired ? undefined : proxyFailure(p, url, err, o.where));
}

/**
 * The error for an answer to a forwarded request that the proxy wrote itself, not the service:
 * tinyproxy's 401 to wrong credentials. tinyproxy up to 1.11.2 (Debian 12 ships 1.11.1) answers a
 * request without Proxy-Authorization with 407, but one with wrong credentials with 401 and a
 * `WWW-Authenticate: Basic realm="Tinyproxy"`, like a service refusing its token (its src/reqs.c;
 * 1.11.3 answers 407). Its own answers, and only those, carry `Server: tinyproxy/<version>`
 * (or `tinyproxy`): it passes a forwarded answer's headers through and adds no Server header to
 * them (src/html-error.c, send_http_headers). squid answers a forward proxy's credential failures
 * with 407 (src/client_side_request.cc, clientAccessCheckDone), which undici already turns into an
 * error (proxyFailure). So: a 401 whose Server header names tinyproxy, to a request that was
 * forwarded through the proxy from the environment. Undefined for any other answer (the service's
 * own 401 forwarded by the proxy stays the service's: exit 4).
 */
export function proxyAnswerFailure(
  p: ProxySetting,
  dispatcher: unknown,
  url: URL,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  where: string,
): ProxyError | undefined {
  if (status !== 401) return undefined;
  const server = headers.server;
  if (typeof server !== 'string' || !/^tinyproxy(\/|$)/i.test(server.trim())) return undefined;
  const proxy = proxyForScheme(p, url);
  const forwarded = (dispatcher as Partial<ProxyDispatcher> | undefined)?.forwarded;
  if (!proxy || typeof forwarded !== 'function' || !forwarded.call(dispatcher, url)) return undefined;
  return credentialsRefused(proxy, String(status), where);
}

/** A request that NO_PROXY does not send direct, with a proxy that is not http:// or https:// (see supported). */
function unsupportedProxy(proxy: { url: string; from: string }, url: URL, where: string): ProxyError {
  const scheme = proxy.url.slice(0, proxy.url.indexOf(':')).toLowerCase();
  const what = scheme.startsWith('socks') ? 'is a SOCKS proxy' : `uses ${scheme}://`;
  return new ProxyError(
    `The proxy ${maskProxyUrl(proxy.url)} (${proxy.from}) ${what}: only http:// and https:// proxies are supported ${where}.`,
    `Set ${proxy.from} to an http:// or https:// proxy, or add ${url.hostname} to NO_PROXY to reach it directly.`,
    'PROXY_UNSUPPORTED',
  );
}

/** A proxy that wants credentials (none in its URL) or did not accept those in its URL. */
function credentialsRefused(proxy: { url: string; from: string }, status: string, where: string): ProxyError {
  const shown = `${maskProxyUrl(proxy.url)} (${proxy.from})`;
  let withCredentials = false;
  try {
    withCredentials = new URL(proxy.url).username !== '';
  } catch {
    // not a URL: proxyFailure words that
  }
  return withCredentials
    ? new ProxyError(
        `The proxy ${shown} did not accept the credentials in its URL (HTTP ${status}) ${where}.`,
        `Check the user and password in ${proxy.from} (http://user:password@host:port, special characters percent-encoded).`,
        `PROXY_${status}`,
      )
    : new ProxyError(
        `The proxy ${shown} asks for credentials (HTTP ${status}) ${where}.`,
        `Put the user and password in the proxy URL (http://user:password@host:port), or check them.`,
        `PROXY_${status}`,
      );
}

function hostMatches(hostname: string, address: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h === address || (h === 'localhost' && (address === '127.0.0.1' || address === '::1'));
}
