// The wire under the API client: one HTTP exchange with Node's built-in fetch (the undici that Node
// carries, precompiled into the binary: nothing to load at start-up, docs/performance.md). It
// follows no redirect, decodes a Content-Encoding the server chose (gzip, deflate, br) and hands the
// body back as a Node stream. Timeouts: the caller's signal (the API client's ExchangeDeadline for
// JSON), or, for downloads, --timeout until the headers and then as an idle timeout on the body.

import { Readable } from 'node:stream';
import { type ReadableStream as WebReadableStream, TransformStream } from 'node:stream/web';

/** An answer whose headers are in and whose body is not read yet. */
export interface WireResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export interface WireRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  /**
   * For downloads: --timeout until the headers arrive, then the longest silence of the body
   * (codes UND_ERR_HEADERS_TIMEOUT and UND_ERR_BODY_TIMEOUT, as undici's own timeouts have).
   */
  idleTimeoutMs?: number;
  /** An undici dispatcher (a proxy agent, a test's Agent); default: Node's global one. */
  dispatcher?: unknown;
}

/** An error with an errno-like code, the shape the client's error wording reads. */
export function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * fetch wraps what went wrong in `TypeError: fetch failed` (before the answer) or `terminated`
 * (during the body), with the socket's, TLS's, the HTTP parser's or a proxy agent's error as
 * `cause`, sometimes two levels down: the innermost error with a code is the one to word
 * (src/api/network.ts), else the innermost one.
 */
export function unwrapFetchError(err: unknown): unknown {
  let found: unknown;
  let e = err as { cause?: unknown; code?: unknown } | undefined;
  for (let depth = 0; depth < 5 && e; depth++) {
    if (typeof e.code === 'string') found = e;
    if (e.cause === undefined || typeof e.cause !== 'object') return found ?? e;
    e = e.cause as typeof e;
  }
  return found ?? e ?? err;
}

/** One exchange: resolves once the answer's headers are in, rejects with the unwrapped cause of a failure. */
export async function exchange(r: WireRequest): Promise<WireResponse> {
  const idle = r.idleTimeoutMs;
  const stop = idle === undefined ? undefined : new AbortController();
  const signal = stop ? (r.signal ? AbortSignal.any([r.signal, stop.signal]) : stop.signal) : r.signal;
  const headersTimer = stop && setTimeout(() => stop.abort(codedError('headers timeout', 'UND_ERR_HEADERS_TIMEOUT')), idle);
  let res: Response;
  try {
    const init: RequestInit = { method: r.method, headers: r.headers, body: r.body, redirect: 'manual', signal };
    // Node's fetch takes an undici dispatcher as a non-standard init member.
    if (r.dispatcher !== undefined) Object.assign(init, { dispatcher: r.dispatcher });
    res = await fetch(r.url, init);
  } catch (err) {
    const cause = unwrapFetchError(err) as Error & { code?: unknown };
    // The fetch standard blocks some ports (1, 25, 6000, 10080, …) for HTTP, before any connection.
    if (cause?.message === 'bad port' && cause.code === undefined) throw codedError(`port ${r.url.port} is blocked by fetch`, 'FETCH_BAD_PORT');
    throw cause;
  } finally {
    clearTimeout(headersTimer);
  }
  const headers: WireResponse['headers'] = {};
  res.headers.forEach((value, name) => (headers[name] = value));
  const setCookie = res.headers.getSetCookie();
  if (setCookie.length > 1) headers['set-cookie'] = setCookie;
  let web = res.body as WebReadableStream<Uint8Array> | null;
  let idleTimer: NodeJS.Timeout | undefined;
  if (web && stop && idle !== undefined) {
    const arm = (): void => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => stop.abort(codedError('body timeout', 'UND_ERR_BODY_TIMEOUT')), idle);
    };
    arm();
    web = web.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          arm();
          controller.enqueue(chunk);
        },
        flush: () => clearTimeout(idleTimer),
      }),
    );
  }
  const body = web ? Readable.fromWeb(web) : Readable.from([]);
  // A body failure is worded like a failure before the answer: its cause, not "terminated".
  const destroy = body.destroy.bind(body);
  body.destroy = (error?: Error) => destroy(error === undefined ? undefined : (unwrapFetchError(error) as Error));
  body.once('close', () => clearTimeout(idleTimer));
  return { statusCode: res.status, headers, body };
}

/** Closes an answer's body unread: its connection is dropped (it may be large, or held open by the server). */
export function discardBody(body: Readable, reason?: unknown): void {
  body.on('error', () => undefined).destroy(reason as Error | undefined);
}
