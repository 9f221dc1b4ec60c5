// Proxies from the environment, as curl, npm and gh read them: http_proxy/HTTP_PROXY for http://
// services, https_proxy/HTTPS_PROXY for https:// ones (else the http proxy, as undici and npm do),
// no_proxy/NO_PROXY for the hosts to reach directly (host suffixes, host:port, `*`). The work is
// undici's EnvHttpProxyAgent, loaded only when one of these variables is set (docs/performance.md).
// Every request goes to the proxy as a CONNECT tunnel, so a token for an https:// service is only
// ever sent inside TLS, end to end with the service.

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
  return new EnvHttpProxyAgent({ httpProxy: p.http?.url ?? '', httpsProxy: p.https?.url ?? '', noProxy: p.noProxy });
}

/**
 * Tells `debug` which proxy each tunnel goes through, from undici's `undici:proxy:connected`
 * diagnostics channel; returns the function that stops telling.
 */
export function traceProxy(p: ProxySetting, debug: (line: string) => void): () => void {
  const ch = channel('undici:proxy:connected');
  const onMessage = (m: unknown): void => {
    const params = (m as { connectParams?: { origin?: string; path?: string } }).connectParams;
    const via = [p.https, p.http].find((x) => x && params?.origin !== undefined && sameOrigin(x.url, params.origin));
    debug(`  via proxy ${via ? `${maskProxyUrl(via.url)} (${via.from})` : (params?.origin ?? '?')}: CONNECT ${params?.path ?? '?'}`);
  };
  ch.subscribe(onMessage);
  return () => ch.unsubscribe(onMessage);
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
 * connection, could not be reached, or answered the CONNECT with an error such as 407 (it needs
 * credentials, or other ones). Exit 12, naming the proxy with its password masked. Undefined when the
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
  const status = /^Proxy response \((\d+)\)/.exec(err.message ?? '')?.[1];
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
