const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

/**
 * Per-IP fixed window (spec, Limits: 100 requests per minute per IP address). A client's window
 * opens with its first request and lasts 60 s; the count resets when it ends. Fixed rather than
 * sliding because it is O(1) per request and makes `Retry-After` exact.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request from `ip` and says whether it may proceed, with the headers to send. */
  hit(ip: string): RateDecision {
    const now = this.now();
    let w = this.windows.get(ip);
    if (!w || now - w.start >= WINDOW_MS) {
      if (this.windows.size > 10_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(ip, w);
    }
    w.count += 1;
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(this.limit),
      'X-RateLimit-Remaining': String(Math.max(0, this.limit - w.count)),
    };
    if (w.count <= this.limit) return { allowed: true, headers };
    const resetMs = w.start + WINDOW_MS;
    headers['Retry-After'] = String(Math.max(1, Math.ceil((resetMs - now) / 1000)));
    headers['X-RateLimit-Reset'] = String(Math.ceil(resetMs / 1000));
    return { allowed: false, headers };
  }

  private sweep(now: number): void {
    for (const [ip, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(ip);
  }
}
