import { InterruptedError } from '../errors.js';
import { abortableSleep } from '../sleep.js';
import type { RateLimitState } from './client.js';

const MINUTE_MS = 60_000;

export interface PacerOptions {
  /** The service's limit per minute (100 by default on the real service); retuned by observe(). */
  limitPerMinute: number;
  /** Requests that may go at once before pacing starts. Default 1: bulk jobs gain nothing from a burst. */
  burst?: number;
  /** Clock in ms, injected by tests. */
  now?: () => number;
  /** Waits ms; injected by tests so nothing really waits. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface Pacer {
  /**
   * Resolves when the next request may be sent. Call it once before every request. Concurrent
   * callers are queued fairly: each call reserves the next free slot at once, then waits for it.
   * Rejects with InterruptedError (exit 130) when `signal` aborts while waiting.
   */
  take(signal?: AbortSignal): Promise<void>;
  /**
   * Feeds what the client learned from the last answer (`client.rateLimit`): a different
   * `X-RateLimit-Limit` retunes the pace; `X-RateLimit-Remaining` 0 holds further requests
   * until the window resets (`resetAt`, when known) or at least one more interval.
   */
  observe(state: RateLimitState): void;
  /** The limit the pacer currently paces for. */
  readonly limitPerMinute: number;
  /** Requests per minute the pacer lets through (a little under the limit, see createPacer). */
  readonly ratePerMinute: number;
}

/**
 * A token-bucket pacer that keeps a bulk job under the service's rate limit, so a long run never
 * sees a 429 (the client still honours Retry-After if one comes, e.g. when another process shares
 * the quota).
 *
 * The service counts requests in a fixed 60 s window (100 per minute by default). A bucket of
 * `burst` tokens refilled at `rate` per minute lets at most `burst + rate` requests into any 60 s
 * span, so the rate is set to leave room for the burst and for network jitter: 95 % of the
 * limit, and never more than `limit - burst - 1`. That is 95/min against the default 100 and
 * 5 700/min against a 6 000/min sandbox. Implemented as GCRA (a "virtual scheduling" token
 * bucket): one timestamp, O(1) per take, no timers while idle.
 *
 * Usage (bulk updates):
 *
 *     const pacer = createPacer({ limitPerMinute: client.rateLimit.limit ?? 100 });
 *     for (const item of items) {
 *       await pacer.take(f.signal);
 *       await updateSubmission(client, item);
 *       pacer.observe(client.rateLimit);
 *     }
 */
export function createPacer(o: PacerOptions): Pacer {
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? abortableSleep;
  const wantedBurst = Math.max(1, Math.floor(o.burst ?? 1));
  let limit = validLimit(o.limitPerMinute);
  let burst = burstFor(limit, wantedBurst);
  let rate = rateFor(limit, burst);
  let interval = MINUTE_MS / rate;
  /** GCRA's theoretical arrival time: when the bucket will be full again. */
  let tat = -Infinity;

  const pacer: Pacer = {
    async take(signal) {
      if (signal?.aborted) throw new InterruptedError();
      const t = now();
      const start = Math.max(t, tat);
      // With a full bucket the request goes now; otherwise it waits for its slot.
      const sendAt = Math.max(t, start - (burst - 1) * interval);
      tat = start + interval;
      const wait = sendAt - t;
      if (wait > 0) await sleep(wait, signal);
      if (signal?.aborted) throw new InterruptedError();
    },
    observe(state) {
      if (state.limit !== undefined && Number.isFinite(state.limit) && state.limit > 0 && state.limit !== limit) {
        limit = validLimit(state.limit);
        burst = burstFor(limit, wantedBurst);
        rate = rateFor(limit, burst);
        interval = MINUTE_MS / rate;
      }
      if (state.remaining !== undefined && state.remaining <= 0) {
        // Out of quota in the server's window: no token until it resets.
        const t = now();
        const resumeAt = state.resetAt !== undefined && state.resetAt > t ? state.resetAt : t + interval;
        tat = Math.max(tat, resumeAt + (burst - 1) * interval);
      }
    },
    get limitPerMinute() {
      return limit;
    },
    get ratePerMinute() {
      return rate;
    },
  };
  return pacer;
}

function validLimit(n: number): number {
  if (!Number.isFinite(n) || n <= 0) throw new RangeError(`limitPerMinute must be a positive number, got ${n}`);
  return n;
}

/** A burst above a quarter of the limit would leave too little for the steady rate. */
function burstFor(limit: number, wanted: number): number {
  return Math.max(1, Math.min(wanted, Math.floor(limit / 4)));
}

/** 95 % of the limit, at most limit − burst − 1, and never below half the limit (tiny limits). */
function rateFor(limit: number, burst: number): number {
  return Math.max(limit / 2, Math.min(limit * 0.95, limit - burst - 1));
}
