// Proxies from the environment, as curl, npm and gh read them: http_proxy/HTTP_PROXY for http://
// services, https_proxy/HTTPS_PROXY for https:// ones (else the http proxy, as undici and npm do),
// no_proxy/NO_PROXY for the hosts to reach directly (host suffixes, host:port, `*`). The work is
// undici's EnvHttpProxyAgent, loaded only when one of these variables is set (docs/performance.md).
// A request to an https:// service goes to the proxy as a CONNECT tunnel, so its token is only ever
// sent inside TLS, end to end with the service. A request to a plain http:// service is forwarded
// (the proxy gets it with the full URL, as curl sends it): many proxies allow CONNECT to port 443
// only (squid's default), and an http:// request is in clear on the way anyway.

import { channel } from 'node:diagnostics_channel';
import { ProxyError } from './errors.js';

export interface ProxySetting {
  /** The proxy for http:// URLs, and the variable it came from. */
  http?: { url: string; from: string };
  /** The proxy for https:// URLs, and the variable it came from. */
  https?: { url: string; from: string };
  /** NO_PROXY's value ('' when unset). */
  noProxy: string;
}

/** The first variable of `names` that is set and not empty. */
function pick(env: NodeJS.ProcessEnv, names: string[]): { url: string; from: string } | undefined {
  for (const from of names) {
    const url = env[from]?.trim();
    if (url) return { url, from };
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

/** The proxy for a URL's scheme, if any (NO_PROXY is left to the agent: see proxyFailure). */
function proxyForScheme(p: ProxySetting, url: URL): { url: string; from: string } | undefined {
  return url.protocol === 'https:' ? p.https : p.http;
}

/** The dispatcher for fetch that sends through the proxies of `p`. */
export async function proxyAgent(p: ProxySetting): Promise<{ close(): Promise<void> }> {
  // `default` is undici's CommonJS module.exports, from node_modules or bundled by the build.
  const { EnvHttpProxyAgent } = (await import('undici')).default;
  // Given explicitly (an empty string: none), so that the agent reads no variable of its own.
  // proxyTunnel false: http:// targets through an http:// proxy are forwarded; https:// ones (and
  // any through an https:// proxy) still get a CONNECT tunnel (undici's ProxyAgent decides per target).
  return new EnvHttpProxyAgent({ httpProxy: p.http?.url ?? '', httpsProxy: p.https?.url ?? '', noProxy: p.noProxy, proxyTunnel: false });
}

/**
 * Tells `debug` which proxy each request goes through: each tunnel from undici's
 * `undici:proxy:connected` diagnostics channel, each forwarded request from `undici:request:create`
 * (a request made to the proxy's origin, its path the full URL: only the target's host and port are
 * shown, a query can hold a secret). Returns the function that stops telling.
 */
export function traceProxy(p: ProxySetting, debug: (line: string) => void): () => void {
  const proxies = [p.https, p.http].filter((x) => x !== undefined);
  const shown = (origin: string | undefined): string => {
    const via = proxies.find((x) => origin !== undefined && sameOrigin(x.url, origin));
    return via ? `${maskProxyUrl(via.url)} (${via.from})` : (origin ?? '?');
  };
  const connected = channel('undici:proxy:connected');
  const onConnected = (m: unknown): void => {
    const params = (m as { connectParams?: { origin?: string; path?: string } }).connectParams;
    debug(`  via proxy ${shown(params?.origin)}: CONNECT ${params?.path ?? '?'}`);
  };
  const created = channel('undici:request:create');
  const onCreated = (m: unknown): void => {
    const r = (m as { request?: { origin?: unknown; path?: unknown; method?: unknown } }).request;
    const origin = typeof r?.origin === 'string' ? r.origin : String(r?.origin ?? '');
    if (typeof r?.path !== 'string' || !/^https?:\/\//.test(r.path) || !proxies.some((x) => sameOrigin(x.url, origin))) return;
    let host: string;
    try {
      host = new URL(r.path).host;
    } catch {
      return;
    }
    debug(`  via proxy ${shown(origin)}: forward ${typeof r.method === 'string' ? r.method : '?'} to ${host}`);
  };
  connected.subscribe(onConnected);
  created.subscribe(onCreated);
  return () => {
    connected.unsubscribe(onConnected);
    created.unsubscribe(onCreated);
  };
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/**
 * The error for a request that failed at the proxy, not at the service: the proxy refused the
 * connection, could not be reached, answered the CONNECT with an error, or answered 407 (it needs
 * credentials, or other ones) to a CONNECT or a forwarded request. Exit 12, naming the proxy with its password masked. Undefined when the
 * failure is not the proxy's (or NO_PROXY sent the request directly).
 */
export function proxyFailure(
  p: ProxySetting,
  url: URL,
  err: NodeJS.ErrnoException & { address?: string; port?: number },
  where: string,
): ProxyError | undefined {
  const proxy = proxyForScheme(p, url);
  if (!proxy) return undefined;
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
    // 407 is the status for it; tinyproxy, for one, answers a CONNECT without credentials with 401.
    const auth = status === '407' || status === '401';
    return new ProxyError(
      auth ? `The proxy ${shown} asks for credentials (HTTP 407) ${where}.` : `The proxy ${shown} refused to connect to ${url.host} (HTTP ${status}) ${where}.`,
      auth
        ? `Put the user and password in the proxy URL (http://user:password@host:port), or check them.`
        : `Check the proxy's rules, or add ${url.hostname} to NO_PROXY to reach it directly.`,
      `PROXY_${status}`,
    );
  }
  const proxyPort = Number(proxyUrl.port || (proxyUrl.protocol === 'https:' ? 443 : 80));
  const atProxy = err.port === proxyPort && (err.address === undefined || hostMatches(proxyUrl.hostname, err.address));
  if (atProxy || (err.code === 'ENOTFOUND' && (err as { hostname?: string }).hostname === proxyUrl.hostname)) {
    const why = err.code === 'ECONNREFUSED' ? 'refused the connection' : `could not be reached (${err.code ?? 'network error'})`;
    return new ProxyError(`The proxy ${shown} ${why} ${where}.`, `Check ${proxy.from}, or add ${url.hostname} to NO_PROXY to reach it directly.`, err.code);
  }
  return undefined;
}

function hostMatches(hostname: string, address: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h === address || (h === 'localhost' && (address === '127.0.0.1' || address === '::1'));
}
