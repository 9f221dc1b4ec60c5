import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import { ApiError, UnauthorizedError } from '../api/errors.js';
import type { Form } from '../api/forms.js';
import type { NormalizedSubmission } from '../api/normalize.js';
import { type SubmissionIndex, type SubmissionRef, numericIdOf, parseSubmissionRef, updateSubmission, uuidOf } from '../api/submissions.js';
import { buildUpdateBody, listRecordAnswers, patchApplied } from '../submissions/answers.js';
import { resolveData } from '../submissions/fields.js';
import { CliError, InterruptedError } from '../errors.js';
import { parseJsonObject } from '../io/files.js';
import { write } from '../io/iostreams.js';
import type { Pacer } from '../api/ratelimit.js';

/** One line's outcome, written as one NDJSON line (the results file is also the resume log). */
export interface LineResult {
  line: number;
  /** The submission as the line names it (its numeric `id` when it has one, else `submission_id`). */
  submission_id: string | null;
  /** The numeric id the update goes to (a UUID is looked up in the list). */
  id?: number;
  /**
   * `sending` is written just before the request goes out (the line's intent), so that --resume
   * can tell a line that may have been applied from one never sent; a later record of the same line
   * says how it ended.
   */
  status: 'ok' | 'failed' | 'dry-run' | 'interrupted' | 'sending';
  http_status?: number;
  error?: string;
  /** The patch, field ids resolved (dry runs only). */
  data?: Record<string, unknown>;
  /** The exact body that would be sent (dry runs only). */
  body?: Record<string, unknown>;
  /** --resume found the line's values already in place (an earlier run sent it but died before recording it), so it was not sent again. */
  already_applied?: boolean;
  /** Hash of the input line's text: --resume skips a line only if it still reads the same. */
  input_hash?: string;
}

export interface BulkStats {
  ok: number;
  failed: number;
  skipped: number;
  /** Lines seen so far (including skipped and blank). */
  seen: number;
  /** Lines the resume log records as ok whose text or submission id differs now (sent again). */
  changed: number;
}

/** What an earlier run finished, read from its results file. */
export interface ResumeLog {
  /** `resumeKey`s of lines that were ok. */
  keys: Set<string>;
  /** Line numbers that were ok (to notice lines whose text changed since). */
  lines: Set<number>;
  /** `resumeKey`s of lines that were being sent and never recorded ok: they may have been applied. */
  inflight: Set<string>;
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

/**
 * The resume key: a line counts as done only if it still names the same submission with the same
 * text, so a line edited after the run (or moved by an inserted line) is sent again, never skipped.
 * `hash` is `*` for results written before formctl recorded it.
 */
export function resumeKey(line: number, submissionId: string | null, hash: string): string {
  return `${line}:${submissionId ?? ''}:${hash}`;
}

/** Short hash of an input line (trimmed), recorded with its result. */
export function inputHash(text: string): string {
  return createHash('sha256').update(text.trim()).digest('hex').slice(0, 16);
}

interface Parsed {
  /** The id as the line gives it. */
  label: string;
  ref: SubmissionRef;
  /** The line's `submission_id` when its numeric `id` was taken: both must name the same submission. */
  also?: { label: string; ref: SubmissionRef | null };
  data: Record<string, unknown>;
}

/**
 * The id a line names: a numeric `id` wins over `submission_id` (on the deployed service
 * `submission_id` is the public UUID, which a path would read as its leading digits).
 */
function rawId(o: Record<string, unknown>): unknown {
  const numeric = (v: unknown) => (typeof v === 'number' || (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) ? v : undefined);
  return numeric(o.id) ?? o.submission_id ?? o.id;
}

/**
 * Parses one input line: `{"submission_id": "12", "<field name or id>": value, …}`, optionally with
 * the fields inside `data`; or a record as `submission list --ndjson` prints it (only keys the list
 * gives, such as `submitted_at`, answers under `data`), whose list keys are left out as `--file`
 * leaves them out.
 * Throws a CliError whose message becomes the line's `error`.
 */
export function parseLine(form: Form, text: string): Parsed {
  const obj = parseJsonObject(text, 'the line');
  const { submission_id: _sid, id: _id, data, ...fields } = obj as Record<string, unknown>;
  const raw = rawId(obj as Record<string, unknown>);
  if ((typeof raw !== 'string' && typeof raw !== 'number') || String(raw).trim() === '') {
    throw new CliError('missing "submission_id" (string or number)');
  }
  const label = String(raw).trim();
  const ref = parseSubmissionRef(raw);
  if (!ref) throw new CliError(`"${label}" is not a submission id: use the numeric id (or the UUID) that \`formctl submission list\` shows`);
  const sid = (obj as Record<string, unknown>).submission_id;
  const also =
    raw !== sid && (typeof sid === 'string' || typeof sid === 'number') && String(sid).trim() !== ''
      ? { label: String(sid).trim(), ref: parseSubmissionRef(sid) }
      : undefined;
  const parsed = parseFields(form, obj as Record<string, unknown>, fields, data);
  return { label, ref, ...(also ? { also } : {}), data: parsed };
}

/** The field values of a parsed line (see parseLine). */
function parseFields(form: Form, obj: Record<string, unknown>, fields: Record<string, unknown>, data: unknown): Record<string, unknown> {
  // A line of only `id`/`submission_id` and `data` is the plain form: its `data` is sent as written.
  const listed = Object.keys(fields).length > 0 ? listRecordAnswers(obj) : undefined;
  if (listed !== undefined) {
    const entries = Object.entries(listed);
    if (entries.length === 0) throw new CliError('no fields to update');
    return resolveData(form, entries);
  }
  const entries: Array<[string, unknown]> = Object.entries(fields);
  if (data !== undefined) {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new CliError('"data" must be an object of field values');
    entries.push(...Object.entries(data as Record<string, unknown>));
  }
  if (entries.length === 0) throw new CliError('no fields to update');
  return resolveData(form, entries);
}

/** Best effort: the submission id of a line (as it names it), also when the line fails to parse. */
export function sniffId(text: string): string | null {
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    if (!o || typeof o !== 'object') return null;
    const v = rawId(o);
    return typeof v === 'string' || typeof v === 'number' ? String(v).trim() : null;
  } catch {
    return null;
  }
}

