import type { RateLimitState } from '../api/client.js';

/** Paces requests under a per-minute limit. Same shape as the shared `src/api/ratelimit.ts` pacer, so it can be swapped in. */
export interface Pacer {
  /** Resolves when the next request may start. */
  take(): Promise<void>;
  /** Learns from the last response's X-RateLimit-* headers (a lower server limit wins; an exhausted window waits for reset). */
  observe(rl: RateLimitState): void;
  /** Current pace in requests per minute. */
  readonly perMinute: number;
}

export interface PacerOptions {
  limitPerMinute: number;
  /**
   * Fraction of the limit actually used. The service counts in fixed 60 s windows (research §5,
   * sandbox ratelimit.ts) that open at an arbitrary request, and other requests (the form lookup,
   * another terminal) share the same budget, so running at exactly the limit can still see a 429.
   */
  headroom?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A token bucket of capacity one: requests are spaced evenly at 60 000 / rate ms. No burst is
 * allowed because a burst at the end of one fixed window plus the steady rate in the next would
 * exceed the limit inside a single window.
 */
export function createPacer(o: PacerOptions): Pacer {
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const headroom = o.headroom ?? 1;
  let limit = o.limitPerMinute;
  let next = Number.NEGATIVE_INFINITY;
  const interval = () => 60_000 / (limit * headroom);
  return {
    get perMinute() {
      return limit * headroom;
    },
    async take() {
      const t = now();
      const slot = Math.max(t, next);
      next = slot + interval();
      if (slot > t) await sleep(slot - t);
    },
    observe(rl) {
      if (rl.limit !== undefined && rl.limit > 0 && rl.limit < limit) limit = rl.limit;
      if (rl.remaining === 0 && rl.resetAt !== undefined && rl.resetAt > now()) next = Math.max(next, rl.resetAt);
    },
  };
}
