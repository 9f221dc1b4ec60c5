import type { Readable } from 'node:stream';
import { CliError, ExitCode, InterruptedError, UsageError } from '../errors.js';
import { abortableSleep } from '../sleep.js';
import { isLoopbackHost } from '../service/addresses.js';
import { TLS_FAILURE, describeConnectionFailure, failureCode, formatSeconds, untrustedCertificate } from './network.js';
import {
  type AttemptOutcome,
  BEFORE_SEND_CODES,
  EXCHANGE_TIMEOUT,
  type Method,
  PROTOCOL_ERROR,
  REFUSED_TO_SEND,
  RETRYABLE_STATUS,
  type RetryDecision,
  retryDecision,
} from './retry.js';
import { type WireResponse, codedError, discardBody, exchange, unwrapFetchError } from './transport.js';
import { WaitBudget } from './wait-budget.js';
import { type ProxyDispatcher, type ProxySetting, proxyAgent, proxyAnswerFailure, proxyRequestFailure, traceProxy } from './proxy.js';
import {
  type ApiErrorInit,
  type FieldErrors,
  NetworkError,
  NotFoundError,
  ProxyError,
  RateLimitError,
  apiErrorFor,
  appliedCheckHint,
  baseUrlPathHint,
  emptyMessageBody,
} from './errors.js';
import { type RateBucket, type RateLimitState, SEPARATE_BUCKETS, type SharedBudget } from './ratelimit.js';
import { redactQuerySecrets, redactToken } from './redact.js';

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  userAgent: string;
  /** Per-phase timeout (connect, headers, idle body) in ms. */
  timeoutMs: number;
  /** --max-wait: the longest total wait, in ms, for retries and the rate budget (see `waits`). */
  maxWaitMs: number;
  /** Never wait at all, neither to retry nor for the rate budget (shell completion): refuse at once instead. */
  neverWait?: boolean;
  /**
   * The command's wait budget, shared by all its clients so --max-wait bounds the command's total
   * wait; default: one of this client's own, of `maxWaitMs` (or `neverWait`).
   */
  waits?: WaitBudget;
  /** Debug sink (stderr); the token is always redacted before it gets here. */
  debug?: (line: string) => void;
  /** Backoff base for retries without Retry-After; tests set it low. */
  retryBaseMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  signal?: AbortSignal;
  /** Told before each wait between attempts (rate limit, 5xx, network), so people see why nothing happens. */
  onWait?: (w: { ms: number; reason: string }) => void;
  /** An undici dispatcher, injected by tests: requests then go through Node's fetch with it (src/api/transport.ts); default: node:http, or a proxy agent (src/api/proxy.ts). */
  dispatcher?: unknown;
  /** The proxies from the environment (src/api/proxy.ts): requests then go through undici's EnvHttpProxyAgent. */
  proxy?: ProxySetting;
  /** Told what a person should know about an outcome, e.g. a DELETE taken as done after a lost answer. */
  onNote?: (text: string) => void;
  /**
   * The rate budgets shared with other formctl processes (src/api/ratelimit.ts), one per limiter
   * bucket of the service; none in unit tests.
   */
  budgets?: Partial<Record<RateBucket, SharedBudget>>;
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
  /**
   * `never-after-send`: once the request may have reached the service (a 5xx answer, a connection
   * dropped after sending), it is not sent again: for a request with side effects beyond its
   * own resource, such as a submission update, which re-runs the form's integrations on the
   * deployed service (docs/security.md). Failures before sending and 429 are still retried.
   */
  retry?: 'default' | 'never-after-send';
  /**
   * The limiter bucket the request also counts against besides the general one (`export` for the
   * export POST), or instead of it (`external`: the `/external/` routes' own limiter, see
   * SEPARATE_BUCKETS). Its answer's X-RateLimit-* headers and a 429's wait then tune only that bucket:
   * they describe the export limiter (or whichever has less left), never the general pace.
   */
  bucket?: RateBucket;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  /** The request, as messages show it: for "unexpected answer" errors (src/api/normalize.ts). */
  method: Method;
  path: string;
}

