import type { Dispatcher } from 'undici';
import { CliError, ExitCode, InterruptedError, UsageError } from '../errors.js';
import { abortableSleep } from '../sleep.js';
import { type ApiErrorInit, type FieldErrors, NetworkError, RateLimitError, apiErrorFor } from './errors.js';

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
  /** Told before each wait between attempts (rate limit, 5xx, network), so people see why nothing happens. */
  onWait?: (w: { ms: number; reason: string }) => void;
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
  /** Send no token: a public route, called as a visitor would (`webhook trigger`). */
  anonymous?: boolean;
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
  body: Dispatcher.ResponseData['body'];
  /**
   * The body has neither a length nor chunked framing: it ends when the connection does, so a
   * connection cut short looks the same as a complete body, to any client.
   */
  untilClose: boolean;
}

interface Outgoing {
  url: URL;
  method: Method;
  headers: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
}

type ResponseBody = Dispatcher.ResponseData['body'];

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
/**
 * Network failures that are not retried: a timeout already cost the user's whole --timeout (five
 * attempts would take five times that, far past --max-wait), and a host that does not resolve
 * will not resolve a second later. EAI_AGAIN (temporary DNS failure) is retried.
 */
const NOT_RETRIED_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ENOTFOUND']);
/** A certificate the machine does not trust (self-signed, expired, wrong host) is not fixed by waiting either. */
const TLS_FAILURE = /CERT|SSL|TLS|SELF_SIGNED/i;

type Undici = Pick<typeof import('undici'), 'Agent'>;
let undici: Promise<Undici> | undefined;

/**
 * undici is loaded on the first request: commands that send none (help, config) never pay for it.
 * Its `default` export is its CommonJS `module.exports`, both when Node imports it from
 * node_modules and when the build bundles it (docs/performance.md).
 */
function loadUndici(): Promise<Undici> {
  return (undici ??= import('undici').then((m) => m.default));
}

