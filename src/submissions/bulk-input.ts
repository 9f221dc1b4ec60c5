import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Form } from '../api/forms.js';
import { CliError, UsageError } from '../errors.js';
import { cannotRead, parseJsonObject } from '../io/files.js';
import { type IOStreams, readAll } from '../io/iostreams.js';
import { listRecordAnswers } from './answers.js';
import { assertRequiredKept, resolveData } from './fields.js';
import { type SubmissionRef, parseSubmissionRef } from './ref.js';

// The input of a bulk update (`submission update --from`): where it is read from, and what one
// NDJSON line says.

/**
 * The input, readable twice: once to learn which submissions it names (they are read from the list
 * first), once to run. stdin is kept in memory for that; a file is read twice.
 */
export interface BulkInput {
  /** "stdin" or the file name, for messages. */
  name: string;
  /** How a line's error names the input, before ", line N": `--from FILE` (`--from -` for stdin), as submission delete's do. */
  lines: string;
  open(): Readable;
}

/**
 * Checks `--from` before any request and returns it as a BulkInput: stdin must not be a terminal, a
 * file must be a regular file and not the `--results` file (appending results to the file being
 * read would feed them back in as input, without end).
 */
export async function openBulkInput(io: IOStreams, from: string, results: string | undefined): Promise<BulkInput> {
  if (from === '-') {
    if (io.stdinIsTTY) throw new UsageError('--from - reads NDJSON from stdin, but stdin is a terminal.', 'Pipe a file in, or pass --from FILE.');
    const text = (await readAll(io.stdin)).toString('utf8');
    return { name: 'stdin', lines: '--from -', open: () => Readable.from([text]) };
  }
  let st;
  try {
    st = await stat(from);
  } catch (err) {
    throw cannotRead(from, err);
  }
  if (st.isDirectory()) throw new UsageError(`Cannot read ${from}: it is a directory.`);
  if (!st.isFile()) throw new UsageError(`Cannot read ${from}: not a regular file.`, 'Pipe it in with --from - instead.');
  if (results) {
    const [a, b] = await Promise.all([stat(from), stat(results).catch(() => undefined)]);
    if (b && a.dev === b.dev && a.ino === b.ino)
      throw new UsageError('--results must not be the --from file.', 'Write the results next to it, e.g. --results fixes.results.ndjson.');
  }
  return { name: from, lines: `--from ${from}`, open: () => createReadStream(from) };
}

export interface Parsed {
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
 * leaves them out. A line that empties a field the form requires is refused as a single update
 * refuses it (assertRequiredKept): the service would answer 422.
 * Throws a CliError whose message becomes the line's `error`; nothing is sent for that line. `where`
 * names the line in JSON errors (`--from fixes.ndjson, line 3`): a lossy number's column is within it.
 */
export function parseLine(form: Form, text: string, where = 'the line'): Parsed {
  const obj = parseJsonObject(text, where, { oneLine: true });
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
  assertRequiredKept(form, parsed);
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
