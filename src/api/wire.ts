import { type Socket, connect as netConnect, isIP } from 'node:net';

/**
 * One HTTP/1.1 exchange on a connection of its own, for large response bodies (CSV exports).
 *
 * Why not undici here: undici, like node:http, is handed a fresh 64 KiB buffer by Node for every
 * socket read, so a 256 MiB export allocates 256 MiB of short-lived memory. On the shared VMs each
 * new page is faulted in from the host (15–30k faults per 256 MiB), and reading the socket alone
 * took 150–300 ms where curl needs 60. With `onread`, Node reads into one buffer of ours for the
 * whole response: ~3k faults, 80–120 ms (docs/performance.md, "Export streaming"). The body is
 * handed on as views of that buffer, and reading resumes only once the sink has taken them.
 *
 * Returning false from `onread` stops a TCP socket at once, but a TLS socket still hands over the
 * records it has already decrypted, into the same buffer. So whenever the exchange pauses, the
 * views it keeps are copied out first, and data that arrives while paused is queued as copies.
 *
 * Deliberately small: `connection: close` (no pooling), no redirects (the client refuses them),
 * no content codings (we send no accept-encoding; bytes are kept as sent), no HTTP/2. Auth,
 * retries, errors and logging stay in ApiClient; this only moves bytes. Timeout and socket error
 * codes are undici's, so both transports fail with the same words.
 */

/** Read size: larger reads mean fewer trips through JavaScript per megabyte. */
const READ_BUFFER_BYTES = 1 << 20;
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 8 * 1024;
/** For `text()`: JSON answers and error bodies. A larger one is not what this API sends. */
const MAX_TEXT_BYTES = 4 << 20;
const EMPTY = Buffer.alloc(0);
const HEAD_END = Buffer.from('\r\n\r\n');
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Where a body goes. `bytes` stay valid only during `write`: a sink copies what it keeps. */
export interface BodySink {
  /** Takes what it can of `bytes` and says how many it took. */
  write(bytes: Buffer): number;
  /** undefined while the sink can take more; otherwise settles when it can (rejects when it failed). */
  ready(): Promise<void> | undefined;
}

export interface WireBody {
  /** Feeds the whole body to `sink`, reading the socket only as fast as the sink takes bytes. */
  pipeTo(sink: BodySink, signal?: AbortSignal): Promise<void>;
  text(): Promise<string>;
  json(): Promise<unknown>;
  /** Discards the body and closes the connection. */
  dump(): Promise<void>;
  /**
   * The body has neither a length nor chunked framing: it ends when the connection does, so a
   * connection cut short, or even reset (libuv reports a reset after data as an end; node:http is
   * fooled alike), looks the same as a complete body, to any client.
   */
  readonly untilClose: boolean;
}

export interface WireResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: WireBody;
}

export interface WireRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Each of: connecting, waiting for the headers, and a silence while reading the body. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Trusted CA instead of the default store (tests with their own certificate). */
  ca?: string | Buffer;
  /** Tests set it tiny to split a response at every byte. */
  readBufferBytes?: number;
}

/** Sends one request and resolves when the response headers have arrived; the body waits, unread, for its consumer. */
export function wireRequest(r: WireRequest): Promise<WireResponse> {
  return new Exchange(r).start();
}

