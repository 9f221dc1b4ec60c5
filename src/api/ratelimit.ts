import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { nameKey } from '../name-key.js';
import { InterruptedError } from '../errors.js';
import { abortableSleep } from '../sleep.js';

const MINUTE_MS = 60_000;

/**
 * The service's limiters (docs/security.md, "One rate budget per machine"): `general` counts every
 * request of a user to `/open/` (100 a minute on the deployed service); `export` is the export POST's
 * own bucket on top of it (10 a minute there); `external` is the `/external/` routes' limiter
 * (`GET /external/zapier/validate`, 60 a minute per user), which is not the general one: those
 * requests are not counted against `general` (docs/service.md, "Who am I").
 */
export type RateBucket = 'general' | 'export' | 'external';

/** Buckets whose requests the service does not also count in the general limiter. */
export const SEPARATE_BUCKETS: ReadonlySet<RateBucket> = new Set<RateBucket>(['external']);

/** What the client last learned from X-RateLimit-* headers. */
export interface RateLimitState {
  limit?: number;
  remaining?: number;
  /** ms epoch when the window resets, when the server says. */
  resetAt?: number;
}

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
   * until the window resets (`resetAt`, when known) or at least one more interval; a few left
   * with a known reset are spread until it. (Across processes, and when the service gives no
   * reset time, the client's SharedBudget paces from Remaining too.)
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
      } else if (state.remaining !== undefined && state.resetAt !== undefined && state.resetAt > now()) {
        // What is left of the server's window, spread until it resets: a run that starts where
        // another one (or a --resume) left off does not spend the rest at once and meet 429.
        const t = now();
        const gap = (state.resetAt - t) / state.remaining;
        if (gap > interval) tat = Math.max(tat, t + gap + (burst - 1) * interval);
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

/**
 * The rate budget shared by every formctl process on this machine that talks to one service as
 * one user (docs/security.md, "One rate budget per machine"). The service counts requests per user
 * in a fixed 60 s window; a CI job running exports in parallel, or a completion while a bulk run
 * works, must stay under that limit together. A small JSON file per origin, token and limiter bucket
 * (named by a hash, never holding the token) in the cache directory records (the deployed service's
 * export route has a bucket of its own, 10 a minute, on top of the general 100: docs/security.md):
 *
 * - the limit the service announced (X-RateLimit-Limit); until one is known nothing is paced;
 * - the send times of the last 60 s, so that together the processes send at most
 *   `budgetFor(limit)` requests in any 60 s (a sliding window is stricter than the service's fixed one);
 * - the last X-RateLimit-Remaining and when it was seen: what other clients (another machine, a
 *   run that just ended) already used of this window. Until the window resets (X-RateLimit-Reset, or
 *   60 s after the observation when the service does not say), no more than that is sent;
 * - the end of a 429's Retry-After, which holds every process.
 *
 * Each change happens under proper-lockfile's lock, held for a read and a write. Anything wrong
 * with the file or the lock (a read-only cache, a full disk) turns pacing off for that request
 * rather than failing the command: the client still honours 429 and Retry-After.
 */
export interface BudgetFile {
  v: 1;
  limit?: number;
  /**
   * Reserved sends as [second (ms epoch, a multiple of 1000), count], ascending, within the last
   * 60 s or ahead: a few hundred bytes even at thousands of requests a minute.
   */
  sent: Array<[number, number]>;
  remaining?: number;
  /** When `remaining` was seen. */
  remainingAt?: number;
  /**
   * Sends recorded in `remainingAt`'s second and after when the observation reached the file,
   * less the one that brought it: the service had already counted them in `remaining`.
   */
  remainingBase?: number;
  /** When the service's window resets, if it said. */
  resetAt?: number;
  /** No request before this (a 429's Retry-After). */
  blockedUntil?: number;
}

/** What take() decided: send now, wait `waitMs` (the slot is reserved), or refused (nothing reserved). */
export interface BudgetSlot {
  waitMs: number;
  /** The wait was longer than allowed: no slot was reserved. */
  refused?: boolean;
  /** A slot was recorded in the file (false when no limit is known yet, or the file is unusable). */
  reserved: boolean;
  /** When the recorded slot is (ms epoch), for `release` if the request is not sent after all. */
  at?: number;
}

/** How long slots reserved ahead stay usable: the file counts them in the second they were reserved. */
const LEASE_MS = 1_000;
const MAX_LEASE = 16;

/** The requests formctl lets into any 60 s: a little under the limit, for requests in flight and clock jitter. */
export function budgetFor(limit: number): number {
  return Math.max(1, Math.min(Math.floor(limit * 0.95), limit - 2));
}

export class SharedBudget {
  readonly file: string;
  private readonly now: () => number;
  /** An observation not yet written (only notable ones are written at once; see observe). */
  private pending?: Partial<BudgetFile>;

  /** The service's limiter this file counts for: `general` (every `/open/` request), `export` (the export POST's own bucket) or `external`. */
  readonly bucket: RateBucket;

  constructor(dir: string, origin: string, token: string, o: { now?: () => number; debug?: (line: string) => void; bucket?: RateBucket } = {}) {
    this.bucket = o.bucket ?? 'general';
    // The file is named by a key of origin, token and bucket (src/name-key.ts; docs/security.md, "One
    // rate budget per machine"): never the token, and no module to load for it. Two with one key
    // share a budget, which paces them together: slower, never over a limit.
    this.file = join(dir, `${nameKey(`${origin}\0${token}\0${this.bucket}`)}.json`);
    this.now = o.now ?? Date.now;
    this.debug = o.debug;
  }

  private readonly debug?: (line: string) => void;

  /**
   * Reserves the next slot for one request and says how long to wait for it. With `maxWaitMs`,
   * a slot further away is not reserved (`refused`): the caller gives up without sending.
   */
  async take(maxWaitMs = Number.POSITIVE_INFINITY): Promise<BudgetSlot> {
    // Slots reserved ahead by this process's last turn at the file (see below), while fresh.
    const t = this.now();
    while (this.lease.length > 0 && this.lease[0]! < t - LEASE_MS) this.lease.shift();
    if (this.lease.length > 0) {
      this.lease.shift();
      return { waitMs: 0, reserved: true };
    }
    // No file: no limit known yet, nothing to share (and no lock to pay for).
    if (!this.pending && !existsSync(this.file)) return { waitMs: 0, reserved: false };
    // A process sending many requests a second (a bulk run) reserves a few at each turn, so the
    // file is read and written less often; unused ones stay counted, which only errs on the safe side.
    this.leaseSize = t - this.lastTurn < LEASE_MS ? Math.min(this.leaseSize * 2, MAX_LEASE) : 1;
    this.lastTurn = t;
    return (
      (await this.locked<BudgetSlot>((state) => {
        const now = this.now();
        if (this.pending) merge(state, this.pending);
        this.pending = undefined;
        if (state.limit === undefined) return { result: { waitMs: 0, reserved: false }, write: true };
        const budget = budgetFor(state.limit);
        const lease = Math.min(this.leaseSize, Math.max(1, Math.floor(budget / 20)));
        let first: BudgetSlot | undefined;
        for (let i = 0; i < lease; i++) {
          const slot = this.nextSlot(state, now, budget);
          const waitMs = slot - now;
          if (i === 0) {
            if (waitMs > 0 && waitMs > maxWaitMs) return { result: { waitMs, refused: true, reserved: false }, write: false };
            first = { waitMs, reserved: true, at: slot };
          } else if (waitMs > 0)
            break; // Extra slots only when free now.
          else this.lease.push(now);
          record(state.sent, slot);
        }
        return { result: first!, write: true };
      })) ?? { waitMs: 0, reserved: false }
    );
  }

  /** The earliest time the file's state allows one more send. */
  private nextSlot(state: BudgetFile, now: number, budget: number): number {
    let slot = Math.max(now, freeSlot(state.sent, budget));
    if (state.remaining !== undefined && state.remainingAt !== undefined) {
      const resetAt = state.resetAt !== undefined && state.resetAt > state.remainingAt ? state.resetAt : state.remainingAt + MINUTE_MS;
      // Sent since the observation, by any process: the service counts them in the same window.
      // Sends are recorded per second: those of the observation's second already in the file when
      // it arrived are taken as counted by the service (remainingBase), except the request that
      // brought it, which counts again: that is the margin for a request in flight.
      const since = sentSince(state) - (state.remainingBase ?? 0);
      if (now < resetAt && since >= state.remaining) slot = Math.max(slot, resetAt);
    }
    if (state.blockedUntil !== undefined) slot = Math.max(slot, state.blockedUntil);
    return slot;
  }

  private lease: number[] = [];
  private leaseSize = 1;
  private lastTurn = Number.NEGATIVE_INFINITY;

  /**
   * Learns from an answer's X-RateLimit-* (and a 429's wait). A first or changed limit, a
   * remaining budget running low and a 429 are written at once, for the other processes;
   * the rest waits for this process's next take().
   */
  async observe(state: RateLimitState, o: { sentAt: number; status: number; retryAfterMs?: number; reserved: boolean }): Promise<void> {
    if (state.limit === undefined && o.status !== 429) return;
    const now = this.now();
    const seen: Partial<BudgetFile> = { ...this.pending };
    if (state.remaining !== undefined) {
      seen.remaining = state.remaining;
      seen.remainingAt = now;
      seen.resetAt = state.resetAt;
    }
    if (o.status === 429) {
      seen.blockedUntil = now + (o.retryAfterMs ?? MINUTE_MS);
      this.lease = [];
    }
    const urgent = o.status === 429 || !o.reserved || (state.remaining !== undefined && state.limit !== undefined && state.remaining < state.limit / 4);
    if (!urgent) {
      this.pending = { ...seen, limit: state.limit };
      return;
    }
    this.pending = undefined;
    await this.locked((file) => {
      const changed = file.limit !== state.limit;
      // The first request of a process that found no file was not reserved: count it now.
      if (!o.reserved) record(file.sent, o.sentAt);
      merge(file, seen);
      if (state.limit !== undefined) file.limit = state.limit;
      if (changed) this.debug?.(`rate budget: ${this.bucket} limit ${state.limit}/min shared through ${this.file}`);
      return { result: undefined, write: true };
    });
  }

  /**
   * Gives back a slot take() recorded for a request that is not sent after all (Ctrl-C while it
   * waited for it): left in the file, a slot reserved up to a minute ahead would hold every process
   * sharing the budget as if the request had gone. Never throws.
   */
  async release(at: number): Promise<void> {
    await this.locked((state) => ({ result: undefined, write: unrecord(state.sent, at) }));
  }

  /** This process's turns at the file, one at a time: concurrent requests (bulk workers) queue here, not on the lock's retries. */
  private turn: Promise<unknown> = Promise.resolve();

  /** Runs `change` on the file's state under the lock; undefined when the file or lock is unusable. */
  private locked<R>(change: (state: BudgetFile) => { result: R; write: boolean }): Promise<R | undefined> {
    const mine = this.turn.then(() => this.lockedNow(change));
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  private async lockedNow<R>(change: (state: BudgetFile) => { result: R; write: boolean }): Promise<R | undefined> {
    let release: (() => Promise<void>) | undefined;
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      // Far from the limit, a one-request command (most of them) skips the lock and its 3-5 ms of
      // loading and locking (dist/cli/lockfile.cjs, docs/performance.md): a count lost to two processes
      // writing at the same moment cannot matter while less than half the budget is used. Near the
      // limit every change is made under the lock.
      let state = readBudget(this.file, this.now());
      let created = false;
      if (!calm(state)) {
        created = !existsSync(this.file);
        const { lock } = await import('proper-lockfile');
        release = await lock(this.file, {
          realpath: false,
          stale: 5_000,
          retries: { retries: 100, minTimeout: 5, maxTimeout: 40, factor: 1.3 },
          onCompromised: () => undefined,
        });
        // Read again under the lock: another process may have written since the peek.
        state = readBudget(this.file, this.now());
      }
      const { result, write } = change(state);
      if (write) writeBudget(this.file, state);
      // A new key's first write (a new token, origin or upgrade, so rare) clears out the files nobody has written for a day.
      if (write && created) pruneBudgets(dirname(this.file), this.file);
      return result;
    } catch (err) {
      this.debug?.(`rate budget unavailable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); not pacing this request`);
      return undefined;
    } finally {
      await release?.().catch(() => undefined);
    }
  }
}

/** Sends recorded in the second of the last Remaining observation and after. */
function sentSince(state: BudgetFile): number {
  if (state.remainingAt === undefined) return 0;
  return state.sent.reduce((n, [sec, count]) => (sec + 1000 > state.remainingAt! ? n + count : n), 0);
}

/** Takes an observation into the file's state; a new Remaining gets its base (see BudgetFile.remainingBase). */
function merge(state: BudgetFile, seen: Partial<BudgetFile>): void {
  Object.assign(state, seen);
  if (seen.remaining !== undefined) state.remainingBase = Math.max(0, sentSince(state) - 1);
}

/** How long a budget file no process writes is kept: its sends, Remaining and 429 wait are long past by then. */
const BUDGET_KEPT_MS = 86_400_000;

/**
 * Removes the budget files of `dir` that no process has written for BUDGET_KEPT_MS, but `keep`:
 * those of tokens no longer used, and those an older formctl named by a SHA-256 (docs/security.md,
 * "One rate budget per machine"). File times are the machine's clock, not the injected one. Never throws.
 */
function pruneBudgets(dir: string, keep: string): void {
  try {
    const before = Date.now() - BUDGET_KEPT_MS;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name.endsWith('.json') && path !== keep && statSync(path).mtimeMs < before) unlinkSync(path);
    }
  } catch {
    // A file left behind costs a few hundred bytes.
  }
}