/** The submission a line names, for the scan before the run; null when it names none. */
export function sniffRef(text: string): SubmissionRef | null {
  const id = sniffId(text);
  return id === null ? null : parseSubmissionRef(id);
}

/** Whether an earlier run (--resume) finished this line with this text. */
export function isDone(done: ResumeLog | undefined, n: number, text: string): 'done' | 'changed' | 'new' {
  if (!done?.lines.has(n)) return 'new';
  const sid = sniffId(text);
  return done.keys.has(resumeKey(n, sid, inputHash(text))) || done.keys.has(resumeKey(n, sid, '*')) ? 'done' : 'changed';
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
 * the run: no later line could succeed. Ctrl-C stops reading, lets the results of finished lines be
 * written, and throws InterruptedError.
 *
 * Each body is built from the submission's answers read before the run, updated as lines apply; lines
 * naming the same submission go one after the other, so a later one never sends back an older answer.
 */
export async function runBulkUpdate(o: BulkUpdateOptions): Promise<BulkStats> {
  const stats: BulkStats = { ok: 0, failed: 0, skipped: 0, seen: 0, changed: 0 };
  const inflight = new Set<Promise<void>>();
  /** The last line's work per submission id. */
  const tails = new Map<number, Promise<void>>();
  let fatal: UnauthorizedError | undefined;
  const record = async (r: LineResult, text: string) => {
    r.input_hash = inputHash(text);
    if (r.status === 'ok' || r.status === 'dry-run') stats.ok++;
    else if (r.status === 'failed') stats.failed++;
    await write(o.results, JSON.stringify(r) + '\n');
    if (r.status !== 'sending') o.onProgress?.(stats);
  };
  const find = (ref: SubmissionRef): NormalizedSubmission | undefined => {
    const id = ref.kind === 'id' ? ref.id : o.index.byUuid.get(ref.uuid);
    return id === undefined ? undefined : o.index.byId.get(id);
  };
  /** A request of the line's failed: interrupted (Ctrl-C), or failed with the service's status; a refused token stops the run. */
  const recordFailure = async (base: Pick<LineResult, 'line' | 'submission_id' | 'id'>, text: string, err: unknown): Promise<void> => {
    if (err instanceof InterruptedError || o.signal?.aborted) return record({ ...base, status: 'interrupted' }, text);
    if (err instanceof UnauthorizedError) fatal ??= err;
    const r: LineResult = { ...base, status: 'failed', error: firstLine(err) };
    if (err instanceof ApiError) r.http_status = err.status;
    await record(r, text);
  };
  const send = async (n: number, text: string, parsed: Parsed, listed: NormalizedSubmission, id: number): Promise<void> => {
    const base = { line: n, submission_id: parsed.label, id };
    let item = o.index.byId.get(id) ?? listed;
    if (o.refresh && !o.dryRun) {
      try {
        item = await o.refresh(id, (sid) => !tails.has(sid));
      } catch (err) {
        await recordFailure(base, text, err);
        return;
      }
    }
    let body: ReturnType<typeof buildUpdateBody>['body'];
    try {
      ({ body } = buildUpdateBody(o.form, item, parsed.data));
    } catch (err) {
      // A value the line cannot send (a file the submission does not hold): that line fails, nothing sent.
      await record({ ...base, status: 'failed', error: firstLine(err) }, text);
      return;
    }
    if (o.dryRun) {
      await record({ ...base, status: 'dry-run', data: parsed.data, body }, text);
      return;
    }
    if (o.done?.inflight.has(resumeKey(n, parsed.label, inputHash(text))) && patchApplied(item, parsed.data)) {
      // An earlier run sent this line and died before recording it; its values are in place.
      await record({ ...base, status: 'ok', already_applied: true }, text);
      return;
    }
    try {
      await o.pacer.take(o.signal);
      if (o.intent) await record({ ...base, status: 'sending' }, text);
      await updateSubmission(o.client, o.form.id, id, body, o.signal);
      o.pacer.observe(o.client.rateLimit);
      item.data = { ...item.data, ...parsed.data };
      await record({ ...base, status: 'ok' }, text);
    } catch (err) {
      o.pacer.observe(o.client.rateLimit);
      await recordFailure(base, text, err);
    }
  };
  const handle = async (n: number, text: string): Promise<void> => {
    let parsed: Parsed;
    try {
      parsed = parseLine(o.form, text);
    } catch (err) {
      await record({ line: n, submission_id: sniffId(text), status: 'failed', error: firstLine(err) }, text);
      return;
    }
    const item = find(parsed.ref);
    const id = item && numericIdOf(item);
    if (!item || id === undefined) {
      const error = o.index.incomplete
        ? `submission ${parsed.label} was not found in the submission list of form ${o.form.id}, which could not be read whole (the service counts more submissions than could be read), so it may exist; nothing was sent for this line`
        : `form ${o.form.id} has no submission ${parsed.label} (it is not in \`formctl submission list ${o.form.id}\`)`;
      await record({ line: n, submission_id: parsed.label, status: 'failed', error }, text);
      return;
    }
    // A line whose `id` and `submission_id` name two submissions cannot say which one it means.
    const also = parsed.also;
    if (also && !(also.ref?.kind === 'id' ? also.ref.id === id : also.ref?.kind === 'uuid' && uuidOf(item) === also.ref.uuid)) {
      const error = `"id" ${parsed.label} and "submission_id" ${also.label} name different submissions; nothing was sent for this line`;
      await record({ line: n, submission_id: parsed.label, status: 'failed', error }, text);
      return;
    }
    const prev = tails.get(id);
    const mine = (async () => {
      if (prev) await prev;
      if (o.signal?.aborted || fatal) {
        await record({ line: n, submission_id: parsed.label, id, status: 'interrupted' }, text);
        return;
      }
      await send(n, text, parsed, item, id);
    })();
    tails.set(id, mine);
    await mine;
    if (tails.get(id) === mine) tails.delete(id);
  };

  const rl = createInterface({ input: o.input, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  try {
    for await (const raw of rl) {
      n++;
      stats.seen = n;
      if (o.signal?.aborted || fatal) break;
      const text = raw.trim();
      if (text === '') continue;
      const state = isDone(o.done, n, text);
      if (state === 'done') {
        stats.skipped++;
        o.onProgress?.(stats);
        continue;
      }
      if (state === 'changed') stats.changed++;
      while (inflight.size >= o.concurrency) await Promise.race(inflight);
      if (o.signal?.aborted || fatal) break;
      const p: Promise<void> = handle(n, text).finally(() => inflight.delete(p));
      inflight.add(p);
    }
  } finally {
    rl.close();
    await Promise.allSettled(inflight);
  }
  if (fatal) throw fatal;
  if (o.signal?.aborted) throw new InterruptedError();
  return stats;
}