/** Loopback hosts may receive a token over plain http (local sandbox, tests). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Not *.localhost: without a local resolver rule such names can come from DNS and point anywhere.
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The one HTTP door of formctl: auth, JSON, timeouts, retries, rate limits, typed errors, debug log. */
export class ApiClient {
  readonly baseUrl: URL;
  readonly rateLimit: RateLimitState = {};
  private dispatcher?: Dispatcher;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
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
    this.sleep = opts.sleep ?? abortableSleep;
    this.now = opts.now ?? Date.now;
  }

  /** Sends a request and parses JSON; throws a typed ApiError for non-2xx statuses. */
  async request<T = unknown>(o: RequestOptions): Promise<ApiResponse<T>> {
    const res = await this.send(o);
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      // The connection can drop or time out after the headers arrived: still a network error (exit 11).
      throw this.failure(err as NodeJS.ErrnoException, o);
    }
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

  /**
   * Sends a request and hands back the body unread (2xx only), for CSV downloads: the same
   * request, checks, retries and errors as `request()`, but the caller streams the body.
   */
  async stream(o: RequestOptions): Promise<StreamResponse> {
    const res = await this.send(o);
    const length = res.headers['content-length'];
    const coding = String(res.headers['transfer-encoding'] ?? '').toLowerCase();
    return { ...res, untilClose: length === undefined && !/(^|,)\s*chunked\s*$/.test(coding) };
  }

  /** One exchange through undici; the body is left for the caller. */
  private async exchange(req: Outgoing): Promise<Dispatcher.ResponseData> {
    const dispatcher = await this.getDispatcher();
    return dispatcher.request({
      origin: req.url.origin,
      path: req.url.pathname + req.url.search,
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      headersTimeout: this.opts.timeoutMs,
      bodyTimeout: this.opts.timeoutMs,
    });
  }

  /** Closes pooled connections so the process can exit promptly. */
  async close(): Promise<void> {
    const d = this.dispatcher as (Dispatcher & { close?: () => Promise<void> }) | undefined;
    if (d && !this.opts.dispatcher) await d.close?.();
  }

  /** Resolves a path or absolute URL against the base URL. */
  resolve(o: Pick<RequestOptions, 'path' | 'query'>): URL {
    // './' keeps a first segment with a colon from being read as a scheme; leading slashes are
    // dropped so the path stays under the base URL's own path prefix (e.g. https://host/api/).
    const url = /^https?:\/\//i.test(o.path) ? new URL(o.path) : new URL(`./${o.path.replace(/^\/+/, '')}`, this.baseUrl);
    for (const [k, v] of Object.entries(o.query ?? {})) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
    return url;
  }

  /** The request as shown in messages: path and query on the service; origin and path elsewhere (a signed file_url's query is a secret). */
  private display(o: Pick<RequestOptions, 'path' | 'query'>): string {
    const url = this.resolve(o);
    return url.origin === this.baseUrl.origin ? url.pathname + url.search : url.origin + url.pathname;
  }

  /** Maps an error thrown by undici (request or body read) to InterruptedError or NetworkError. */
  private failure(e: NodeJS.ErrnoException, o: RequestOptions): CliError {
    if (e instanceof CliError) return e;
    if (e.name === 'AbortError' || e.code === 'UND_ERR_ABORTED' || (o.signal ?? this.opts.signal)?.aborted) {
      return new InterruptedError();
    }
    return this.networkError(e, o.method ?? 'GET', this.resolve(o), this.display(o));
  }

  private async getDispatcher(): Promise<Dispatcher> {
    if (!this.dispatcher) {
      const { Agent } = await loadUndici();
      this.dispatcher = new Agent({
        connect: { timeout: this.opts.timeoutMs },
        headersTimeout: this.opts.timeoutMs,
        bodyTimeout: this.opts.timeoutMs,
        keepAliveTimeout: 4_000,
      });
    }
    return this.dispatcher;
  }

  private async send(o: RequestOptions): Promise<{ status: number; headers: StreamResponse['headers']; body: ResponseBody }> {
    const method = o.method ?? 'GET';
    const url = this.resolve(o);
    const display = this.display(o);
    const shown = url.origin === this.baseUrl.origin ? url.href : display;
    // The token goes only to the configured service, never to another origin (e.g. an export file_url).
    const sendToken = this.opts.token !== undefined && url.origin === this.baseUrl.origin && o.anonymous !== true;
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

    const started = this.now();
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const t0 = this.now();
      this.log(`> ${method} ${shown}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
      let res: Dispatcher.ResponseData;
      try {
        res = await this.exchange({ url, method, headers, body, signal: o.signal ?? this.opts.signal });
      } catch (err) {
        const failure = this.failure(err as NodeJS.ErrnoException, o);
        if (!(failure instanceof NetworkError)) throw failure;
        const netErr = failure;
        this.log(`< ${method} ${shown} failed: ${netErr.code ?? 'error'} (${this.now() - t0} ms)`);
        const delay = this.backoff(attempt);
        if (
          IDEMPOTENT.has(method) &&
          !NOT_RETRIED_CODES.has(netErr.code ?? '') &&
          !TLS_FAILURE.test(netErr.code ?? '') &&
          // Nothing listens on that local port: waiting will not change that (a sandbox not started).
          !(netErr.code === 'ECONNREFUSED' && isLoopbackHost(url.hostname)) &&
          attempt < MAX_ATTEMPTS &&
          waited + delay <= this.opts.maxWaitMs
        ) {
          this.log(`  retrying in ${delay} ms`);
          waited += delay;
          await this.pause(delay, `the connection failed (${netErr.code ?? 'network error'})`, o.signal ?? this.opts.signal);
          continue;
        }
        throw netErr;
      }
      const status = res.statusCode;
      this.trackRateLimit(res.headers);
      this.log(
        `< ${status} ${method} ${display} (${this.now() - t0} ms)` +
          (this.rateLimit.remaining !== undefined ? ` ratelimit-remaining=${this.rateLimit.remaining}` : ''),
      );
      if ((status >= 200 && status < 300) || o.acceptStatuses?.includes(status)) {
        return { status, headers: res.headers, body: res.body };
      }
      if (status >= 300 && status < 400) {
        await res.body.dump();
        throw new CliError(
          this.redact(`The service answered with a redirect (HTTP ${status}) to ${String(res.headers.location ?? '?')}; formctl does not follow redirects.`),
          ExitCode.error,
          'Check the base URL (formctl auth status); it must point at the API itself.',
        );
      }
      const retryable = status === 429 || (RETRYABLE_STATUS.has(status) && IDEMPOTENT.has(method));
      const asked = retryable ? this.serverDelay(res.headers) : undefined;
      const delay = retryable ? (asked ?? this.backoff(attempt)) : 0;
      if (retryable && attempt < MAX_ATTEMPTS + (status === 429 ? 100 : 0) && waited + delay <= this.opts.maxWaitMs) {
        await res.body.dump();
        this.log(`  retrying in ${delay} ms`);
        waited += delay;
        await this.pause(delay, status === 429 ? 'rate limited (HTTP 429)' : `the service answered HTTP ${status}`, o.signal ?? this.opts.signal);
        continue;
      }
      const parsed = await readErrorBody(res.body);
      const init: ApiErrorInit = {
        status,
        method,
        path: display,
        serverMessage: parsed.message === undefined ? undefined : this.redact(parsed.message),
        errors: parsed.errors === undefined ? undefined : this.redactErrors(parsed.errors),
        ability: o.ability,
      };
      if (status === 429 && asked !== undefined) init.retryAfterSeconds = Math.ceil(asked / 1000);
      if (status === 429) {
        const e = new RateLimitError(init);
        this.log(`  rate limited; gave up after ${Math.round((this.now() - started) / 1000)} s (--max-wait ${Math.round(this.opts.maxWaitMs / 1000)} s)`);
        throw e;
      }
      throw apiErrorFor(init);
    }
  }

  /** Waits between attempts; Ctrl-C (the abort signal) ends the wait at once with exit 130. */
  private async pause(ms: number, reason: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new InterruptedError();
    this.opts.onWait?.({ ms, reason });
    if (!signal) return this.sleep(ms);
    // The default sleep clears its timer on abort; an injected one (tests) is raced against the signal.
    if (this.sleep === abortableSleep) return abortableSleep(ms, signal);
    let onAbort = (): void => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new InterruptedError());
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([this.sleep(ms), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private trackRateLimit(h: Record<string, string | string[] | undefined>): void {
    const limit = Number(h['x-ratelimit-limit']);
    const remaining = Number(h['x-ratelimit-remaining']);
    const reset = Number(h['x-ratelimit-reset']);
    if (Number.isFinite(limit) && h['x-ratelimit-limit'] !== undefined) this.rateLimit.limit = limit;
    if (Number.isFinite(remaining) && h['x-ratelimit-remaining'] !== undefined) this.rateLimit.remaining = remaining;
    if (Number.isFinite(reset) && h['x-ratelimit-reset'] !== undefined) this.rateLimit.resetAt = resetToEpochMs(reset, this.now());
  }

  /** The wait the server asks for: Retry-After (seconds or HTTP date), else X-RateLimit-Reset; undefined when it says nothing. */
  private serverDelay(h: Record<string, string | string[] | undefined>): number | undefined {
    const ra = h['retry-after'];
    if (typeof ra === 'string') {
      const secs = Number(ra);
      if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
      const date = Date.parse(ra);
      if (!Number.isNaN(date)) return Math.max(0, date - this.now());
    }
    const reset = Number(h['x-ratelimit-reset']);
    if (h['x-ratelimit-reset'] !== undefined && Number.isFinite(reset)) {
      return Math.max(0, resetToEpochMs(reset, this.now()) - this.now());
    }
    return undefined;
  }

  private backoff(attempt: number): number {
    const base = this.opts.retryBaseMs ?? 500;
    const exp = base * 2 ** (attempt - 1);
    return Math.round(exp / 2 + Math.random() * (exp / 2));
  }

  private networkError(e: NodeJS.ErrnoException, method: string, url: URL, display: string): NetworkError {
    const code = e.code ?? (e.cause as NodeJS.ErrnoException | undefined)?.code;
    const host = url.host;
    const secs = formatSeconds(this.opts.timeoutMs);
    const where = `(${method} ${display})`;
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new NetworkError(`Timed out connecting to ${host} after ${secs} ${where}.`, 'Check the network, or raise --timeout.', code);
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return new NetworkError(`The service did not answer within ${secs} (--timeout) ${where}.`, 'Raise --timeout, or try again later.', code);
      case 'ECONNREFUSED':
        return new NetworkError(`Connection refused by ${host} ${where}.`, 'Is the service running, and is the base URL right? See `formctl auth status`.', code);
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return new NetworkError(`Could not resolve ${url.hostname} ${where}.`, 'Check the base URL and your DNS/network.', code);
      case 'ECONNRESET':
      case 'UND_ERR_SOCKET':
      case 'EPIPE':
        return new NetworkError(`The connection to ${host} was dropped ${where}.`, undefined, code);
      default:
        if (code && TLS_FAILURE.test(code)) {
          return new NetworkError(`TLS error talking to ${host}: ${code} ${where}.`, 'Check the certificate, or NODE_EXTRA_CA_CERTS for a private CA.', code);
        }
        return new NetworkError(this.redact(`Network error talking to ${host}: ${code ?? e.message} ${where}.`), undefined, code);
    }
  }

  private log(line: string): void {
    if (this.opts.debug) this.opts.debug(this.redact(line));
  }

  /** Removes the token from text that may reach the terminal (a server may echo it back). */
  redact(text: string): string {
    const token = this.opts.token;
    return token ? text.split(token).join('[REDACTED]') : text;
  }

  private redactErrors(errors: FieldErrors): FieldErrors {
    const out: FieldErrors = {};
    for (const [k, v] of Object.entries(errors)) out[this.redact(k)] = v.map((m) => this.redact(m));
    return out;
  }
}

function formatSeconds(ms: number): string {
  return ms < 10_000 && ms % 1000 !== 0 ? `${ms / 1000} s` : `${Math.round(ms / 1000)} s`;
}

/** X-RateLimit-Reset is epoch seconds (Laravel); small values are read as seconds from now. */
function resetToEpochMs(reset: number, now: number): number {
  return reset < 1e9 ? now + reset * 1000 : reset * 1000;
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
