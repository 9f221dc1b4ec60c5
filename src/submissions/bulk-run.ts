import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import { ApiError, NetworkError, UnauthorizedError } from '../api/errors.js';
import type { Form } from '../api/forms.js';
import type { NormalizedSubmission } from '../api/normalize.js';
import type { Pacer } from '../api/ratelimit.js';
import { updateSubmission } from '../api/submissions.js';
import { InterruptedError } from '../errors.js';
import { write } from '../io/iostreams.js';
import { buildUpdateBody, patchApplied } from './answers.js';
import { type Parsed, parseLine, sniffId } from './bulk-input.js';
import { type LineResult, type ResumeLog, inputHash, isDone, resumeKey } from './bulk-log.js';
import type { SubmissionIndex } from './lookup.js';
import { type SubmissionRef, numericIdOf, uuidOf } from './ref.js';

// The line-by-line run of a bulk update: each input line parsed, its submission found in the index
// read before the run, its body built and sent under the pacer, its result recorded.

export interface BulkStats {
  ok: number;
  failed: number;
  skipped: number;
  /** Lines seen so far (including skipped and blank). */
  seen: number;
  /** Lines the resume log records as ok whose text or submission id differs now (sent again). */
  changed: number;
}

export interface BulkUpdateOptions {
  client: ApiClient;
  form: Form;
  /** The submissions the lines name, read from the list before the run. */
  index: SubmissionIndex;
  /**
   * The submission's answers as they are now, read again when the index's copy has grown old (the run
   * may take many minutes, and on the deployed service the body sends back every answer: an old copy
   * would undo changes others made meanwhile). Submissions with work of this run pending are not
   * `reusable`: their copy carries answers this run sent.
   */
  refresh?: (id: number, reusable: (id: number) => boolean) => Promise<NormalizedSubmission>;
  /** Record each line's intent (`sending`) before its request: the results go to a file that --resume reads. */
  intent?: boolean;
  input: Readable;
  /** How a line's JSON errors name the input, before ", line N" (BulkInput.lines); without it, "the line". */
  lines?: string;
  concurrency: number;
  pacer: Pick<Pacer, 'take' | 'observe'>;
  dryRun?: boolean;
  /** NDJSON results sink. */
  results: Writable;
  /** Lines already done by an earlier run (--resume). */
  done?: ResumeLog;
  signal?: AbortSignal;
  onProgress?: (s: BulkStats) => void;
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  // Field errors come on following lines; keep them, joined, so one result stays one line.
  return msg
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .join('; ');
}

/**
 * Runs the updates line by line with up to `concurrency` requests in flight, each started only when
 * the pacer allows. The input is read lazily and a failed line never stops the others. A 401 stops
 * the run: no later line could succeed. So does a connection failure (the service is gone or
 * unreachable): the line it hit and those waiting are recorded `interrupted`, not failed, so that
 * --resume sends them again. Ctrl-C stops reading, lets the results of finished lines be written,
 * and throws InterruptedError.
 *
 * Each body is built from the submission's answers read before the run, updated as lines apply; lines
 * naming the same submission go one after the other, so a later one never sends back an older answer.
 */
export async function runBulkUpdate(o: BulkUpdateOptions): Promise<BulkStats> {
  const run = new BulkRun(o);
  await run.readInput();
  return run.result();
}

/** The line a result is about: its number, the submission as the line names it, the numeric id sent to. */
type LineBase = Pick<LineResult, 'line' | 'submission_id'> & { id: number };

/** One run's state: its counts, the work pending per submission, and a refused token or a lost connection that stops it. */
class BulkRun {
  readonly stats: BulkStats = { ok: 0, failed: 0, skipped: 0, seen: 0, changed: 0 };
  /** The last line's work per submission id. */
  private readonly tails = new Map<number, Promise<void>>();
  private fatal: UnauthorizedError | NetworkError | undefined;

  constructor(private readonly o: BulkUpdateOptions) {}

  /** Ctrl-C, a refused token or a lost connection: no more lines are started. */
  private get stopped(): boolean {
    return !!this.o.signal?.aborted || this.fatal !== undefined;
  }