export interface StreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
  /**
   * The body has neither a length nor chunked framing: it ends when the connection does, so a
   * connection cut short looks the same as a complete body, to any client.
   */
  untilClose: boolean;
}

type ResponseBody = Readable;

export type { Method } from './retry.js';

/** What every attempt of one request shares (ApiClient.prepare). */
interface Prepared {
  o: RequestOptions;
  method: Method;
  url: URL;
  /** The request as messages show it (path and query on the service, secrets redacted). */
  display: string;
  /** The full URL as --debug shows it. */
  shown: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  bucket: RateBucket;
  onceOnly: boolean;
  signal?: AbortSignal;
  started: number;
}

/** How one attempt ended: the answer's headers (its body unread), or a network error. */
type Attempt = { res: WireResponse; deadline?: ExchangeDeadline } | { error: NetworkError };

/** A request's final answer, for request() and stream(). */
interface Sent {
  status: number;
  headers: StreamResponse['headers'];
  body: ResponseBody;
  deadline?: ExchangeDeadline;
  /** A DELETE answered 404 after an attempt that may have been carried out: the note to show. */
  takenAsDone?: string;
}

/**
 * The most formctl reads of a JSON answer: the largest answer of this API (a page of 100
 * submissions, a form with its properties) is a few MiB; CSV downloads stream and have no limit.
 */
export const JSON_ANSWER_LIMIT = 64 * 1024 * 1024;
/** The most read of an error answer for its message: anything longer is not a message. */
const ERROR_BODY_LIMIT = 1024 * 1024;

// Loopback hosts may receive a token over plain http (local sandbox, tests).
export { isLoopbackHost } from '../service/addresses.js';

