import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import { ApiError, UnauthorizedError } from '../api/errors.js';
import type { Form } from '../api/forms.js';
import { updateSubmission } from '../api/submissions.js';
import { resolveData } from '../commands/submission/fields.js';
import { CliError, InterruptedError } from '../errors.js';
import { write } from '../io/iostreams.js';
import type { Pacer } from '../api/ratelimit.js';

/** One line's outcome, written as one NDJSON line (the results file is also the resume log). */
export interface LineResult {
  line: number;
  submission_id: string | null;
  status: 'ok' | 'failed' | 'dry-run' | 'interrupted';
  http_status?: number;
  error?: string;
  /** The resolved `{data}` body (dry runs only). */
  data?: Record<string, unknown>;
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
}

export interface BulkUpdateOptions {
  client: ApiClient;
  form: Form;
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
  submissionId: string;
  data: Record<string, unknown>;
}

/**
 * Parses one input line: `{"submission_id": "12", "<field name or id>": value, …}`, optionally with
 * the fields inside `data`. Throws a CliError whose message becomes the line's `error`.
 */
export function parseLine(form: Form, text: string): Parsed {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (err) {
    throw new CliError(`invalid JSON: ${(err as Error).message}`);
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new CliError('each line must be a JSON object');
  const { submission_id: sid, id, data, ...fields } = obj as Record<string, unknown>;
  const raw = sid ?? id;
  if ((typeof raw !== 'string' && typeof raw !== 'number') || String(raw).trim() === '') {
    throw new CliError('missing "submission_id" (string or number)');
  }
  const entries: Array<[string, unknown]> = Object.entries(fields);
  if (data !== undefined) {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new CliError('"data" must be an object of field values');
    entries.push(...Object.entries(data as Record<string, unknown>));
  }
  if (entries.length === 0) throw new CliError('no fields to update');
  return { submissionId: String(raw).trim(), data: resolveData(form, entries) };
}

/** Best effort: the submission id of a line that failed to parse, so the results still say which one. */
function sniffId(text: string): string | null {
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    const v = o?.submission_id ?? o?.id;
    return typeof v === 'string' || typeof v === 'number' ? String(v).trim() : null;
  } catch {
    return null;
  }
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  // Field errors come on following lines; keep them, joined, so one result stays one line.
  return msg.split('\n').map((s) => s.trim()).filter(Boolean).join('; ');
}

/**
 * Runs the updates line by line with up to `concurrency` requests in flight, each started only when
 * the pacer allows. The input is read lazily (constant memory) and a failed line never stops the
 * others. A 401 stops the run: no later line could succeed. Ctrl-C stops reading, lets the results
 * of finished lines be written, and throws InterruptedError.
 */
export async function runBulkUpdate(o: BulkUpdateOptions): Promise<BulkStats> {
  const stats: BulkStats = { ok: 0, failed: 0, skipped: 0, seen: 0, changed: 0 };
  const inflight = new Set<Promise<void>>();
  let fatal: unknown;
  const record = async (r: LineResult, text: string) => {
    r.input_hash = inputHash(text);
    if (r.status === 'ok' || r.status === 'dry-run') stats.ok++;
    else if (r.status === 'failed') stats.failed++;
    await write(o.results, JSON.stringify(r) + '\n');
    o.onProgress?.(stats);
  };
  const handle = async (n: number, text: string): Promise<void> => {
    let parsed: Parsed;
    try {
      parsed = parseLine(o.form, text);
    } catch (err) {
      await record({ line: n, submission_id: sniffId(text), status: 'failed', error: firstLine(err) }, text);
      return;
    }
    if (o.dryRun) {
      await record({ line: n, submission_id: parsed.submissionId, status: 'dry-run', data: parsed.data }, text);
      return;
    }
    try {
      await o.pacer.take(o.signal);
      await updateSubmission(o.client, o.form.id, parsed.submissionId, parsed.data, o.signal);
      o.pacer.observe(o.client.rateLimit);
      await record({ line: n, submission_id: parsed.submissionId, status: 'ok' }, text);
    } catch (err) {
      o.pacer.observe(o.client.rateLimit);
      if (err instanceof InterruptedError || o.signal?.aborted) {
        await record({ line: n, submission_id: parsed.submissionId, status: 'interrupted' }, text);
        return;
      }
      if (err instanceof UnauthorizedError) fatal ??= err;
      const r: LineResult = { line: n, submission_id: parsed.submissionId, status: 'failed', error: firstLine(err) };
      if (err instanceof ApiError) r.http_status = err.status;
      await record(r, text);
    }
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
      if (o.done?.lines.has(n)) {
        const sid = sniffId(text);
        if (o.done.keys.has(resumeKey(n, sid, inputHash(text))) || o.done.keys.has(resumeKey(n, sid, '*'))) {
          stats.skipped++;
          o.onProgress?.(stats);
          continue;
        }
        stats.changed++;
      }
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