  /** Reads the input lazily, starting each line's work with at most `concurrency` in flight, and waits for them all. */
  async readInput(): Promise<void> {
    const inflight = new Set<Promise<void>>();
    const rl = createInterface({ input: this.o.input, crlfDelay: Number.POSITIVE_INFINITY });
    let n = 0;
    try {
      for await (const raw of rl) {
        n++;
        this.stats.seen = n;
        if (this.stopped) break;
        const text = raw.trim();
        if (text === '' || this.skipDone(n, text)) continue;
        while (inflight.size >= this.o.concurrency) await Promise.race(inflight);
        if (this.stopped) break;
        // Parsed with as many spaces as the line had in front, so an error's column is the file's.
        const p: Promise<void> = this.handle(n, text, raw.length - raw.trimStart().length).finally(() => inflight.delete(p));
        inflight.add(p);
      }
    } finally {
      rl.close();
      await Promise.allSettled(inflight);
    }
  }

  /** The counts, or why the run stopped: a refused token, a lost connection, or Ctrl-C. */
  result(): BulkStats {
    if (this.fatal) throw this.fatal;
    if (this.o.signal?.aborted) throw new InterruptedError();
    return this.stats;
  }

  /** Whether an earlier run (--resume) finished this line as it reads now; a line it finished that reads differently is counted as changed. */
  private skipDone(n: number, text: string): boolean {
    const state = isDone(this.o.done, n, text);
    if (state === 'done') {
      this.stats.skipped++;
      this.o.onProgress?.(this.stats);
      return true;
    }
    if (state === 'changed') this.stats.changed++;
    return false;
  }

  private async record(r: LineResult, text: string): Promise<void> {
    r.input_hash = inputHash(text);
    if (r.status === 'ok' || r.status === 'dry-run') this.stats.ok++;
    else if (r.status === 'failed') this.stats.failed++;
    await write(this.o.results, JSON.stringify(r) + '\n');
    if (r.status !== 'sending') this.o.onProgress?.(this.stats);
  }

  /**
   * A request of the line's failed: interrupted (Ctrl-C, or the service could not be reached: the
   * run stops and --resume sends the line again), or failed with the service's status; a refused
   * token stops the run too.
   */
  private async recordFailure(base: LineBase, text: string, err: unknown): Promise<void> {
    if (err instanceof InterruptedError || this.o.signal?.aborted) return this.record({ ...base, status: 'interrupted' }, text);
    if (err instanceof NetworkError) {
      this.fatal ??= err;
      return this.record({ ...base, status: 'interrupted', error: firstLine(err) }, text);
    }
    if (err instanceof UnauthorizedError) this.fatal ??= err;
    const r: LineResult = { ...base, status: 'failed', error: firstLine(err) };
    if (err instanceof ApiError) r.http_status = err.status;
    await this.record(r, text);
  }

  /** One line: parsed, its submission found, then sent after the lines before it that name the same submission. */
  private async handle(n: number, text: string, lead = 0): Promise<void> {
    let parsed: Parsed;
    try {
      parsed = parseLine(this.o.form, ' '.repeat(lead) + text, this.o.lines === undefined ? undefined : `${this.o.lines}, line ${n}`);
    } catch (err) {
      await this.record({ line: n, submission_id: sniffId(text), status: 'failed', error: firstLine(err) }, text);
      return;
    }
    const target = this.locate(parsed);
    if ('error' in target) {
      await this.record({ line: n, submission_id: parsed.label, status: 'failed', error: target.error }, text);
      return;
    }
    const { item, id } = target;
    await this.inTurn(id, async () => {
      if (this.stopped) await this.record({ line: n, submission_id: parsed.label, id, status: 'interrupted' }, text);
      else await this.send(n, text, parsed, item, id);
    });
  }

