import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { CliError, ExitCode, InterruptedError, UsageError } from '../errors.js';
import { type FieldErrors, NetworkError, RateLimitError, apiErrorFor } from './errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  userAgent: string;
  /** Per-phase timeout (connect, headers, idle body) in ms. */
  timeoutMs: number;
  /** Total time retries may wait, in ms. */
  maxWaitMs: number;
  /** Debug sink (stderr); the token is always redacted before it gets here. */
  debug?: (line: string) => void;
  /** Backoff base for retries without Retry-After; tests set it low. */
  retryBaseMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  signal?: AbortSignal;
  /** Injected for tests; default is an undici Agent made on first request. */
  dispatcher?: Dispatcher;
}

export interface RequestOptions {
  method?: Method;
  /** Path under the base URL (already encoded, see apiPath), or an absolute URL. */
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** JSON body. */
  body?: unknown;
  /** Raw body (e.g. from `formctl api --input`), sent as-is with contentType. */
  rawBody?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** The ability the spec requires, for a helpful 403 hint. */
  ability?: string;
  /** Statuses returned as data rather than thrown. */
  acceptStatuses?: number[];
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
}

export interface StreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable & { json(): Promise<unknown>; text(): Promise<string>; dump(): Promise<void> };
}

/** What the client last learned from X-RateLimit-* headers. */
export interface RateLimitState {
  limit?: number;
  remaining?: number;
  /** ms epoch when the window resets, when the server says. */
  resetAt?: number;
}

const IDEMPOTENT = new Set<Method>(['GET', 'HEAD', 'PUT', 'DELETE']);
const RETRYABLE_STATUS = new Set([502, 503, 504]);
const MAX_ATTEMPTS = 5;

/** Loopback hosts may receive a token over plain http (local sandbox, tests). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The one HTTP door of formctl: auth, JSON, timeouts, retries, rate limits, typed errors, debug log. */
export class ApiClient {
  readonly baseUrl: URL;
  readonly rateLimit: RateLimitState = {};
  private dispatcher?: Dispatcher;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;