/** Written whole and renamed over (a reader never sees half a file), without fsync: it is on every request's path, and a lost write only forgets some pacing. */
function writeBudget(file: string, state: BudgetFile): void {
  writeFileAtomicSync(file, JSON.stringify(state));
}

/** Less than half the budget used, no low Remaining and no 429 to honour: no lock needed (see lockedNow). */
function calm(state: BudgetFile): boolean {
  if (state.limit === undefined || state.limit < 60 || state.blockedUntil !== undefined) return false;
  if (state.remaining !== undefined && state.remaining <= state.limit / 2) return false;
  return state.sent.reduce((n, [, count]) => n + count, 0) < budgetFor(state.limit) / 2;
}

function readBudget(file: string, now: number): BudgetFile {
  let raw: Partial<BudgetFile> | undefined;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<BudgetFile>;
  } catch {
    raw = undefined;
  }
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const state: BudgetFile = { v: 1, sent: [] };
  if (!raw || typeof raw !== 'object') return state;
  const limit = num(raw.limit);
  if (limit !== undefined && limit > 0) state.limit = limit;
  // Only the last 60 s matter; a clock that jumped far ahead must not block for long either.
  state.sent = (Array.isArray(raw.sent) ? raw.sent : [])
    .filter(
      (e): e is [number, number] =>
        Array.isArray(e) && num(e[0]) !== undefined && num(e[1]) !== undefined && e[1] > 0 && e[0] + 1000 > now - MINUTE_MS && e[0] < now + 2 * MINUTE_MS,
    )
    .sort((a, b) => a[0] - b[0]);
  for (const k of ['remaining', 'remainingAt', 'remainingBase', 'resetAt', 'blockedUntil'] as const) {
    const v = num(raw[k]);
    if (v !== undefined) state[k] = v;
  }
  if (state.remainingAt !== undefined && (state.remainingAt > now + MINUTE_MS || state.remainingAt < now - 2 * MINUTE_MS)) {
    delete state.remaining;
    delete state.remainingAt;
    delete state.remainingBase;
    delete state.resetAt;
  }
  if (state.blockedUntil !== undefined && (state.blockedUntil <= now || state.blockedUntil > now + 10 * MINUTE_MS)) delete state.blockedUntil;
  return state;
}

/** Counts one send at `t` in its second. */
function record(sent: Array<[number, number]>, t: number): void {
  const sec = Math.floor(t / 1000) * 1000;
  let i = sent.length;
  while (i > 0 && sent[i - 1]![0] > sec) i--;
  if (i > 0 && sent[i - 1]![0] === sec) sent[i - 1]![1]++;
  else sent.splice(i, 0, [sec, 1]);
}

/** Takes one send out of the second of `t`; false when none is recorded there (gone from the window). */
function unrecord(sent: Array<[number, number]>, t: number): boolean {
  const sec = Math.floor(t / 1000) * 1000;
  const i = sent.findIndex(([s]) => s === sec);
  if (i < 0) return false;
  if (--sent[i]![1] <= 0) sent.splice(i, 1);
  return true;
}

/**
 * The earliest time a send keeps every 60 s span at or under `budget`: now when fewer are recorded,
 * else when enough of the oldest seconds have left the window.
 */
function freeSlot(sent: Array<[number, number]>, budget: number): number {
  let total = sent.reduce((n, [, count]) => n + count, 0);
  if (total < budget) return 0;
  for (const [sec, count] of sent) {
    total -= count;
    if (total < budget) return sec + 1000 + MINUTE_MS;
  }
  return 0;
}
