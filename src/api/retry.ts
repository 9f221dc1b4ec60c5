// The one retry rule of the API client: given how an attempt ended, retry after how long, or give
// up and why. Pure (no clock, no I/O, no randomness), so a table test states the whole rule.

import { TLS_FAILURE } from './network.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/** Methods the service may receive twice without harm. */
export const IDEMPOTENT: ReadonlySet<Method> = new Set<Method>(['GET', 'HEAD', 'PUT', 'DELETE']);
/** Gateway statuses that a second attempt may get past. */
export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([502, 503, 504]);
/** The code of a JSON exchange that outlasted --timeout as a whole (see ExchangeDeadline in client.ts). */
export const EXCHANGE_TIMEOUT = 'FORMCTL_EXCHANGE_TIMEOUT';
/** Network failures that happen before a request reaches the service: retrying them sends it once. */
export const BEFORE_SEND_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
/** Attempts for a 5xx or a network failure; a 429 gets MAX_ATTEMPTS + EXTRA_429_ATTEMPTS (--max-wait bounds it first). */
export const MAX_ATTEMPTS = 5;
export const EXTRA_429_ATTEMPTS = 100;
/**
 * Network failures that are not retried: a timeout already cost the user's whole --timeout (five
 * attempts would take five times that, far past --max-wait), and a host that does not resolve
 * will not resolve a second later. EAI_AGAIN (temporary DNS failure) is retried.
 */
export const NOT_RETRIED_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ENOTFOUND',
  EXCHANGE_TIMEOUT,
  // A port the fetch standard blocks: refused before any connection, every time.
  'FETCH_BAD_PORT',
  // Node's permission model (--permission without --allow-net) refuses every connection alike.
  'ERR_ACCESS_DENIED',
]);
/**
 * A request the HTTP library refuses to send, before anything goes out: a header name or value that
 * is not valid HTTP (node:http's ERR_INVALID_CHAR, ERR_HTTP_INVALID_HEADER_VALUE and
 * ERR_INVALID_HTTP_TOKEN; undici's UND_ERR_INVALID_ARG on the fetch path). Formctl's own input, not
 * the service's answer.
 */
export const REFUSED_TO_SEND = /^(UND_ERR_INVALID_ARG|ERR_INVALID_CHAR|ERR_HTTP_INVALID_HEADER_VALUE|ERR_INVALID_HTTP_TOKEN)$/;
/**
 * Malformed HTTP (a garbage status line, a bare CR: undici's HTTPParserError; a body that does not
 * match its Content-Length, e.g. two conflicting ones) and a request the HTTP library refuses to
 * send (REFUSED_TO_SEND): the same bytes come back, or are refused, again, so these are final (docs/security.md).
 */
export const PROTOCOL_ERROR = new RegExp(`^(HPE_|UND_ERR_RES_CONTENT_LENGTH_MISMATCH$)|${REFUSED_TO_SEND.source}`);

/** How one attempt ended, as far as retrying cares. */
export type AttemptOutcome =
  /** The service answered with a status that is neither success nor accepted by the caller. */
  | { kind: 'status'; status: number; /** The wait the service asked for (Retry-After, X-RateLimit-Reset). */ retryAfterMs?: number }
  /** No answer: the network failed (code from the socket or undici). */
  | { kind: 'network'; code?: string; /** The request may have reached the service (not one of BEFORE_SEND_CODES). */ sent: boolean; loopback: boolean };

export interface RetryInput {
  method: Method;
  /** The attempt that just ended, from 1. */
  attempt: number;
  outcome: AttemptOutcome;
  /** `retry: 'never-after-send'`: a request that may have reached the service is not sent again. */
  onceOnly: boolean;
  /** The backoff for this attempt when the service asks for no wait (the caller draws its jitter). */
  backoffMs: number;
  /** How much more the command may wait (--max-wait minus what it already waited); negative: never wait. */
  waitLeftMs: number;
}

export type GiveUpReason =
  /** The status or failure is final by nature (4xx, TLS, malformed HTTP, a timeout, a POST's 5xx). */
  | 'final'
  /** A request sent once only may have reached the service. */
  | 'may-have-applied'
  /** MAX_ATTEMPTS reached. */
  | 'attempts'
  /** The wait needed is longer than --max-wait leaves. */
  | 'max-wait';

export type RetryDecision =
  | { retry: true; delayMs: number; /** The attempt just ended may have been carried out (its answer was an error or lost). */ mayHaveApplied: boolean }
  | { retry: false; reason: GiveUpReason };

/** The retry rule (docs/security.md, "Retries"). */
export function retryDecision(i: RetryInput): RetryDecision {
  const o = i.outcome;
  if (o.kind === 'network') {
    if (i.onceOnly && o.sent) return { retry: false, reason: 'may-have-applied' };
    const code = o.code ?? '';
    const retryable =
      IDEMPOTENT.has(i.method) &&
      !NOT_RETRIED_CODES.has(code) &&
      !TLS_FAILURE.test(code) &&
      !PROTOCOL_ERROR.test(code) &&
      // Nothing listens on that local port: waiting will not change that (a sandbox not started).
      !(code === 'ECONNREFUSED' && o.loopback);
    return within(i, retryable, MAX_ATTEMPTS, i.backoffMs, o.sent);
  }
  // A 429 is refused before the service acts, whatever the method; a 5xx may come after it did.
  const limited = o.status === 429;
  const retryable = limited || (RETRYABLE_STATUS.has(o.status) && IDEMPOTENT.has(i.method) && !i.onceOnly);
  const delay = o.retryAfterMs ?? i.backoffMs;
  return within(i, retryable, MAX_ATTEMPTS + (limited ? EXTRA_429_ATTEMPTS : 0), delay, !limited);
}

function within(i: RetryInput, retryable: boolean, maxAttempts: number, delayMs: number, mayHaveApplied: boolean): RetryDecision {
  if (!retryable) return { retry: false, reason: 'final' };
  if (i.attempt >= maxAttempts) return { retry: false, reason: 'attempts' };
  if (delayMs > i.waitLeftMs) return { retry: false, reason: 'max-wait' };
  return { retry: true, delayMs, mayHaveApplied };
}