  constructor(private readonly opts: ClientOptions) {
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new UsageError(`Invalid base URL: ${opts.baseUrl}`, 'Use a full URL such as https://api.opnform.com');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new UsageError(`Unsupported base URL scheme ${url.protocol} (use https://).`);
    }
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    this.baseUrl = url;
    this.dispatcher = opts.dispatcher;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = opts.now ?? Date.now;
  }

  /** Sends a request and parses JSON; throws a typed ApiError for non-2xx statuses. */
  async request<T = unknown>(o: RequestOptions): Promise<ApiResponse<T>> {
    const res = await this.send(o);
    const text = await res.body.text();
    let data: unknown = undefined;
    if (text.length > 0) {
      const ct = String(res.headers['content-type'] ?? '');
      if (ct.includes('json') || /^[\s]*[[{]/.test(text)) {
        try {
          data = JSON.parse(text);
        } catch {
          throw new CliError(`The service sent invalid JSON (HTTP ${res.status}, ${o.method ?? 'GET'} ${this.display(o)}).`);
        }
      } else {
        data = text;
      }
    }
    return { status: res.status, headers: res.headers, data: data as T };
  }

  /** Sends a request and hands back the body as a stream (2xx only), for CSV downloads. */
  async stream(o: RequestOptions): Promise<StreamResponse> {
    return this.send(o);
  }

  /** Closes pooled connections so the process can exit promptly. */
  async close(): Promise<void> {
    const d = this.dispatcher as (Dispatcher & { close?: () => Promise<void> }) | undefined;
    if (d && !this.opts.dispatcher) await d.close?.();
  }

  /** Resolves a path or absolute URL against the base URL. */
  resolve(o: Pick<RequestOptions, 'path' | 'query'>): URL {
    const url = /^https?:\/\//i.test(o.path) ? new URL(o.path) : new URL(o.path.replace(/^\//, ''), this.baseUrl);
    for (const [k, v] of Object.entries(o.query ?? {})) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
    return url;
  }

  private display(o: RequestOptions): string {
    const url = this.resolve(o);
    return url.origin === this.baseUrl.origin ? url.pathname + url.search : url.origin + url.pathname;
  }

  private async getDispatcher(): Promise<Dispatcher> {
    if (!this.dispatcher) {
      const { Agent } = await import('undici');
      this.dispatcher = new Agent({
        connect: { timeout: this.opts.timeoutMs },
        headersTimeout: this.opts.timeoutMs,
        bodyTimeout: this.opts.timeoutMs,
        keepAliveTimeout: 4_000,
      });
    }
    return this.dispatcher;
  }

  private async send(o: RequestOptions): Promise<StreamResponse> {
    const method = o.method ?? 'GET';
    const url = this.resolve(o);
    const display = this.display(o);
    // The token goes only to the configured service, never to another origin (e.g. an export file_url).
    const sendToken = this.opts.token !== undefined && url.origin === this.baseUrl.origin;
    if (sendToken && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      throw new UsageError(
        `Refusing to send your token over plain http:// to ${url.host}.`,
        'Use an https:// base URL; plain http is allowed only for loopback addresses (a local sandbox).',
      );
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent,
      ...o.headers,
    };
    if (sendToken) headers.authorization = `Bearer ${this.opts.token}`;
    let body: string | Buffer | undefined;
    if (o.rawBody !== undefined) {
      body = o.rawBody;
      headers['content-type'] = o.contentType ?? 'application/json';
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }

    const dispatcher = await this.getDispatcher();
    const { request } = await import('undici');
    const started = this.now();
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const t0 = this.now();
      this.log(`> ${method} ${url.href}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(url, {
          method,
          headers,
          body,
          dispatcher,
          signal: o.signal ?? this.opts.signal,
          headersTimeout: this.opts.timeoutMs,
          bodyTimeout: this.opts.timeoutMs,
        });
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (e.name === 'AbortError' || e.code === 'UND_ERR_ABORTED' || (o.signal ?? this.opts.signal)?.aborted) {
          throw new InterruptedError();
        }
        const netErr = this.networkError(e, method, display);
        this.log(`< ${method} ${url.href} failed: ${netErr.code ?? e.message} (${this.now() - t0} ms)`);
        const delay = this.backoff(attempt);
        if (IDEMPOTENT.has(method) && attempt < MAX_ATTEMPTS && waited + delay <= this.opts.maxWaitMs) {
          waited += delay;
          await this.sleep(delay);
          continue;
        }
        throw netErr;
      }
      const status = res.statusCode;
      this.trackRateLimit(res.headers);
      this.log(
        `< ${status} ${method} ${url.pathname}${url.search} (${this.now() - t0} ms)` +
          (this.rateLimit.remaining !== undefined ? ` ratelimit-remaining=${this.rateLimit.remaining}` : ''),
      );
      if ((status >= 200 && status < 300) || o.acceptStatuses?.includes(status)) {
        return { status, headers: res.headers, body: res.body as StreamResponse['body'] };
      }
      if (status >= 300 && status < 400) {
        await res.body.dump();
        throw new CliError(
          `The service answered with a redirect (HTTP ${status}) to ${String(res.headers.location ?? '?')}; formctl does not follow redirects.`,
          ExitCode.error,
          'Check the base URL (formctl auth status); it must point at the API itself.',
        );
      }
      const retryable = status === 429 || (RETRYABLE_STATUS.has(status) && IDEMPOTENT.has(method));
      const delay = retryable ? this.retryDelay(res.headers, attempt) : 0;
      if (retryable && attempt < MAX_ATTEMPTS + (status === 429 ? 100 : 0) && waited + delay <= this.opts.maxWaitMs) {
        await res.body.dump();
        this.log(`  retrying in ${delay} ms`);
        waited += delay;
        await this.sleep(delay);
        continue;
      }
      const parsed = await readErrorBody(res.body);
      const init = {
        status,
        method,
        path: display,
        serverMessage: parsed.message,
        errors: parsed.errors,
        ability: o.ability,
      };
      if (status === 429) {
        const e = new RateLimitError(init);
        this.log(`  rate limited; gave up after waiting ${Math.round((this.now() - started) / 1000)} s`);
        throw e;
      }
      throw apiErrorFor(init);
    }
  }

  private trackRateLimit(h: Record<string, string | string[] | undefined>): void {
    const limit = Number(h['x-ratelimit-limit']);
    const remaining = Number(h['x-ratelimit-remaining']);
    const reset = Number(h['x-ratelimit-reset']);
    if (Number.isFinite(limit) && h['x-ratelimit-limit'] !== undefined) this.rateLimit.limit = limit;
    if (Number.isFinite(remaining) && h['x-ratelimit-remaining'] !== undefined) this.rateLimit.remaining = remaining;
    if (Number.isFinite(reset) && h['x-ratelimit-reset'] !== undefined) this.rateLimit.resetAt = reset * 1000;
  }

  /** Retry-After (seconds or HTTP date), else X-RateLimit-Reset, else exponential backoff with jitter. */
  private retryDelay(h: Record<string, string | string[] | undefined>, attempt: number): number {
    const ra = h['retry-after'];
    if (typeof ra === 'string') {
      const secs = Number(ra);
      if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
      const date = Date.parse(ra);
      if (!Number.isNaN(date)) return Math.max(0, date - this.now());
    }
    const reset = Number(h['x-ratelimit-reset']);
    if (h['x-ratelimit-reset'] !== undefined && Number.isFinite(reset)) {
      return Math.max(0, reset * 1000 - this.now());
    }
    return this.backoff(attempt);
  }

  private backoff(attempt: number): number {
    const base = this.opts.retryBaseMs ?? 500;
    const exp = base * 2 ** (attempt - 1);
    return Math.round(exp / 2 + Math.random() * (exp / 2));
  }

  private networkError(e: NodeJS.ErrnoException, method: string, display: string): NetworkError {
    const code = e.code ?? (e.cause as NodeJS.ErrnoException | undefined)?.code;
    const host = this.baseUrl.host;
    const secs = Math.round(this.opts.timeoutMs / 1000);
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new NetworkError(`Timed out connecting to ${host} after ${secs} s (${method} ${display}).`, 'Check the network, or raise --timeout.', code);
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return new NetworkError(`The service did not answer within ${secs} s (${method} ${display}).`, 'Raise --timeout, or try again later.', code);
      case 'ECONNREFUSED':
        return new NetworkError(`Connection refused by ${host} (${method} ${display}).`, 'Is the service running, and is the base URL right? See `formctl auth status`.', code);
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return new NetworkError(`Could not resolve ${this.baseUrl.hostname} (${method} ${display}).`, 'Check the base URL and your DNS/network.', code);
      case 'ECONNRESET':
      case 'UND_ERR_SOCKET':
      case 'EPIPE':
        return new NetworkError(`The connection to ${host} was dropped (${method} ${display}).`, undefined, code);
      default:
        if (code && /CERT|SSL|TLS|SELF_SIGNED/i.test(code)) {
          return new NetworkError(`TLS error talking to ${host}: ${code} (${method} ${display}).`, 'Check the certificate, or NODE_EXTRA_CA_CERTS for a private CA.', code);
        }
        return new NetworkError(`Network error talking to ${host}: ${code ?? e.message} (${method} ${display}).`, undefined, code);
    }
  }

  private log(line: string): void {
    if (!this.opts.debug) return;
    const token = this.opts.token;
    this.opts.debug(token ? line.split(token).join('[REDACTED]') : line);
  }
}

async function readErrorBody(body: { text(): Promise<string> }): Promise<{ message?: string; errors?: FieldErrors }> {
  let text = '';
  try {
    text = await body.text();
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as { message?: unknown; errors?: unknown; error?: unknown };
    const message = typeof parsed.message === 'string' ? parsed.message : typeof parsed.error === 'string' ? parsed.error : undefined;
    let errors: FieldErrors | undefined;
    if (parsed.errors && typeof parsed.errors === 'object') {
      errors = {};
      for (const [k, v] of Object.entries(parsed.errors as Record<string, unknown>)) {
        errors[k] = Array.isArray(v) ? v.map(String) : [String(v)];
      }
    }
    return { message, errors };
  } catch {
    const first = text.trim().split('\n')[0]?.slice(0, 200);
    return { message: first && !first.startsWith('<') ? first : undefined };
  }
}
