// The wire under the API client: one HTTP exchange. Direct requests go through Node's own
// node:http/node:https client, which Node has loaded at start-up anyway; a request through a
// dispatcher (a proxy agent from src/api/proxy.ts, a test's undici Agent) goes through Node's
// built-in fetch, the undici Node carries. Why two: a first fetch costs a one-request command
// 2-4x the CPU of a node:http GET (Node compiles its undici, http2 and a WebAssembly parser on
// the first call), and on Node 20 the process then waits for V8's background compile of that
// parser before it can exit (docs/performance.md). Both follow no redirect, decode a
// Content-Encoding the server chose (gzip, deflate, br) and hand the body back as a Node stream.
// Timeouts: the caller's signal (the API client's ExchangeDeadline for JSON), or, for downloads,
// --timeout until the headers and then as an idle timeout on the body.

import http from 'node:http';
import https from 'node:https';
import { Readable, Transform, type TransformCallback, pipeline } from 'node:stream';
import zlib from 'node:zlib';
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
export function exchange(r: WireRequest): Promise<WireResponse> {
  return r.dispatcher === undefined ? nodeExchange(r) : fetchExchange(r);
}

/**
 * `deflate` in either form servers send it: zlib-wrapped, as the RFC says, or raw (as some servers
 * do); the first byte tells (a zlib header's low four bits are 8, for deflate), as fetch tells them.
 */
class Inflate extends Transform {
  private z?: zlib.Inflate | zlib.InflateRaw;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (!this.z) {
      this.z = (chunk[0]! & 0x0f) === 8 ? zlib.createInflate() : zlib.createInflateRaw();
      this.z.on('data', (d: Buffer) => this.push(d)).on('error', (e) => this.destroy(e));
    }
    this.z.write(chunk, () => done());
  }

  override _flush(done: TransformCallback): void {
    if (!this.z) return done();
    this.z.once('end', () => done()).end();
  }

  override _destroy(err: Error | null, done: (error: Error | null) => void): void {
    this.z?.destroy();
    done(err);
  }
}

/** The body decoders for a Content-Encoding (the last coding listed is undone first); undefined for a coding it cannot undo. */
function decoders(encoding: string | undefined): NodeJS.ReadWriteStream[] | undefined {
  const out: NodeJS.ReadWriteStream[] = [];
  for (const coding of (encoding ?? '').toLowerCase().split(',').reverse()) {
    const c = coding.trim();
    if (c === 'gzip' || c === 'x-gzip') out.push(zlib.createGunzip());
    else if (c === 'deflate') out.push(new Inflate());
    else if (c === 'br') out.push(zlib.createBrotliDecompress());
    else if (c !== 'identity' && c !== '') return undefined;
  }
  return out;
}

/** The request's headers for node:http: names lower-cased (one of each), compression offered, the body's length given. */
function wireHeaders(r: WireRequest): Record<string, string> {
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
  for (const [name, value] of Object.entries(r.headers)) headers[name.toLowerCase()] = value;
  if (r.body !== undefined) headers['content-length'] = String(Buffer.byteLength(r.body));
  else if (r.method !== 'GET' && r.method !== 'HEAD') headers['content-length'] = '0';
  return headers;
}

/**
 * One exchange through node:http or node:https (the build loads a built-in on its first use). Keep-alive
 * sockets stay in Node's global agent, unreferenced while idle, so they hold no process open. As
 * with fetch: an abort of the signal rejects, or fails the body, with the signal's reason; a coding
 * it cannot undo leaves the body as sent.
 */
function nodeExchange(r: WireRequest): Promise<WireResponse> {
  const mod = r.url.protocol === 'https:' ? https : http;
  const signal = r.signal;
  const reason = (err: unknown): Error => (signal?.aborted ? signal.reason : err) as Error;
  const headers = wireHeaders(r);
  return new Promise((resolve, reject) => {
    let body: Readable | undefined;
    // Throws at once for a header name or value that is not valid HTTP: nothing is sent.
    const req = mod.request(r.url, { method: r.method, headers, signal });
    if (r.idleTimeoutMs !== undefined) {
      // The socket's own idle timeout: no byte either way for that long, before or after the headers.
      req.setTimeout(r.idleTimeoutMs, () => {
        if (body) body.destroy(codedError('body timeout', 'UND_ERR_BODY_TIMEOUT'));
        else req.destroy(codedError('headers timeout', 'UND_ERR_HEADERS_TIMEOUT'));
      });
    }
    req.once('error', (err) => reject(reason(err)));
    req.once('response', (res) => {
      const steps = r.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304 ? [] : decoders(res.headers['content-encoding']);
      const out: Readable = steps?.length
        ? (pipeline([res, ...steps] as unknown as [Readable, NodeJS.ReadWriteStream], () => undefined) as unknown as Readable)
        : res;
      // A failure of the answer's socket (or an abort) reaches the body (through the decoders, pipeline
      // passes it on), worded as the signal's reason when it was aborted.
      const destroy = out.destroy.bind(out);
      out.destroy = (error?: Error) => destroy(error === undefined ? undefined : reason(error));
      // Until the caller reads it, an error only destroys the body; reading it then throws that error.
      out.on('error', () => undefined);
      body = out;
      resolve({ statusCode: res.statusCode ?? 0, headers: { ...res.headers }, body: out });
    });
    req.end(r.body);
  });
}

/**
 * The URL fetch may take, and the headers: fetch refuses a URL with credentials (`user:password@`),
 * which node:http sends as Basic authorization unless an Authorization header is given; so does
 * this, so that a URL behaves the same with or without a proxy (a webhook receiver's URL may hold
 * credentials). fetch's error would also quote the URL, password included.
 */
function withoutCredentials(r: WireRequest): { url: URL; headers: Record<string, string> } {
  if (r.url.username === '' && r.url.password === '') return { url: r.url, headers: r.headers };
  const url = new URL(r.url);
  const auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  const given = Object.keys(r.headers).some((name) => name.toLowerCase() === 'authorization');
  return { url, headers: given ? r.headers : { ...r.headers, authorization: `Basic ${Buffer.from(auth).toString('base64')}` } };
}

/** One exchange through Node's fetch with a dispatcher. */
async function fetchExchange(r: WireRequest): Promise<WireResponse> {
  const idle = r.idleTimeoutMs;
  const stop = idle === undefined ? undefined : new AbortController();
  const signal = stop ? (r.signal ? AbortSignal.any([r.signal, stop.signal]) : stop.signal) : r.signal;
  const headersTimer = stop && setTimeout(() => stop.abort(codedError('headers timeout', 'UND_ERR_HEADERS_TIMEOUT')), idle);
  let res: Response;
  try {
    const { url, headers } = withoutCredentials(r);
    // Node's fetch takes an undici dispatcher as a non-standard init member.
    const init = { method: r.method, headers, body: r.body, redirect: 'manual', signal, dispatcher: r.dispatcher } as RequestInit;
    res = await fetch(url, init);
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
