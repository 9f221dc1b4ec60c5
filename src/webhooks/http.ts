import http from 'node:http';
import https from 'node:https';
import { describeConnectionFailure, failureCode, formatSeconds } from '../api/network.js';
import { type ProxySetting, proxyAgent, proxyAnswerFailure, proxyRequestFailure } from '../api/proxy.js';
import { ProxyError } from '../api/errors.js';
import { codedError, discardBody, exchange } from '../api/transport.js';

export interface PostResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The answer's body, at most `maxAnswerBytes`. */
  body: Buffer;
  /** The answer went on past `maxAnswerBytes`: `body` is its beginning, and the rest was never read. */
  truncated: boolean;
}

/**
 * The most postRaw reads of a receiver's answer. A receiver answers a delivery with a status and at
 * most a short acknowledgement (the service records only the status, and the body of a failure);
 * 1 MiB is far beyond any such answer and small enough to show, keep or relay whole. Past it the
 * connection is closed: an endless or huge answer must not fill formctl's memory (docs/security.md).
 */
export const WEBHOOK_ANSWER_LIMIT = 1024 * 1024;

export interface PostOptions {
  headers: Record<string, string>;
  body: Buffer;
  /**
   * The whole exchange (connect, send, the answer's headers and body), as the service bounds a
   * delivery: `Http::timeout(5)` (OpnForm api/app/Integrations/Handlers/WebhookIntegration.php:140-145),
   * Guzzle's total `timeout`, which curl applies to the whole transfer (docs/webhooks-and-members.md).
   */
  timeoutMs: number;
  signal?: AbortSignal;
  method?: string;
  proxy?: ProxySetting;
  /** Default WEBHOOK_ANSWER_LIMIT; tests set it low. */
  maxAnswerBytes?: number;
}

/** The timeout's error, the same words on both paths: describeFailure keeps them. */
function noAnswer(url: URL, ms: number): Error {
  return codedError(`No answer from ${url.host} within ${formatSeconds(ms)}`, 'ETIMEDOUT');
}

/** Collects chunks up to `limit` bytes; `add` answers false once a chunk went past it (that chunk is cut). */
class BoundedBody {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): boolean {
    const room = this.limit - this.size;
    if (chunk.length > room) {
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.size = this.limit;
      this.truncated = true;
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

/**
 * POSTs raw bytes exactly as given, without following redirects (like the service's deliveries) and
 * without keep-alive, so a one-shot CLI exits as soon as the answer is in. `timeoutMs` bounds the
 * whole exchange, as the service's HTTP client does for a delivery: http.request's own `timeout` is
 * an idle timeout, which a receiver trickling a byte a second would never trigger. At most
 * `maxAnswerBytes` of the answer are read; past them the connection is closed and the result says
 * `truncated`, with the status and the beginning of the body.
 */
export function postRaw(url: URL, o: PostOptions): Promise<PostResult> {
  if (o.proxy) return postThroughProxy(url, { ...o, proxy: o.proxy });
  const limit = o.maxAnswerBytes ?? WEBHOOK_ANSWER_LIMIT;
  return new Promise((resolve, reject) => {
    // The outcome is decided once, then delivered when the request's socket has closed: the
    // command ends with nothing of this exchange left open (a socket still closing would be).
    let outcome: (() => void) | undefined;
    let closed = false;
    const settle = (fn: () => void, err?: Error): void => {
      if (outcome) return;
      outcome = fn;
      clearTimeout(timer);
      // Nothing more is read or sent: no keep-alive to keep the socket for.
      req.destroy(err);
      if (closed) fn();
    };
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(
      url,
      { method: o.method ?? 'POST', headers: { ...o.headers, 'content-length': String(o.body.length) }, agent: false, signal: o.signal },
      (res) => {
        const body = new BoundedBody(limit);
        const result = (): PostResult => ({ status: res.statusCode ?? 0, headers: res.headers, body: body.bytes(), truncated: body.truncated });
        res.on('data', (c: Buffer) => {
          if (!outcome && !body.add(c)) settle(() => resolve(result()));
        });
        res.on('error', (err) => settle(() => reject(err)));
        res.on('end', () => settle(() => resolve(result())));
        // The connection closed before the answer was complete, without an error event.
        res.on('close', () => settle(() => reject(codedError('The connection closed before the answer was complete', 'ECONNRESET'))));
      },
    );
    const timer = setTimeout(() => {
      const err = noAnswer(url, o.timeoutMs);
      settle(() => reject(err), err);
    }, o.timeoutMs);
    req.on('error', (err) => settle(() => reject(err)));
    req.on('close', () => {
      closed = true;
      outcome?.();
    });
    req.end(o.body);
  });
}

/**
 * postRaw through the proxies from the environment (src/api/proxy.ts): the same exchange as the API
 * client's, with undici's EnvHttpProxyAgent (NO_PROXY may still send it direct). A failure at the
 * proxy is its ProxyError (exit 12). The timer bounds the whole exchange, the body's reading included.
 */
async function postThroughProxy(url: URL, o: PostOptions & { proxy: ProxySetting }): Promise<PostResult> {
  const agent = await proxyAgent(o.proxy, { connectTimeoutMs: o.timeoutMs });
  const where = `(${o.method ?? 'POST'} ${url.origin}${url.pathname})`;
  const timer = new AbortController();
  const t = setTimeout(() => timer.abort(noAnswer(url, o.timeoutMs)), o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timer.signal]) : timer.signal;
  try {
    const res = await exchange({ url, method: o.method ?? 'POST', headers: o.headers, body: o.body, signal, dispatcher: agent });
    // tinyproxy's 401 to wrong credentials is the proxy's answer, not the receiver's.
    const byProxy = proxyAnswerFailure(o.proxy, agent, url, res.statusCode, res.headers, where);
    if (byProxy) {
      discardBody(res.body);
      throw byProxy;
    }
    const body = new BoundedBody(o.maxAnswerBytes ?? WEBHOOK_ANSWER_LIMIT);
    for await (const c of res.body) {
      if (!body.add(c as Buffer)) {
        // Read no more; agent.shutdown() below drops the connection.
        discardBody(res.body);
        break;
      }
    }
    return { status: res.statusCode, headers: res.headers as http.IncomingHttpHeaders, body: body.bytes(), truncated: body.truncated };
  } catch (err) {
    if (err instanceof ProxyError) throw err;
    // The timer ran out (or the wire's) before the connection to the proxy was made: the proxy's.
    const expired = timer.signal.aborted && !o.signal?.aborted;
    throw proxyRequestFailure(o.proxy, agent, url, err as NodeJS.ErrnoException, { expired, secs: formatSeconds(o.timeoutMs), where }) ?? err;
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
