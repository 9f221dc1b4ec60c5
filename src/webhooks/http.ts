import http from 'node:http';
import https from 'node:https';
import { describeConnectionFailure, failureCode, formatSeconds } from '../api/network.js';
import { type ProxySetting, proxyAgent, proxyAnswerFailure, proxyFailure } from '../api/proxy.js';
import { ProxyError } from '../api/errors.js';
import { codedError, discardBody, exchange } from '../api/transport.js';

export interface PostResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * POSTs raw bytes exactly as given, without following redirects (like the service's deliveries) and
 * without keep-alive, so a one-shot CLI exits as soon as the answer is in.
 */
export function postRaw(
  url: URL,
  o: { headers: Record<string, string>; body: Buffer; timeoutMs: number; signal?: AbortSignal; method?: string; proxy?: ProxySetting },
): Promise<PostResult> {
  if (o.proxy) return postThroughProxy(url, { ...o, proxy: o.proxy });
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(
      url,
      { method: o.method ?? 'POST', headers: { ...o.headers, 'content-length': String(o.body.length) }, agent: false, signal: o.signal, timeout: o.timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error(`No answer from ${url.host} within ${formatSeconds(o.timeoutMs)}`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(o.body);
  });
}

/**
 * postRaw through the proxies from the environment (src/api/proxy.ts): the same exchange as the API
 * client's, with undici's EnvHttpProxyAgent (NO_PROXY may still send it direct). A failure at the
 * proxy is its ProxyError (exit 12).
 */
async function postThroughProxy(
  url: URL,
  o: { headers: Record<string, string>; body: Buffer; timeoutMs: number; signal?: AbortSignal; method?: string; proxy: ProxySetting },
): Promise<PostResult> {
  const agent = await proxyAgent(o.proxy);
  const where = `(${o.method ?? 'POST'} ${url.origin}${url.pathname})`;
  const timer = new AbortController();
  const t = setTimeout(() => timer.abort(codedError(`No answer from ${url.host} within ${formatSeconds(o.timeoutMs)}`, 'ETIMEDOUT')), o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timer.signal]) : timer.signal;
  try {
    const res = await exchange({ url, method: o.method ?? 'POST', headers: o.headers, body: o.body, signal, dispatcher: agent });
    // tinyproxy's 401 to wrong credentials is the proxy's answer, not the receiver's.
    const byProxy = proxyAnswerFailure(o.proxy, agent, url, res.statusCode, res.headers, where);
    if (byProxy) {
      discardBody(res.body);
      throw byProxy;
    }
    const chunks: Buffer[] = [];
    for await (const c of res.body) chunks.push(c as Buffer);
    return { status: res.statusCode, headers: res.headers as http.IncomingHttpHeaders, body: Buffer.concat(chunks) };
  } catch (err) {
    if (err instanceof ProxyError) throw err;
    throw proxyFailure(o.proxy, url, err as NodeJS.ErrnoException, where) ?? err;
  } finally {
    clearTimeout(t);
    // At once: a CONNECT the proxy never answered would hold close() (ProxyDispatcher.shutdown).
    await agent.shutdown();
  }
}

/**
 * Why a POST to `url` failed, in the API client's words for the same errno codes ("Connection
 * refused by 127.0.0.1:9"), without a trailing period; `code` keeps the errno for scripts.
 */
export function describeFailure(err: unknown, url: URL): { reason: string; code?: string } {
  const e = err as Error;
  const code = failureCode(err);
  // postRaw's own timeout says how long it waited; a connect timeout from the OS does not.
  if (code === 'ETIMEDOUT') return { reason: /^No answer/.test(e.message) ? e.message : `No answer from ${url.host}`, code };
  return { reason: describeConnectionFailure(code, e.message, url), code };
}