/** The one HTTP door of formctl: auth, JSON, timeouts, retries, rate limits, typed errors, debug log. */
export class ApiClient {
  readonly baseUrl: URL;
  /** What the general limiter's headers said last (every request but an export POST's answer). */
  readonly rateLimit: RateLimitState = {};
  /** The same per bucket: `rateLimits.general` is `rateLimit`. */
  readonly rateLimits: Record<RateBucket, RateLimitState> = { general: this.rateLimit, export: {}, external: {} };
  private dispatcher?: unknown;
  private untrace?: () => void;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly waits: WaitBudget;

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
    this.waits = opts.waits ?? new WaitBudget(opts.maxWaitMs, this.now, opts.neverWait);
  }

  /** Sends a request and parses JSON; throws a typed ApiError for non-2xx statuses. */
  async request<T = unknown>(o: RequestOptions): Promise<ApiResponse<T>> {
    const res = await this.send(o, true);
    if (res.takenAsDone) {
      discardBody(res.body);
      res.deadline?.clear();
      this.opts.onNote?.(res.takenAsDone);
      return this.answer(res.status, res.headers, undefined as T, o);
    }
    const text = await this.readJsonText(res, o, res.deadline);
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
    return this.answer(res.status, res.headers, data as T, o);
  }

  /** The answer as request() gives it; its path (redacted, for messages) is worked out only if read. */
  private answer<T>(status: number, headers: ApiResponse<T>['headers'], data: T, o: RequestOptions): ApiResponse<T> {
    let path: string | undefined;
    const display = () => (path ??= this.display(o));
    return {
      status,
      headers,
      data,
      method: o.method ?? 'GET',
      get path() {
        return display();
      },
    };
  }

  /**
   * Sends a request and hands back the body unread (2xx only), for CSV downloads: the same
   * request, checks, retries and errors as `request()`, but the caller streams the body.
   */
  async stream(o: RequestOptions): Promise<StreamResponse> {
    const res = await this.send(o);
    const coding = String(res.headers['transfer-encoding'] ?? '').toLowerCase();
    return { ...res, untilClose: res.headers['content-length'] === undefined && !/(^|,)\s*chunked\s*$/.test(coding) };
  }

  /**
   * Reads a streamed 2xx answer that turned out to be JSON (an export's job answer) under the limits
   * of request(): at most JSON_ANSWER_LIMIT bytes, and within --timeout from its headers; the idle
   * timeout a download keeps would let a body trickling a byte a second run forever (docs/security.md).
   */
  async readStreamedJson(res: StreamResponse, o: RequestOptions): Promise<string> {
    const deadline = new ExchangeDeadline(this.opts.timeoutMs, o.signal ?? this.opts.signal);
    const stop = (): void => destroyBody(res.body, deadline.signal.reason);
    deadline.signal.addEventListener('abort', stop, { once: true });
    try {
      return await this.readJsonText(res, o, deadline);
    } finally {
      deadline.signal.removeEventListener('abort', stop);
    }
  }

  /**
   * A JSON answer's text, at most JSON_ANSWER_LIMIT bytes: refused before reading when the length is
   * announced; otherwise counted while reading, so an endless body costs at most the limit in memory
   * (docs/security.md). The deadline, if any, is cleared once the body is read or has failed.
   */
  private async readJsonText(res: Pick<StreamResponse, 'status' | 'headers' | 'body'>, o: RequestOptions, deadline?: ExchangeDeadline): Promise<string> {
    let text: string | undefined;
    try {
      const length = Number(res.headers['content-length']);
      text = Number.isFinite(length) && length > JSON_ANSWER_LIMIT ? undefined : await readLimited(res.body, JSON_ANSWER_LIMIT);
    } catch (err) {
      // The connection can drop or time out after the headers arrived: still a network error (exit 11).
      throw this.failure(err as NodeJS.ErrnoException, o, deadline);
    } finally {
      deadline?.clear();
    }
    if (text === undefined) {
      destroyBody(res.body);
      throw new CliError(
        `The service's answer is larger than ${JSON_ANSWER_LIMIT / 1024 / 1024} MiB, the most formctl reads of a JSON answer (HTTP ${res.status}, ${o.method ?? 'GET'} ${this.display(o)}).`,
        ExitCode.error,
        'No answer of this API is that large: check the base URL (formctl auth status). CSV exports (formctl submission export) stream to a file and have no such limit.',
        { hintChecksBaseUrl: true },
      );
    }
    return text;
  }

  /**
   * Ends the connections of a dispatcher this client made (a proxy agent), at once: the command is
   * over, and a CONNECT a stalled proxy never answered must not hold the process (ProxyDispatcher.shutdown).
   * Node's global agent keeps idle sockets unreferenced.
   */
  async close(): Promise<void> {
    const own = this.dispatcher !== this.opts.dispatcher ? (this.dispatcher as Partial<ProxyDispatcher> | undefined) : undefined;
    this.untrace?.();
    await own?.shutdown?.();
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
    return url.origin === this.baseUrl.origin ? redactQuerySecrets(url.pathname + url.search) : url.origin + url.pathname;
  }

  /** Maps an error of the wire (request or body read; node:http, or fetch through a proxy) to InterruptedError or NetworkError. */
  private failure(err: NodeJS.ErrnoException, o: RequestOptions, deadline?: ExchangeDeadline): CliError {
    if (err instanceof CliError) return err;
    const e = unwrapFetchError(err) as NodeJS.ErrnoException;
    const expired = deadline?.expired && !(o.signal ?? this.opts.signal)?.aborted;
    if (this.opts.proxy && !this.opts.dispatcher) {
      const where = `(${o.method ?? 'GET'} ${this.display(o)})`;
      const proxied = proxyRequestFailure(this.opts.proxy, this.dispatcher, this.resolve(o), e, {
        expired: expired === true,
        secs: formatSeconds(this.opts.timeoutMs),
        where,
      });
      if (proxied) return proxied;
    }
    if (expired) return this.networkError(codedError('exchange timeout', EXCHANGE_TIMEOUT), o.method ?? 'GET', this.resolve(o), this.display(o));
    if (e.name === 'AbortError' || e.code === 'UND_ERR_ABORTED' || (o.signal ?? this.opts.signal)?.aborted) {
      return new InterruptedError();
    }
    return this.networkError(e, o.method ?? 'GET', this.resolve(o), this.display(o));
  }

  /**
   * The dispatcher for fetch: an injected one; with a proxy variable set, undici's EnvHttpProxyAgent,
   * loaded then only (made on the first request); else none: the request goes through node:http.
   */
  private async getDispatcher(): Promise<unknown> {
    const proxy = this.opts.proxy;
    if (this.dispatcher === undefined && proxy) {
      this.dispatcher = await proxyAgent(proxy, { connectTimeoutMs: this.opts.timeoutMs });
      if (this.opts.debug) this.untrace = traceProxy(proxy, (line) => this.log(line));
    }
    return this.dispatcher;
  }

  /** The error for an answer the proxy wrote itself (tinyproxy's 401 to wrong credentials), not the service: src/api/proxy.ts. */
  private proxyAnswer(p: Prepared, res: WireResponse): ProxyError | undefined {
    const proxy = this.opts.proxy;
    if (!proxy || this.dispatcher === this.opts.dispatcher) return undefined;
    return proxyAnswerFailure(proxy, this.dispatcher, p.url, res.statusCode, res.headers, `(${p.method} ${p.display})`);
  }

  /** What every attempt of one request shares: where it goes, what it sends, how it is shown. */
  private prepare(o: RequestOptions): Prepared {
    const method = o.method ?? 'GET';
    const url = this.resolve(o);
    // How messages and --debug show the request: worked out when one is written (each is a run of
    // regular expressions, which V8 compiles afresh in every process: no cache holds them).
    let display: string | undefined;
    let shown: string | undefined;
    const shownAs = () => (display ??= this.display(o));
    const onService = url.origin === this.baseUrl.origin;
    // The token goes only to the configured service, never to another origin (e.g. an export file_url).
    const sendToken = this.opts.token !== undefined && onService && o.anonymous !== true;
    if (sendToken && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      throw new UsageError(
        `Refusing to send your token over plain http:// to ${url.host}.`,
        'Use an https:// base URL; plain http is allowed only for loopback addresses (a local sandbox).',
      );
    }
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.opts.userAgent, ...o.headers };
    if (sendToken) headers.authorization = `Bearer ${this.opts.token}`;
    let body: string | Buffer | undefined;
    if (o.rawBody !== undefined) {
      body = o.rawBody;
      headers['content-type'] = o.contentType ?? 'application/json';
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const onceOnly = o.retry === 'never-after-send';
    return {
      o,
      method,
      url,
      get display() {
        return shownAs();
      },
      get shown() {
        return (shown ??= onService ? redactQuerySecrets(url.href) : shownAs());
      },
      headers,
      body,
      bucket: o.bucket ?? 'general',
      onceOnly,
      signal: o.signal ?? this.opts.signal,
      started: this.now(),
    };
  }

  /**
   * The attempt loop around the one retry rule (retryDecision, src/api/retry.ts). With `whole`,
   * each attempt runs under an ExchangeDeadline of --timeout that the caller clears once it has
   * read the body: the wire's own timeouts are idle timeouts, which a body trickling a byte a second
   * never trips (docs/security.md). Downloads (stream) keep only the idle timeout: a large export
   * may rightly take longer than --timeout.
   */
  private async send(o: RequestOptions, whole = false): Promise<Sent> {
    const p = this.prepare(o);
    /** An earlier attempt may have been carried out although its answer was an error or lost. */
    let mayHaveApplied = false;
    for (let attempt = 1; ; attempt++) {
      const a = await this.budgeted(p, () => this.attempt(p, attempt, whole));
      if ('error' in a) {
        const code = a.error.code;
        const sent = !BEFORE_SEND_CODES.has(code ?? '') && !REFUSED_TO_SEND.test(code ?? '');
        const outcome: AttemptOutcome = { kind: 'network', code, sent, loopback: isLoopbackHost(p.url.hostname) };
        const decision = this.decide(p, attempt, outcome);
        if (!decision.retry) throw decision.reason === 'may-have-applied' ? this.mayHaveApplied(a.error, p.method, p.display) : a.error;
        mayHaveApplied ||= decision.mayHaveApplied;
        await this.pause(decision.delayMs, `the connection failed (${code ?? 'network error'})`, p.signal);
        continue;
      }
      const { res, deadline } = a;
      const status = res.statusCode;
      const byProxy = this.proxyAnswer(p, res);
      if (byProxy) {
        discardBody(res.body);
        deadline?.clear();
        throw byProxy;
      }
      if ((status >= 200 && status < 300) || o.acceptStatuses?.includes(status)) return { status, headers: res.headers, body: res.body, deadline };
      if (status === 404 && p.method === 'DELETE' && mayHaveApplied) {
        // The earlier attempt most likely deleted it and only its answer was lost.
        const takenAsDone = `the first DELETE ${p.display} may have been carried out before its answer was lost; the retry found nothing there (HTTP 404), so it is taken as deleted.`;
        return { status, headers: res.headers, body: res.body, deadline, takenAsDone };
      }
      if (status >= 300 && status < 400) throw this.redirected(res, deadline);
      const retryAfterMs = status === 429 || RETRYABLE_STATUS.has(status) ? this.serverDelay(res.headers) : undefined;
      const decision = this.decide(p, attempt, { kind: 'status', status, retryAfterMs });
      if (!decision.retry) throw await this.refused(p, res, deadline, retryAfterMs);
      discardBody(res.body);
      deadline?.clear();
      mayHaveApplied ||= decision.mayHaveApplied;
      await this.pause(decision.delayMs, status === 429 ? 'rate limited (HTTP 429)' : `the service answered HTTP ${status}`, p.signal);
    }
  }

  /** The retry rule applied to one attempt's end, with this command's wait budget and a fresh backoff. */
  private decide(p: Prepared, attempt: number, outcome: AttemptOutcome): RetryDecision {
    const d = retryDecision({ method: p.method, attempt, outcome, onceOnly: p.onceOnly, backoffMs: this.backoff(attempt), waitLeftMs: this.waits.left() });
    if (d.retry) this.log(`  retrying in ${d.delayMs} ms`);
    return d;
  }

  /**
   * The rate budget around one attempt: its slots are taken before it (an export POST counts against
   * its own bucket and the general one: the export slot first, as that wait may be long, then the
   * general slot; a request of a separate bucket, `external`, only its own), and its answer's headers
   * are taken into the request's bucket after it.
   */
  private async budgeted(p: Prepared, run: () => Promise<Attempt>): Promise<Attempt> {
    const reserved: Partial<Record<RateBucket, boolean>> = {};
    if (p.bucket !== 'general') reserved[p.bucket] = await this.waitForBudget(p.bucket, p);
    if (!SEPARATE_BUCKETS.has(p.bucket)) reserved.general = await this.waitForBudget('general', p);
    const t0 = this.now();
    const a = await run();
    if ('error' in a) return a;
    const { statusCode: status, headers } = a.res;
    // The answer's headers and a 429's wait tune the request's own bucket only (see RequestOptions.bucket).
    const state = this.rateLimits[p.bucket];
    const taken = this.trackRateLimit(headers, p.bucket);
    const budget = this.opts.budgets?.[p.bucket];
    if (budget) {
      const retryAfterMs = status === 429 ? this.serverDelay(headers) : undefined;
      // Headers not taken for this bucket bring no new Remaining: only the limit it already knew.
      await budget.observe(taken ? state : { limit: state.limit }, { sentAt: t0, status, retryAfterMs, reserved: reserved[p.bucket] ?? false });
    }
    const remaining = state.remaining !== undefined ? ` ratelimit-remaining=${state.remaining}${p.bucket === 'general' ? '' : ` (${p.bucket})`}` : '';
    this.log(() => `< ${status} ${p.method} ${p.display} (${this.now() - t0} ms)${remaining}`);
    return a;
  }

  /** One attempt on the wire: its answer's headers, or the network error it ended with. */
  private async attempt(p: Prepared, attempt: number, whole: boolean): Promise<Attempt> {
    const t0 = this.now();
    this.log(() => `> ${p.method} ${p.shown}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
    const deadline = whole ? new ExchangeDeadline(this.opts.timeoutMs, p.signal) : undefined;
    try {
      const res = await exchange({
        url: p.url,
        method: p.method,
        headers: p.headers,
        body: p.body,
        signal: deadline?.signal ?? p.signal,
        idleTimeoutMs: whole ? undefined : this.opts.timeoutMs,
        dispatcher: await this.getDispatcher(),
      });
      return { res, deadline };
    } catch (err) {
      deadline?.clear();
      const failure = this.failure(err as NodeJS.ErrnoException, p.o, deadline);
      if (!(failure instanceof NetworkError) || failure instanceof ProxyError) throw failure;
      this.log(() => `< ${p.method} ${p.shown} failed: ${failure.code ?? 'error'} (${this.now() - t0} ms)`);
      return { error: failure };
    }
  }

  /** The error for a redirect: formctl follows none (docs/security.md). */
  private redirected(res: WireResponse, deadline?: ExchangeDeadline): CliError {
    discardBody(res.body);
    deadline?.clear();
    return new CliError(
      this.redact(
        `The service answered with a redirect (HTTP ${res.statusCode}) to ${String(res.headers.location ?? '?')}; formctl does not follow redirects.`,
      ),
      ExitCode.error,
      'Check the base URL (formctl auth status); it must point at the API itself.',
      { hintChecksBaseUrl: true },
    );
  }

  /** The typed error for an answer that is not retried (again): its body read for the service's message. */
  private async refused(p: Prepared, res: WireResponse, deadline: ExchangeDeadline | undefined, retryAfterMs?: number): Promise<CliError> {
    const status = res.statusCode;
    const parsed = await readErrorBody(res.body);
    deadline?.clear();
    const init: ApiErrorInit = {
      status,
      method: p.method,
      path: p.display,
      serverMessage: parsed.message === undefined ? undefined : this.redact(parsed.message),
      errors: parsed.errors === undefined ? undefined : this.redactErrors(parsed.errors),
      ability: p.o.ability,
      allow: typeof res.headers.allow === 'string' ? res.headers.allow : undefined,
      emptyMessage: parsed.emptyMessage,
    };
    if (status === 429) {
      if (retryAfterMs !== undefined) init.retryAfterSeconds = Math.ceil(retryAfterMs / 1000);
      this.log(`  rate limited; gave up after ${Math.round((this.now() - p.started) / 1000)} s (--max-wait ${Math.round(this.waits.maxWaitMs / 1000)} s)`);
      return new RateLimitError(init);
    }
    if (p.onceOnly && status >= 500) return this.mayHaveApplied(apiErrorFor(init), p.method, p.display);
    // No such route under a base URL with a path (`https://host/api`): the path is to blame, not an id.
    const pathHint = status === 404 && p.url.origin === this.baseUrl.origin ? baseUrlPathHint(this.baseUrl, init.serverMessage) : undefined;
    if (pathHint) return new NotFoundError(init, pathHint);
    return apiErrorFor(init);
  }

  /** The error for a request sent once only (`retry: 'never-after-send'`) that failed after it may have reached the service. */
  private mayHaveApplied(err: CliError, method: string, display: string): CliError {
    const message = `${err.message.replace(/\.$/, '')}; the ${method} may have been applied all the same, so it was not sent again.`;
    const hint = appliedCheckHint(display);
    if (err instanceof NetworkError) return new NetworkError(message, hint, err.code);
    return new CliError(message, err.exitCode, hint);
  }

  /**
   * Takes a slot of the shared rate budget before an attempt, waiting for it when other requests
   * (of this or another formctl process) used the window up. A wait longer than what --max-wait
   * leaves is refused before sending anything: exit 8, or nothing at once for completion, which
   * never waits (`neverWait`, docs/security.md). Says whether a slot was recorded.
   */
  private async waitForBudget(bucket: RateBucket, p: Prepared): Promise<boolean> {
    const budget = this.opts.budgets?.[bucket];
    if (!budget) return false;
    const slot = await budget.take(this.waits.left());
    const which = bucket === 'general' ? 'rate limit' : `${bucket} rate limit`;
    if (slot.refused) {
      const secs = Math.ceil(slot.waitMs / 1000);
      this.log(`  ${bucket} rate budget used up for ${secs} s more; not sent`);
      throw new RateLimitError({
        status: 429,
        method: p.method,
        path: p.display,
        serverMessage: `The ${which} for this minute is used up (by this and other formctl processes)`,
        retryAfterSeconds: secs,
        local: true,
      });
    }
    if (slot.waitMs > 0) {
      this.log(`  pacing: waiting ${slot.waitMs} ms for the shared ${bucket} rate budget`);
      try {
        await this.pause(slot.waitMs, `pacing under the service's ${which} (shared by every formctl on this machine)`, p.signal);
      } catch (err) {
        // Not sent (Ctrl-C, or the wait ran out): the slot goes back to the processes sharing the budget.
        if (slot.at !== undefined) await budget.release(slot.at);
        throw err;
      }
    }
    return slot.reserved;
  }

  /** Waits between attempts; Ctrl-C (the abort signal) ends the wait at once with exit 130. */
  private async pause(ms: number, reason: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new InterruptedError();
    this.opts.onWait?.({ ms, reason });
    const end = this.waits.begin(ms);
    try {
      if (!signal) return await this.sleep(ms);
      // The default sleep clears its timer on abort; an injected one (tests) is raced against the signal.
      if (this.sleep === abortableSleep) return await abortableSleep(ms, signal);
      await raceAbort(this.sleep(ms), signal);
    } finally {
      end();
    }
  }

  /** Learns the bucket's state from an answer's X-RateLimit-* headers; false when they were not taken for it. */
  private trackRateLimit(h: Record<string, string | string[] | undefined>, bucket: RateBucket): boolean {
    const limit = Number(h['x-ratelimit-limit']);
    const remaining = Number(h['x-ratelimit-remaining']);
    const reset = Number(h['x-ratelimit-reset']);
    const state = this.rateLimits[bucket];
    const hasLimit = Number.isFinite(limit) && h['x-ratelimit-limit'] !== undefined;
    // A server with two limiters on a route shows the headers of the one with less left (Laravel's
    // throttle middleware does), so an export answer may carry the general limiter's: the general
    // limit, already known from other answers. They say nothing about the export bucket and are
    // not taken for it (the request was counted in the general budget when it was sent). Where
    // both limits really are equal, the general budget alone keeps exports under it. A separate
    // bucket's route has no other limiter: its headers are its own.
    if (bucket !== 'general' && !SEPARATE_BUCKETS.has(bucket) && hasLimit && limit === this.rateLimit.limit) return false;
    if (hasLimit) state.limit = limit;
    if (Number.isFinite(remaining) && h['x-ratelimit-remaining'] !== undefined) state.remaining = remaining;
    if (Number.isFinite(reset) && h['x-ratelimit-reset'] !== undefined) state.resetAt = resetToEpochMs(reset, this.now());
    return true;
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
    // undici's HTTPParserError may carry no code; its message names what llhttp expected.
    const code = failureCode(e) ?? (e.name === 'HTTPParserError' ? 'HPE_INVALID_RESPONSE' : undefined);
    const host = url.host;
    const secs = formatSeconds(this.opts.timeoutMs);
    const where = `(${method} ${display})`;
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new NetworkError(`Timed out connecting to ${host} after ${secs} ${where}.`, 'Check the network, or raise --timeout.', code);
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
      case EXCHANGE_TIMEOUT:
        return new NetworkError(`The service did not answer within ${secs} (--timeout) ${where}.`, 'Raise --timeout, or try again later.', code);
    }
    if (code === 'ERR_ACCESS_DENIED') {
      return new NetworkError(
        `Node's permission model refused the connection to ${host} ${where}.`,
        "formctl runs under Node's --permission (in the command or NODE_OPTIONS): allow the network with --allow-net, or run it without --permission.",
        code,
      );
    }
    if (code === 'FETCH_BAD_PORT') {
      return new NetworkError(
        `Port ${url.port} of ${url.hostname} is one the fetch standard blocks for HTTP (as browsers do), so Node's fetch refused it ${where}.`,
        'Serve the API on another port (443, 80, 8080, …).',
        code,
      );
    }
    if (code && REFUSED_TO_SEND.test(code)) {
      // Refused by Node before a byte went out: local input (a header), not the service's answer.
      return new NetworkError(
        `The request to ${host} was not sent: a header name or value is not valid HTTP (${code}) ${where}.`,
        'Check the headers given (-H) and the token (FORMCTL_TOKEN, `formctl auth status`); rerun with --debug.',
        code,
        ExitCode.usage,
      );
    }
    if (code && PROTOCOL_ERROR.test(code)) {
      const detail =
        /\(([^)]+)\)\s*$/.exec(e.message)?.[1] ?? (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' ? 'the body does not match its Content-Length' : code);
      return new NetworkError(
        `${host} sent a malformed HTTP answer (${detail}) ${where}; not retried.`,
        'Check the base URL (formctl auth status): whatever answers there does not speak HTTP correctly (a proxy, or another service?).',
        code,
        ExitCode.network,
        { hintChecksBaseUrl: true },
      );
    }
    const untrusted = untrustedCertificate(code, host);
    if (untrusted) return new NetworkError(`${untrusted.reason} ${where}.`, untrusted.hint, code);
    const hint =
      code === 'ECONNREFUSED'
        ? 'Is the service running, and is the base URL right? See `formctl auth status`.'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'Check the base URL and your DNS/network.'
          : code && TLS_FAILURE.test(code)
            ? 'Check the certificate, or NODE_EXTRA_CA_CERTS for a private CA.'
            : undefined;
    return new NetworkError(this.redact(`${describeConnectionFailure(code, e.message, url)} ${where}.`), hint, code, ExitCode.network, {
      hintChecksBaseUrl: code === 'ECONNREFUSED',
    });
  }

  /**
   * A --debug line, redacted. A line that shows the request is given as a function, made only with
   * --debug on: its display strings are runs of regular expressions (see prepare).
   */
  private log(line: string | (() => string)): void {
    if (this.opts.debug) this.opts.debug(this.redact(typeof line === 'function' ? line() : line));
  }

  /** Removes the token, and secret query values (docs/security.md), from text that may reach the terminal (a server may echo them back). */
  redact(text: string): string {
    return redactQuerySecrets(this.maskToken(text));
  }

  /** Removes the token alone (`formctl api` prints what the service sent, secret query values included, but never the token): redactToken's rule. */
  maskToken(text: string): string {
    return redactToken(text, this.opts.token);
  }

  private redactErrors(errors: FieldErrors): FieldErrors {
    const out: FieldErrors = {};
    for (const [k, v] of Object.entries(errors)) out[this.redact(k)] = v.map((m) => this.redact(m));
    return out;
  }
}

