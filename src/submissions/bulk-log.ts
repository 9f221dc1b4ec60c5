import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import { cannotRead, cannotWrite } from '../io/files.js';
import type { IOStreams } from '../io/iostreams.js';
import { sniffId } from './bulk-input.js';

// The results of a bulk update, one NDJSON line per input line: written as the run goes, and read
// back by --resume as the log of what an earlier run did (docs/submission-update.md).

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

/** What an earlier run finished, read from its results file. */
export interface ResumeLog {
  /** `resumeKey`s of lines that were ok. */
  keys: Set<string>;
  /** Line numbers that were ok (to notice lines whose text changed since). */
  lines: Set<number>;
  /** `resumeKey`s of lines that were being sent and never recorded ok: they may have been applied. */
  inflight: Set<string>;
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

/** Whether an earlier run (--resume) finished this line with this text. */
export function isDone(done: ResumeLog | undefined, n: number, text: string): 'done' | 'changed' | 'new' {
  if (!done?.lines.has(n)) return 'new';
  const sid = sniffId(text);
  return done.keys.has(resumeKey(n, sid, inputHash(text))) || done.keys.has(resumeKey(n, sid, '*')) ? 'done' : 'changed';
}

/**
 * Lines already done according to a results file (status ok), and lines an earlier run was sending
 * when it stopped (a `sending` record without a later ok). A torn last line is ignored; an unreadable
 * file stops the run (rather than resending every line).
 */
export async function readDoneKeys(file: string): Promise<ResumeLog> {
  const done: ResumeLog = { keys: new Set(), lines: new Set(), inflight: new Set() };
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of rl) readDoneLine(done, line);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return done;
    throw cannotRead(file, err);
  }
  for (const k of done.keys) done.inflight.delete(k);
  return done;
}

function readDoneLine(done: ResumeLog, line: string): void {
  try {
    const r = JSON.parse(line) as { line?: unknown; submission_id?: unknown; status?: unknown; input_hash?: unknown };
    if ((r.status === 'ok' || r.status === 'sending') && typeof r.line === 'number') {
      const hash = typeof r.input_hash === 'string' ? r.input_hash : '*';
      const key = resumeKey(r.line, r.submission_id == null ? null : String(r.submission_id), hash);
      if (r.status === 'sending') {
        done.inflight.add(key);
        return;
      }
      done.keys.add(key);
      done.lines.add(r.line);
    }
  } catch {
    // A line cut short by a crash: it is simply not done.
  }
}

/**
 * The size of the `--results` file before the run (-1 when there is none, or results go to stdout),
 * checked before any request: an existing results file is the log of an earlier run, so it is
 * refused unless --resume continues it.
 */
export async function resultsSize(results: string | undefined, resume: boolean | undefined): Promise<number> {
  if (!results) return -1;
  let size = -1;
  try {
    const st = await stat(results);
    if (st.isDirectory()) throw new UsageError(`Cannot write ${results}: it is a directory.`, 'Pass a file name, e.g. --results fixes.results.ndjson.');
    size = st.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // Missing: a fresh run.
  }
  if (size > 0 && !resume) {
    throw new UsageError(`${results} already exists.`, 'Pass --resume to continue that run (done lines are skipped), or remove the file to start over.');
  }
  return size;
}

/** Where the results go: stdout, or the `--results` file (`size` from resultsSize), appended to with --resume. */
export interface ResultsSink {
  stream: Writable;
  close(): Promise<void>;
}

/** Opens the results sink: a new file (refusing to overwrite one, which is a resume log), an appended one with --resume, or stdout. */
export async function openResults(io: IOStreams, o: { results?: string; resume?: boolean }, size: number): Promise<ResultsSink> {
  if (!o.results) return { stream: io.stdout, close: async () => undefined };
  const file = o.results;
  if (size > 0) {
    // Make sure an append starts on a new line even if the last run died mid-line.
    try {
      const fh = await open(file, 'r');
      const buf = Buffer.alloc(1);
      await fh.read(buf, 0, 1, size - 1);
      await fh.close();
      if (buf[0] !== 0x0a) size = -2;
    } catch (err) {
      throw cannotRead(file, err);
    }
  }
  // It holds submission ids and what was done to them: the user's alone, as the exports are.
  const stream = createWriteStream(file, { flags: o.resume ? 'a' : 'w', mode: 0o600 });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (e) => reject(cannotWrite(file, e)));
  });
  if (size === -2) stream.write('\n');
  return {
    stream,
    close: () => new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(cannotWrite(file, err)) : resolve()))),
  };
}
