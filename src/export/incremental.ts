// The state of an incremental export (`submission export --incremental STATE`): which submissions
// earlier runs exported, so that each run exports only the new ones, each exactly once across runs
// (docs/submission-update.md, "Incremental exports").
//
// A submission is known by its numeric id and its creation time. The list has no "since" filter
// and is ordered by creation time to the second (docs/service.md, Submissions), so the state keeps
// the newest creation time exported (the boundary) and the ids exported in the WINDOW before it: a
// run reads the list down to `boundary - WINDOW` and exports what it finds there that the state
// does not name. Same-second submissions on either side of the boundary, ones that become visible
// a little late (a slow transaction), and submissions deleted between runs (they are simply not
// listed) are all handled by the id set; nothing depends on offsets.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../atomic-file.js';
import { ConflictError, UsageError } from '../errors.js';
import { fsReason } from '../io/files.js';

/** The state file's format version; another version is refused, never guessed at. */
export const STATE_VERSION = 1;
/** How far before the boundary a run looks again, for submissions listed late. */
export const WINDOW_MS = 10 * 60_000;

export interface IncrementalState {
  version: typeof STATE_VERSION;
  /** The service's origin (`https://host:port`): a state never moves between services. */
  service: string;
  form_id: number;
  /** The export's columns, in order: every run's file has the same header. */
  columns: string[];
  /** The newest creation time exported (ISO 8601), or null before any row was. */
  boundary: string | null;
  /** Ids exported whose creation time lies in the WINDOW before the boundary, with that time. */
  recent: Record<string, string>;
  /** The CSV header record of the last export (BOM included), for a run with no new rows. */
  header: string | null;
  /** Successful runs so far. */
  runs: number;
  /** The file of a run that started writing and has not been committed yet (a killed run): a rerun may replace it. */
  pending: { file: string; started: string } | null;
  last_run: { at: string; file: string; rows: number } | null;
}

/** A new state for a service, form and columns. */
export function newState(service: string, formId: number, columns: string[]): IncrementalState {
  return { version: STATE_VERSION, service, form_id: formId, columns, boundary: null, recent: {}, header: null, runs: 0, pending: null, last_run: null };
}

/** Reads the state file; undefined when it does not exist yet. A file that is not a state is refused (exit 2). */
export async function readState(path: string): Promise<IncrementalState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`Cannot read --incremental ${path}: ${fsReason(err)}.`);
  }
  const bad = (why: string) =>
    new UsageError(
      `--incremental ${path} is not a state file of formctl's incremental export (${why}).`,
      'Give a new file name to start over, or the file an earlier run wrote.',
    );
  let s: Partial<IncrementalState>;
  try {
    s = JSON.parse(text) as Partial<IncrementalState>;
  } catch {
    throw bad('not JSON');
  }
  if (!s || typeof s !== 'object') throw bad('not an object');
  if (s.version !== STATE_VERSION) throw bad(`version ${JSON.stringify(s.version)}; this formctl reads version ${STATE_VERSION}`);
  if (typeof s.service !== 'string' || typeof s.form_id !== 'number' || !Array.isArray(s.columns) || typeof s.recent !== 'object' || s.recent === null) {
    throw bad('a key is missing');
  }
  return {
    ...newState(s.service, s.form_id, s.columns.map(String)),
    ...s,
  } as IncrementalState;
}

/** Writes the state atomically (a temp file renamed over it, fsynced): a crash leaves the old state or the new one. */
export async function writeState(path: string, s: IncrementalState): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(s, null, 2) + '\n', { mode: 0o600 });
}

/** Refuses a state of another service, form or column list (exit 2), before anything is sent. */
export function checkState(s: IncrementalState, path: string, o: { service: string; formId?: number; columns?: string[] }): void {
  const fresh = 'Give a new --incremental file to start another series (its first run exports every row).';
  if (s.service !== o.service) throw new UsageError(`--incremental ${path} belongs to ${s.service}, not ${o.service}.`, fresh);
  if (o.formId !== undefined && s.form_id !== o.formId)
    throw new UsageError(`--incremental ${path} belongs to form ${s.form_id}, not form ${o.formId}.`, fresh);
  if (o.columns !== undefined && o.columns.join(',') !== s.columns.join(',')) {
    throw new UsageError(
      `--incremental ${path} exports the columns ${s.columns.join(',')}, not ${o.columns.join(',')}.`,
      `Leave out --columns to keep them. ${fresh}`,
    );
  }
}

/** Where the list must be read down to (ms), or undefined for the whole list (a first run). */
export function readFrom(s: IncrementalState | undefined): number | undefined {
  return s?.boundary ? Date.parse(s.boundary) - WINDOW_MS : undefined;
}

/** Whether a listed submission (id, creation time in ms) is new to the state. */
export function isNew(s: IncrementalState | undefined, id: number, t: number): boolean {
  if (!s?.boundary) return true;
  return t >= Date.parse(s.boundary) - WINDOW_MS && !(String(id) in s.recent);
}

/** The state after `exported` (id → creation time in ms) were written: boundary moved, window set kept to the WINDOW. */
export function advance(s: IncrementalState, exported: Map<number, number>, header: string | null, run: { at: Date; file: string }): IncrementalState {
  const times = new Map<string, number>(Object.entries(s.recent).map(([id, iso]) => [id, Date.parse(iso)]));
  for (const [id, t] of exported) times.set(String(id), t);
  let boundary = s.boundary ? Date.parse(s.boundary) : Number.NEGATIVE_INFINITY;
  for (const t of exported.values()) boundary = Math.max(boundary, t);
  const recent: Record<string, string> = {};
  for (const [id, t] of [...times].sort((a, b) => a[1] - b[1] || Number(a[0]) - Number(b[0]))) {
    if (t >= boundary - WINDOW_MS) recent[id] = new Date(t).toISOString();
  }
  return {
    ...s,
    boundary: Number.isFinite(boundary) ? new Date(boundary).toISOString() : null,
    recent,
    header: header ?? s.header,
    runs: s.runs + 1,
    pending: null,
    last_run: { at: run.at.toISOString(), file: run.file, rows: exported.size },
  };
}

/** A lock not refreshed for this long belongs to a run that was killed; it is taken over. */
const LOCK_STALE_MS = 10_000;
/** How long a run waits for another run of the same series (or for a killed run's lock to go stale): about a minute. */
const LOCK_WAIT = { retries: 240, factor: 1.2, minTimeout: 25, maxTimeout: 250 };

/**
 * Takes the lock of a series (`STATE.lock`, a proper-lockfile lock directory beside the state) for
 * the whole run: a second run of the same series (an overlapping nightly job) would read the same
 * boundary and export the same rows again. It waits for the run under way; a run killed while it held
 * the lock leaves it stale after 10 s, and the next run takes it over. Resolves to the release.
 */
export async function lockState(path: string): Promise<() => Promise<void>> {
  const lockfile = (await import('proper-lockfile')).default;
  const options = { realpath: false, stale: LOCK_STALE_MS, onCompromised: () => undefined, retries: LOCK_WAIT };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new ConflictError(
        `Another run of the incremental export ${path} is still under way on this machine; nothing was exported.`,
        `Let it finish: each run exports the rows new since the last one (a lock left by a killed run is taken over after ${LOCK_STALE_MS / 1000} s: ${path}.lock).`,
      );
    }
    throw new UsageError(`Cannot lock --incremental ${path}: ${fsReason(err)}.`);
  }
  return () => release().catch(() => undefined);
}