/** Ends with `p`, or with InterruptedError as soon as the signal aborts. */
async function raceAbort(p: Promise<void>, signal: AbortSignal): Promise<void> {
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new InterruptedError());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([p, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** X-RateLimit-Reset is epoch seconds (Laravel); small values are read as seconds from now. */
function resetToEpochMs(reset: number, now: number): number {
  return reset < 1e9 ? now + reset * 1000 : reset * 1000;
}

async function readErrorBody(body: ResponseBody): Promise<{ message?: string; errors?: FieldErrors; emptyMessage?: boolean }> {
  let text: string | undefined;
  try {
    text = await readLimited(body, ERROR_BODY_LIMIT);
  } catch {
    return {};
  }
  if (text === undefined) {
    destroyBody(body);
    return {};
  }
  if (emptyMessageBody(text)) return { emptyMessage: true };
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
    return { message, errors, emptyMessage: emptyMessageBody(parsed) };
  } catch {
    const first = text.trim().split('\n')[0]?.slice(0, 200);
    return { message: first && !first.startsWith('<') ? first : undefined };
  }
}

/** Reads a body as UTF-8 text, at most `limit` bytes: undefined when it is longer (the caller destroys it). */
async function readLimited(body: ResponseBody, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function destroyBody(body: ResponseBody, reason?: unknown): void {
  discardBody(body, reason);
}

/**
 * --timeout for one whole JSON exchange (send, headers and body): aborts the request's signal
 * when it runs out. `expired` tells that abort apart from Ctrl-C.
 */
class ExchangeDeadline {
  expired = false;
  readonly signal: AbortSignal;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number, outer?: AbortSignal) {
    const ac = new AbortController();
    this.timer = setTimeout(() => {
      this.expired = true;
      ac.abort(codedError('exchange timeout', EXCHANGE_TIMEOUT));
    }, ms);
    this.signal = outer ? AbortSignal.any([outer, ac.signal]) : ac.signal;
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
