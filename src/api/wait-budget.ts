/**
 * --max-wait for a whole command: the time it spends waiting, for retry backoffs and for the shared
 * rate budget, added up over all its requests. One per command, shared by every ApiClient it makes.
 *
 * Waits of concurrent requests (a bulk run sends several at once) count once where they overlap:
 * what is bounded is the command's time spent waiting, as a person at the terminal sees it, not
 * the sum of each request's waits. `never` (shell completion) allows no wait at all.
 */
export class WaitBudget {
  private spent = 0;
  private active = 0;
  /** When the waits under way end, on the budget's clock. */
  private activeUntil = 0;

  constructor(
    readonly maxWaitMs: number,
    private readonly now: () => number = Date.now,
    readonly never = false,
  ) {}

  /** The longest wait that may start now: what is left, plus what the waits under way already cover. */
  left(): number {
    if (this.never) return Number.NEGATIVE_INFINITY;
    const covered = this.active > 0 ? Math.max(0, this.activeUntil - this.now()) : 0;
    return this.maxWaitMs - this.spent + covered;
  }

  /** The time waited so far, in ms. */
  waited(): number {
    return this.spent;
  }

  /**
   * Counts a wait of `ms` that starts now (the caller checked it against left()), and returns the
   * function to call when it is over, early or not.
   */
  begin(ms: number): () => void {
    const t = this.now();
    const end = t + ms;
    this.spent += this.active > 0 ? Math.max(0, end - Math.max(t, this.activeUntil)) : ms;
    this.activeUntil = this.active > 0 ? Math.max(this.activeUntil, end) : end;
    this.active++;
    let done = false;
    return () => {
      if (!done) this.active--;
      done = true;
    };
  }
}