  /** The submission a line names, from the index read before the run, or why the line cannot be sent. */
  private locate(parsed: Parsed): { item: NormalizedSubmission; id: number } | { error: string } {
    const item = this.find(parsed.ref);
    const id = item && numericIdOf(item);
    const formId = this.o.form.id;
    if (!item || id === undefined) {
      return {
        error: this.o.index.incomplete
          ? `submission ${parsed.label} was not found in the submission list of form ${formId}, which could not be read whole (the service counts more submissions than could be read), so it may exist; nothing was sent for this line`
          : `form ${formId} has no submission ${parsed.label} (it is not in \`formctl submission list ${formId}\`)`,
      };
    }
    // A line whose `id` and `submission_id` name two submissions cannot say which one it means.
    const also = parsed.also;
    if (also && !(also.ref?.kind === 'id' ? also.ref.id === id : also.ref?.kind === 'uuid' && uuidOf(item) === also.ref.uuid)) {
      return { error: `"id" ${parsed.label} and "submission_id" ${also.label} name different submissions; nothing was sent for this line` };
    }
    return { item, id };
  }

  private find(ref: SubmissionRef): NormalizedSubmission | undefined {
    const id = ref.kind === 'id' ? ref.id : this.o.index.byUuid.get(ref.uuid);
    return id === undefined ? undefined : this.o.index.byId.get(id);
  }

  /** Runs `work` after the work of the lines before that name the same submission, so a later line never sends back an older answer. */
  private async inTurn(id: number, work: () => Promise<void>): Promise<void> {
    const prev = this.tails.get(id);
    const mine = (async () => {
      if (prev) await prev;
      await work();
    })();
    this.tails.set(id, mine);
    await mine;
    if (this.tails.get(id) === mine) this.tails.delete(id);
  }

  /** Builds the line's body on the submission's current answers and sends it (or records it, in a dry run). */
  private async send(n: number, text: string, parsed: Parsed, listed: NormalizedSubmission, id: number): Promise<void> {
    const base: LineBase = { line: n, submission_id: parsed.label, id };
    const item = await this.current(base, text, listed, id);
    if (!item) return;
    let body: ReturnType<typeof buildUpdateBody>['body'];
    try {
      ({ body } = buildUpdateBody(this.o.form, item, parsed.data));
    } catch (err) {
      // A value the line cannot send (a file the submission does not hold): that line fails, nothing sent.
      await this.record({ ...base, status: 'failed', error: firstLine(err) }, text);
      return;
    }
    if (this.o.dryRun) {
      await this.record({ ...base, status: 'dry-run', data: parsed.data, body }, text);
      return;
    }
    if (this.o.done?.inflight.has(resumeKey(n, parsed.label, inputHash(text))) && patchApplied(item, parsed.data)) {
      // An earlier run sent this line and died before recording it; its values are in place.
      await this.record({ ...base, status: 'ok', already_applied: true }, text);
      return;
    }
    await this.put(base, text, item, parsed.data, body);
  }

  /** The submission's answers to build on: read again when the index's copy is old (see `refresh`); undefined when that failed (recorded). */
  private async current(base: LineBase, text: string, listed: NormalizedSubmission, id: number): Promise<NormalizedSubmission | undefined> {
    const item = this.o.index.byId.get(id) ?? listed;
    if (!this.o.refresh || this.o.dryRun) return item;
    try {
      return await this.o.refresh(id, (sid) => !this.tails.has(sid));
    } catch (err) {
      await this.recordFailure(base, text, err);
      return undefined;
    }
  }

  /** The PUT, when the pacer allows, with the line's intent recorded first (for --resume); the copy then carries the values sent. */
  private async put(base: LineBase, text: string, item: NormalizedSubmission, data: Record<string, unknown>, body: Record<string, unknown>): Promise<void> {
    const o = this.o;
    try {
      await o.pacer.take(o.signal);
      if (o.intent) await this.record({ ...base, status: 'sending' }, text);
      await updateSubmission(o.client, o.form.id, base.id, body, o.signal);
      o.pacer.observe(o.client.rateLimit);
      item.data = { ...item.data, ...data };
      await this.record({ ...base, status: 'ok' }, text);
    } catch (err) {
      o.pacer.observe(o.client.rateLimit);
      await this.recordFailure(base, text, err);
    }
  }
}
