// Bulk delete: which submissions a selection names, and the run's log. The log (NDJSON) is written as
// the run goes and read back by --resume: its first record is the plan (the form, the ids backed up
// and to delete, the backup file), then one record per DELETE. A DELETE is idempotent on both
// services (a second one answers 404), so a resumed run sends again what it may have sent and counts
// an already-gone submission as done: every planned submission is deleted exactly once.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { ApiClient } from '../api/client.js';
import type { Form } from '../api/forms.js';
import type { NormalizedSubmission } from '../api/normalize.js';
import { UsageError } from '../errors.js';
import { findProperty } from '../forms/properties.js';
import { cannotRead, fsReason } from '../io/files.js';
import { type IOStreams, readAll } from '../io/iostreams.js';
import type { TimeRange } from '../io/time-range.js';
import { submittedAtMs } from './dates.js';
import { type RangeReading, readListInRange } from './range.js';
import { numericIdOf } from './ref.js';
import type { WholeListOptions, WholeListState } from './whole-list.js';

/** What `--from`, `--before` and `--where` select (all given must hold). */
export interface DeleteSelection {
  ids?: Set<number>;
  before?: number;
  where?: { field: string; value: string };
}

/**
 * Ids from `--from FILE` (`-`: stdin, which must not be a terminal): one per line, a bare number or a
 * JSON object with `id` (lines of `submission list --ndjson`).
 */
export async function readIdFile(path: string, io: Pick<IOStreams, 'stdin' | 'stdinIsTTY'>): Promise<Set<number>> {
  let text: string;
  if (path === '-') {
    if (io.stdinIsTTY) throw new UsageError('--from - reads the ids from stdin, but stdin is a terminal.', 'Pipe the ids in, or pass --from FILE.');
    text = (await readAll(io.stdin)).toString('utf8');
  } else {
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      throw new UsageError(`Cannot read --from ${path}: ${fsReason(err)}.`);
    }
  }
  const ids = new Set<number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    let v: unknown = line;
    if (line.startsWith('{')) {
      try {
        v = (JSON.parse(line) as { id?: unknown }).id;
      } catch {
        v = undefined;
      }
    }
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isSafeInteger(n) || n <= 0) {
      throw new UsageError(
        `--from ${path}, line ${i + 1}: not a submission id.`,
        'One numeric id per line (the ID column of `submission list`), or lines of `submission list --ndjson`.',
      );
    }
    ids.add(n);
  });
  // Refused (exit 2) before any request, as `submission update --from` refuses an input without lines:
  // the list of work was given and holds none, most likely a step before it that went wrong.
  if (ids.size === 0)
    throw new UsageError(
      `--from ${path} names no submission${text.trim() === '' ? ': it is empty' : ''}.`,
      'One numeric id per line (the ID column of `submission list`), or lines of `submission list --ndjson`; blank lines and # comments are skipped.',
    );
  return ids;
}

/** `--where FIELD=VALUE`, the field found by id or name before any request that deletes. */
export function whereField(form: Form, raw: [string, string]): { field: string; value: string } {
  return { field: findProperty(form, raw[0]).id, value: raw[1] };
}

/** Whether an answer equals VALUE: as text, or one of a list's items (multi-select). */
function answerIs(v: unknown, value: string): boolean {
  if (Array.isArray(v)) return v.some((x) => answerIs(x, value));
  if (v === null || v === undefined) return value === '';
  return String(v) === value;
}

function selected(s: NormalizedSubmission, sel: DeleteSelection, id: number): boolean {
  if (sel.ids && !sel.ids.has(id)) return false;
  if (sel.before !== undefined) {
    const t = submittedAtMs(s);
    if (t === undefined || t >= sel.before) return false;
  }
  if (sel.where && !answerIs(s.data[sel.where.field], sel.where.value)) return false;
  return true;
}

/**
 * The submissions the selection names, in list order (newest first), read from the whole list (each
 * once, src/submissions/whole-list.ts). Ids of `--from` that the list does not hold are returned apart.
 */
export async function selectForDelete(
  c: ApiClient,
  formId: number,
  sel: DeleteSelection,
  o: Pick<WholeListOptions, 'signal' | 'pace' | 'observe'> & { state: WholeListState },
): Promise<{ rows: NormalizedSubmission[]; missing: number[] }> {
  const rows: NormalizedSubmission[] = [];
  const seen = new Set<number>();
  const range: TimeRange = {};
  const info: RangeReading = { stoppedEarly: false, outOfOrder: false, undated: 0 };
  for await (const page of readListInRange(c, formId, range, { ...o }, info)) {
    for (const s of page.items) {
      const id = numericIdOf(s);
      if (id === undefined) continue;
      seen.add(id);
      if (selected(s, sel, id)) rows.push(s);
    }
  }
  if (o.state.complete === false) {
    throw new UsageError(
      `The submission list of form ${formId} could not be read completely (${o.state.missing ?? '?'} missing); nothing was deleted.`,
      'Submissions created in the same second come in no set order on the service; run the command again.',
    );
  }
  return { rows, missing: sel.ids ? [...sel.ids].filter((id) => !seen.has(id)) : [] };
}

/** The first record of a run's log: what the run was confirmed to delete. */
export interface DeletePlan {
  plan: { form_id: number; ids: number[]; backup: string | null; created: string };
}

/** One DELETE's outcome. `deleting` is written before the request goes out. */
export interface DeleteRecord {
  id: number;
  status: 'deleting' | 'deleted' | 'gone' | 'failed';
  http_status?: number;
  error?: string;
}

/** A log read back by --resume: the plan, and the ids whose DELETE is done (deleted or gone). */
export async function readDeleteLog(path: string): Promise<{ plan: DeletePlan['plan']; done: Set<number> }> {
  let plan: DeletePlan['plan'] | undefined;
  const done = new Set<number>();
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of rl) {
      let r: Partial<DeletePlan & DeleteRecord>;
      try {
        r = JSON.parse(line) as Partial<DeletePlan & DeleteRecord>;
      } catch {
        // A line cut short by a kill: that DELETE is simply not known to be done.
        continue;
      }
      if (r.plan && plan === undefined) plan = r.plan;
      else if (typeof r.id === 'number' && (r.status === 'deleted' || r.status === 'gone')) done.add(r.id);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UsageError(`--resume: ${path} does not exist.`, 'Give the --results file of the run to continue.');
    throw cannotRead(path, err);
  }
  if (!plan || !Array.isArray(plan.ids)) throw new UsageError(`--resume: ${path} is not the log of a bulk delete (no plan on its first line).`);
  return { plan, done };
}