function wireError(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

function abortError(): Error {
  return Object.assign(new Error('The operation was aborted.'), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** A response that does not follow HTTP/1.1: the same family of failure as a dropped connection. */
function malformed(what: string): NodeJS.ErrnoException {
  return wireError(`The server sent a malformed HTTP response (${what}).`, 'ERR_BAD_HTTP_RESPONSE');
}

type Phase = 'connect' | 'head' | 'held' | 'body' | 'done';

class Exchange {
  private socket?: Socket;
  private phase: Phase = 'connect';
  private timer?: NodeJS.Timeout;
  private head: Buffer = EMPTY;
  /** Read and not yet decoded: a view of the read buffer while reading is stopped, or a copy. */
  private input: Buffer = EMPTY;
  /** Decoded body bytes the sink has not taken yet. */
  private piece: Buffer = EMPTY;
  /** Data that arrived while paused (TLS), copied, in order, before `input` is read again. */
  private queue: Buffer[] = [];
  /** Reading is stopped: waiting for the sink, or for the caller to take the body. */
  private paused = false;
  /** The server ended the stream (FIN); what is queued is all there is. */
  private ended = false;
  private decoder!: BodyDecoder;
  private sink?: BodySink;
  private failure?: Error;
  private headWaiter?: { resolve: (r: WireResponse) => void; reject: (e: Error) => void };
  private bodyWaiter?: { resolve: () => void; reject: (e: Error) => void };
  private readonly onAbort = (): void => this.fail(abortError());
  private pipeSignal?: AbortSignal;

  constructor(private readonly r: WireRequest) {}

  start(): Promise<WireResponse> {
    return new Promise<WireResponse>((resolve, reject) => {
      this.headWaiter = { resolve, reject };
      if (this.r.signal?.aborted) return this.fail(abortError());
      this.r.signal?.addEventListener('abort', this.onAbort, { once: true });
      let request: Buffer;
      try {
        request = requestBytes(this.r);
      } catch (err) {
        return this.fail(err as Error);
      }
      this.connect(request).catch((err: Error) => this.fail(err));
    });
  }

  private async connect(request: Buffer): Promise<void> {
    const { url } = this.r;
    const buffer = Buffer.allocUnsafeSlow(this.r.readBufferBytes ?? READ_BUFFER_BYTES);
    const onread = { buffer, callback: (n: number) => this.onRead(buffer.subarray(0, n)) };
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const https = url.protocol === 'https:';
    this.arm('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error');
    let socket: Socket;
    if (https) {
      // Loaded only for https: the sandbox and the tests speak plain http on loopback.
      const tls = await import('node:tls');
      if (this.failure) return;
      // `onread` is documented for tls.connect (when it makes the socket) but missing from @types/node.
      const options: import('node:tls').ConnectionOptions & { onread: typeof onread } = {
        host,
        port: Number(url.port || 443),
        servername: isIP(host) ? undefined : host,
        ALPNProtocols: ['http/1.1'],
        ...(this.r.ca ? { ca: this.r.ca } : {}),
        onread,
      };
      socket = tls.connect(options);
    } else {
      socket = netConnect({ host, port: Number(url.port || 80), onread });
    }
    this.socket = socket;
    socket.on('error', (err) => this.fail(err));
    // The end of the stream is reported only in flowing mode; with `onread` no data goes through it.
    socket.on('end', () => this.onEnd());
    // A close after the end is the end's business (queued data may still be delivered); before it, a cut.
    socket.on('close', () => {
      if (!this.ended) this.fail(wireError('other side closed', 'UND_ERR_SOCKET'));
    });
    socket.resume();
    socket.once(https ? 'secureConnect' : 'connect', () => {
      if (this.failure) return;
      this.phase = 'head';
      this.arm('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error');
      socket.write(request);
    });
  }

  /** Called by Node for every read into our buffer; false stops reading until `resume()`. */
  private onRead(data: Buffer): boolean {
    if (this.failure || this.phase === 'done') return false;
    // TLS delivers already-decrypted records after a pause: keep a copy, in order.
    if (this.paused) {
      if (data.length > 0) this.queue.push(Buffer.from(data));
      return false;
    }
    try {
      if (this.phase === 'body') {
        this.timer?.refresh();
        this.input = data;
        return this.pump();
      }
      return this.onHeadBytes(data);
    } catch (err) {
      this.fail(err as Error);
      return false;
    }
  }

  /** Collects the head; skips 1xx answers; on the final one, holds the rest of the read for the body's consumer. */
  private onHeadBytes(data: Buffer): boolean {
    let all = this.head.length > 0 ? Buffer.concat([this.head, data]) : data;
    for (;;) {
      const end = all.indexOf(HEAD_END);
      if (end < 0 || end > MAX_HEAD_BYTES) {
        if (all.length > MAX_HEAD_BYTES) throw malformed('headers larger than 64 KiB');
        this.head = Buffer.from(all);
        return true;
      }
      const parsed = parseHead(all.subarray(0, end).toString('latin1'));
      if (parsed.statusCode === 101) throw malformed('an unexpected protocol switch');
      all = all.subarray(end + HEAD_END.length);
      // 1xx answers (100 Continue, 103 Early Hints) come before the real one.
      if (parsed.statusCode < 200) continue;
      this.head = EMPTY;
      this.decoder = decoderFor(this.r.method, parsed.statusCode, parsed.headers);
      // Copied: the read buffer is reused once reading resumes, and the caller decides at leisure.
      this.input = Buffer.from(all);
      this.phase = 'held';
      this.paused = true;
      this.disarm();
      // An unconsumed body must not keep the process alive.
      this.socket?.unref();
      const headWaiter = this.headWaiter;
      this.headWaiter = undefined;
      headWaiter?.resolve({ statusCode: parsed.statusCode, headers: parsed.headers, body: this.bodyApi() });
      return false;
    }
  }

  private bodyApi(): WireBody {
    const pipeTo = (sink: BodySink, signal?: AbortSignal): Promise<void> => this.pipeTo(sink, signal);
    const text = async (): Promise<string> => {
      const parts: Buffer[] = [];
      let size = 0;
      await pipeTo({
        write: (b) => {
          size += b.length;
          if (size > MAX_TEXT_BYTES) throw malformed('an answer larger than 4 MiB where a short one was expected');
          parts.push(Buffer.from(b));
          return b.length;
        },
        ready: () => undefined,
      });
      return Buffer.concat(parts).toString('utf8');
    };
    return {
      untilClose: this.decoder.untilClose,
      pipeTo,
      text,
      json: async () => JSON.parse(await text()) as unknown,
      dump: async () => {
        if (this.phase !== 'held') return;
        this.phase = 'done';
        this.cleanup();
      },
    };
  }

  private pipeTo(sink: BodySink, signal?: AbortSignal): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.phase !== 'held') return Promise.reject(new Error('The response body was already read.'));
    if (signal?.aborted) {
      this.fail(abortError());
      return Promise.reject(this.failure);
    }
    this.phase = 'body';
    this.sink = sink;
    this.pipeSignal = signal;
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.socket?.ref();
    return new Promise<void>((resolve, reject) => {
      this.bodyWaiter = { resolve, reject };
      this.proceed();
    });
  }

  /** Delivers what is pending (held input, queued data); reads on when all of it was taken. */
  private proceed(): void {
    if (this.failure || this.phase !== 'body') return;
    this.paused = false;
    if (!this.pump()) return;
    this.arm('UND_ERR_BODY_TIMEOUT', 'Body Timeout Error');
    this.socket?.resume();
  }

  /**
   * Decodes `input` (then the queue) into body pieces and hands them to the sink. True: all taken,
   * read more. False: finished, failed, or the sink is full; then reading is paused and what is kept
   * is copied out of the read buffer, which TLS may still write into.
   */
  private pump(): boolean {
    const sink = this.sink!;
    try {
      for (;;) {
        if (this.piece.length > 0) this.piece = this.piece.subarray(sink.write(this.piece));
        const wait = sink.ready();
        if (wait) {
          this.pause();
          wait.then(() => this.proceed(), (err: Error) => this.fail(err));
          return false;
        }
        if (this.piece.length > 0) throw new Error('The body sink took less than offered without asking to wait.');
        if (this.decoder.done) {
          this.finish();
          return false;
        }
        if (this.input.length === 0) {
          const next = this.queue.shift();
          if (next) {
            this.input = next;
            continue;
          }
          if (!this.ended) return true;
          // The server ended the stream and everything it sent was decoded.
          if (!this.decoder.untilClose) throw wireError('other side closed', 'UND_ERR_SOCKET');
          this.decoder.close();
          continue;
        }
        const step = this.decoder.step(this.input);
        this.input = this.input.subarray(step.used);
        this.piece = step.piece;
      }
    } catch (err) {
      this.fail(err as Error);
      return false;
    }
  }

  /**
   * Stops reading for the sink. On TLS the views kept now are copied out of the read buffer (records
   * already decrypted keep arriving into it; each is at most 16 KiB). On TCP, returning false stops
   * reading at once (readStop), so the views stay valid: no copy, which is what keeps a large export
   * from allocating per read.
   */
  private pause(): void {
    this.paused = true;
    this.disarm();
    if (this.r.url.protocol === 'https:') {
      this.input = Buffer.from(this.input);
      this.piece = Buffer.from(this.piece);
    }
  }

  private onEnd(): void {
    if (this.failure || this.phase === 'done') return;
    this.ended = true;
    // Before the headers: cut off. While the body waits for its consumer or the sink: its pump sees the end.
    if (this.phase === 'connect' || this.phase === 'head') this.fail(wireError('other side closed', 'UND_ERR_SOCKET'));
    else if (this.phase === 'body' && !this.paused) this.proceed();
  }

  private finish(): void {
    this.phase = 'done';
    this.cleanup();
    const waiter = this.bodyWaiter;
    this.bodyWaiter = undefined;
    waiter?.resolve();
  }

  private fail(err: Error): void {
    if (this.failure || this.phase === 'done') return;
    this.failure = err;
    this.cleanup();
    const head = this.headWaiter;
    const body = this.bodyWaiter;
    this.headWaiter = this.bodyWaiter = undefined;
    head?.reject(err);
    body?.reject(err);
  }

  private cleanup(): void {
    this.disarm();
    this.r.signal?.removeEventListener('abort', this.onAbort);
    this.pipeSignal?.removeEventListener('abort', this.onAbort);
    this.socket?.destroy();
  }

  private arm(code: string, message: string): void {
    this.disarm();
    this.timer = setTimeout(() => this.fail(wireError(message, code)), this.r.timeoutMs);
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** The request head and body as bytes; refuses header names and values that could split the request. */
function requestBytes(r: WireRequest): Buffer {
  const lines = [`${r.method} ${r.url.pathname}${r.url.search} HTTP/1.1`, `host: ${r.url.host}`];
  for (const [name, value] of Object.entries(r.headers)) {
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) throw new Error(`Invalid HTTP header ${JSON.stringify(name)}.`);
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'connection' || lower === 'content-length' || lower === 'transfer-encoding') continue;
    lines.push(`${name}: ${value}`);
  }
  const body = r.body === undefined ? undefined : Buffer.from(r.body);
  if (body !== undefined) lines.push(`content-length: ${body.length}`);
  lines.push('connection: close');
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}

/** Status line and header fields (names lower-cased; a repeated field becomes an array, as undici gives them). */
export function parseHead(text: string): { statusCode: number; headers: Record<string, string | string[]> } {
  const lines = text.split('\r\n');
  const status = /^HTTP\/1\.[01] ([1-9]\d\d)(?: .*)?$/.exec(lines[0] ?? '');
  if (!status) throw malformed(`status line ${JSON.stringify((lines[0] ?? '').slice(0, 40))}`);
  // No prototype: a header named __proto__ or constructor is just a header.
  const headers: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    if (colon <= 0 || !TOKEN.test(name)) throw malformed(`header line ${JSON.stringify(line.slice(0, 40))}`);
    const key = name.toLowerCase();
    const value = line.slice(colon + 1).trim();
    const prev = headers[key];
    headers[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return { statusCode: Number(status[1]), headers };
}

/** How the body is framed (RFC 9112 §6.3): none, a length, chunked, or until the connection closes. */
export function decoderFor(method: string, statusCode: number, headers: Record<string, string | string[] | undefined>): BodyDecoder {
  if (method === 'HEAD' || statusCode === 204 || statusCode === 304) return new BodyDecoder('length', 0);
  const te = headers['transfer-encoding'];
  if (te !== undefined) {
    const codings = [te].flat().join(',').split(',').map((c) => c.trim().toLowerCase());
    return codings.at(-1) === 'chunked' ? new BodyDecoder('chunked', 0) : new BodyDecoder('close', 0);
  }
  const cl = headers['content-length'];
  if (cl !== undefined) {
    const values = [...new Set([cl].flat().flatMap((v) => v.split(',')).map((v) => v.trim()))];
    if (values.length !== 1 || !/^\d{1,15}$/.test(values[0]!)) throw malformed(`content-length ${JSON.stringify([cl].flat().join(', ').slice(0, 40))}`);
    return new BodyDecoder('length', Number(values[0]));
  }
  return new BodyDecoder('close', 0);
}

type ChunkState = 'size' | 'data' | 'data-cr' | 'data-lf' | 'trailer' | 'done';

/** Turns framed bytes into body bytes, a step at a time, across reads split anywhere. */
export class BodyDecoder {
  private state: ChunkState = 'size';
  private line = '';

  constructor(
    private readonly mode: 'length' | 'chunked' | 'close',
    /** Bytes left: of the body ('length') or of the current chunk ('chunked'). */
    private left: number,
  ) {}

  get done(): boolean {
    return this.mode === 'chunked' ? this.state === 'done' : this.mode === 'length' ? this.left === 0 : this.closed;
  }

  get untilClose(): boolean {
    return this.mode === 'close';
  }

  private closed = false;

  /** The connection closed: the end of a body framed by it. */
  close(): void {
    this.closed = true;
  }

  /** Consumes some of `input`: `used` bytes of it, of which `piece` is body. */
  step(input: Buffer): { piece: Buffer; used: number } {
    if (this.mode === 'close') return { piece: input, used: input.length };
    if (this.mode === 'length') {
      const n = Math.min(this.left, input.length);
      this.left -= n;
      // Bytes after the declared length are not part of the body (the connection is closed anyway).
      return { piece: input.subarray(0, n), used: this.left === 0 ? input.length : n };
    }
    switch (this.state) {
      case 'data': {
        const n = Math.min(this.left, input.length);
        this.left -= n;
        if (this.left === 0) this.state = 'data-cr';
        return { piece: input.subarray(0, n), used: n };
      }
      case 'data-cr':
      case 'data-lf': {
        const byte = input[0];
        if (this.state === 'data-cr' && byte === 0x0d) this.state = 'data-lf';
        else if (byte === 0x0a) this.state = 'size';
        else throw malformed('a chunk not ended by CRLF');
        return { piece: EMPTY, used: 1 };
      }
      case 'size':
      case 'trailer': {
        const lf = input.indexOf(0x0a);
        const upto = lf < 0 ? input.length : lf + 1;
        this.line += input.toString('latin1', 0, lf < 0 ? input.length : lf);
        if (this.line.length > MAX_LINE_BYTES) throw malformed('a chunk line longer than 8 KiB');
        if (lf >= 0) this.endLine(this.line.replace(/\r$/, ''));
        return { piece: EMPTY, used: upto };
      }
      default:
        return { piece: EMPTY, used: input.length };
    }
  }

  private endLine(line: string): void {
    this.line = '';
    if (this.state === 'trailer') {
      if (line === '') this.state = 'done';
      return;
    }
    const size = line.split(';')[0]!.trim();
    // Up to 12 hex digits (256 TiB) after any leading zeros: beyond that it is not a size, it is an attack.
    if (!/^0*[0-9a-fA-F]{1,12}$/.test(size)) throw malformed(`chunk size ${JSON.stringify(line.slice(0, 20))}`);
    this.left = Number.parseInt(size, 16);
    this.state = this.left === 0 ? 'trailer' : 'data';
  }
}
