import { setMaxListeners } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import { whileChanging } from '../closed-stdout.js';
import { NetworkError } from '../api/errors.js';
import type { Form } from '../api/forms.js';
import type { NormalizedSubmission } from '../api/normalize.js';
import { type Pacer, createPacer } from '../api/ratelimit.js';
import { InterruptedError } from '../errors.js';
import { cannotRead } from '../io/files.js';
import { type IOStreams, write } from '../io/iostreams.js';
import { notice } from '../io/output.js';
import { createStatusLine } from '../io/status-line.js';
import { RATE_LIMIT_PER_MINUTE } from '../service/limits.js';
import { currentAnswers, integrationWarnings, isPartial, changesBeyondPatch } from './answers.js';
import { type BulkInput, sniffRef } from './bulk-input.js';
import { type ResumeLog, isDone, openResults } from './bulk-log.js';
import { progressReporter } from './bulk-progress.js';
import { type BulkStats, runBulkUpdate } from './bulk-run.js';
import { type SubmissionIndex, refreshSubmission, scanSubmissions } from './lookup.js';

// The stages of a bulk update (`submission update --from`) around the line-by-line run
// (bulk-run.ts): the pass over the input, the pacer, the list scan for the submissions the lines
// name, the side effects to confirm, and the run with its results file and progress.

/** What the pass before the run learns from the input: its size and the submissions its lines name. */
export interface InputSurvey {
  total: number;
  ids: Set<number>;
  uuids: Set<string>;
}

/** One streaming pass over the input (lines an earlier run finished are left out of the lookup). */
export async function surveyInput(input: BulkInput, done: ResumeLog | undefined): Promise<InputSurvey> {
  try {
    return await surveyLines(input.open(), done);
  } catch (err) {
    throw cannotRead(input.name, err);
  }
}

async function surveyLines(input: Readable, done: ResumeLog | undefined): Promise<InputSurvey> {
  const out: InputSurvey = { total: 0, ids: new Set(), uuids: new Set() };
  const rl = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const raw of rl) {
    n++;
    const text = raw.trim();
    if (!text) continue;
    out.total++;
    if (isDone(done, n, text) === 'done') continue;
    const ref = sniffRef(text);
    if (ref?.kind === 'id') out.ids.add(ref.id);
    else if (ref?.kind === 'uuid') out.uuids.add(ref.uuid);
  }
  return out;
}

/** The run's pacer, and the rate it lets through (for the progress line). */
export interface BulkPacer extends Pick<Pacer, 'take' | 'observe'> {
  ratePerMinute(): number;
}

/**
 * One pacer for the list scan, the re-reads and the updates. Without --rate-limit it trusts the
 * limit the service announced on the form lookup and follows X-RateLimit-Limit up and down; an
 * explicit --rate-limit stays a ceiling.
 */
export function bulkPacer(
  client: ApiClient,
  o: { rateLimit?: number; now: () => number; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> },
): BulkPacer {
  const limit = o.rateLimit ?? client.rateLimit.limit ?? RATE_LIMIT_PER_MINUTE;
  const shared = createPacer({ limitPerMinute: limit, now: o.now, sleep: o.sleep });
  return {
    take: (signal) => shared.take(signal),
    observe: (st) => shared.observe(o.rateLimit !== undefined && st.limit !== undefined ? { ...st, limit: Math.min(st.limit, o.rateLimit) } : st),
    ratePerMinute: () => shared.ratePerMinute,
  };
}

/** What the stages share: the client, the form, the pacer, the clock and Ctrl-C. */
export interface BulkContext {
  io: IOStreams;
  client: ApiClient;
  form: Form;
  pacer: BulkPacer;
  now: () => number;
  signal?: AbortSignal;
}

/** The submissions the lines name, in one pass over the list (paced like the updates), with the pages read shown on a terminal. */
export async function scanTargets(c: BulkContext, survey: InputSurvey): Promise<SubmissionIndex> {
  const scanLine = createStatusLine(c.io, () => c.now());
  try {
    return await scanSubmissions(
      c.client,
      c.form.id,
      { ids: survey.ids, uuids: survey.uuids },
      {
        signal: c.signal,
        pace: async () => c.pacer.take(c.signal),
        observe: () => c.pacer.observe(c.client.rateLimit),
        onPage: (p, last) => c.io.stderrIsTTY && scanLine.update(`Reading submissions: page ${p}${last ? `/${last}` : ''}`),
        now: c.now,
      },
    );
  } finally {
    scanLine.done();
  }
}

/**
 * What the run changes on the deployed service besides the fields asked for (docs/submission-update.md):
 * the warnings to show, and whether a real run needs a yes before it goes ahead.
 */
export function bulkSideEffects(
  form: Form,
  index: SubmissionIndex,
  active: readonly Record<string, unknown>[] | undefined,
): { warnings: string[]; needsYes: boolean } {
  let partial = 0;
  let withRemoved = 0;
  const removedKeys = new Set<string>();
  for (const item of index.byId.values()) {
    if (isPartial(item)) partial++;
    const { removed } = currentAnswers(form, item);
    if (removed.length > 0) withRemoved++;
    for (const k of removed) removedKeys.add(k);
  }
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const warnings: string[] = [];
  if (partial > 0)
    warnings.push(
      `${plural(partial, 'submission named in the input is', 'submissions named in the input are')} partial; on the deployed OpnForm service an update stores ${partial === 1 ? 'it' : 'them'} as completed.`,
    );
  if (withRemoved > 0) {
    const keys = [...removedKeys];
    warnings.push(
      `${plural(withRemoved, 'submission holds', 'submissions hold')} answers to fields the form no longer has (${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}); the deployed OpnForm service drops them on update.`,
    );
  }
  warnings.push(...integrationWarnings(active));
  return { warnings, needsYes: changesBeyondPatch({ partial: partial > 0, removed: [...removedKeys] }) || (active?.length ?? 0) > 0 };
}

/**
 * A submission read from the list longer ago than this is read again before its update is sent
 * (docs/submission-update.md, "Finding the submission"): on the deployed service the body sends back
 * every answer, so an old copy would undo what others changed since. One list page refreshes every
 * submission of the run on it, so a run in list order pays about one page per page of targets.
 */
const FRESH_MS = 60_000;

/** The `refresh` of a run: the index's copy while it is fresh, else the list page it came from, read again. */
function refresher(c: BulkContext, index: SubmissionIndex) {
  return async (id: number, reusable: (id: number) => boolean): Promise<NormalizedSubmission> => {
    const read = index.readAt.get(id);
    if (read !== undefined && c.now() - read < FRESH_MS) return index.byId.get(id)!;
    return refreshSubmission(c.client, c.form.id, index, id, {
      now: c.now,
      reusable,
      pace: async () => c.pacer.take(c.signal),
      observe: () => c.pacer.observe(c.client.rateLimit),
      signal: c.signal,
    });
  };
}

export interface BulkRunSettings {
  input: BulkInput;
  index: SubmissionIndex;
  /** Lines an earlier run finished (--resume). */
  done?: ResumeLog;
  /** Non-empty input lines, for the progress count. */
  total: number;
  /** The --results file (stdout without), its size before the run (resultsSize), and --resume. */
  results?: string;
  resultsSize: number;
  resume?: boolean;
  concurrency: number;
  dryRun?: boolean;
}

/**
 * Runs the lines with the results going to their sink and the progress to stderr; whatever happens
 * (Ctrl-C included) the results are flushed, since they are the resume log, and a summary says how
 * far the run got.
 */
export async function runWithResults(c: BulkContext, s: BulkRunSettings): Promise<BulkStats> {
  const input = s.input.open();
  // Every line in flight waits on the one Ctrl-C signal (its pacer slot, its request): that many
  // listeners are by design, not a leak.
  if (c.signal) setMaxListeners(Math.max(10, s.concurrency * 4 + 4), c.signal);
  const sink = await openResults(c.io, s, s.resultsSize);
  const progress = progressReporter(c.io, { now: c.now, total: s.total, dryRun: s.dryRun, ceiling: () => c.pacer.ratePerMinute() });
  let stats: BulkStats | undefined;
  let interrupted = false;
  try {
    stats = await whileChanging(() =>
      runBulkUpdate({
        client: c.client,
        form: c.form,
        pacer: c.pacer,
        signal: c.signal,
        index: s.index,
        refresh: refresher(c, s.index),
        intent: s.results !== undefined,
        input,
        lines: s.input.lines,
        concurrency: s.concurrency,
        dryRun: s.dryRun,
        results: sink.stream,
        done: s.done,
        onProgress: (st) => {
          stats = st;
          progress.update(st);
        },
      }),
    );
  } catch (err) {
    // A lost connection stops the run as Ctrl-C does: the summary says how far it got and how to go on.
    interrupted = err instanceof InterruptedError || err instanceof NetworkError;
    throw err;
  } finally {
    // Results are flushed before any exit, Ctrl-C included: they are the resume log.
    await sink.close();
    await summarize(c.io, s, interrupted ? progress.interrupted(stats ?? noStats()) : stats && progress.finish(stats), interrupted, stats);
    input.destroy();
  }
  return stats;
}

function noStats(): BulkStats {
  return { ok: 0, failed: 0, skipped: 0, seen: 0, changed: 0 };
}

/** The closing lines on stderr: how far an interrupted run got and how to go on, or the summary; and lines --resume sent again because they changed. */
async function summarize(io: IOStreams, s: BulkRunSettings, line: string | undefined, interrupted: boolean, stats: BulkStats | undefined): Promise<void> {
  if (interrupted) {
    const how = s.dryRun
      ? 'nothing was sent (dry run).'
      : s.results
        ? 'rerun with --resume to continue.'
        : 'the results so far are on stdout; save them to a file and rerun with --results FILE --resume to continue.';
    await write(io.stderr, `${line}; ${how}\n`);
  } else if (line !== undefined) {
    const where = s.results ? ` (results in ${s.results})` : '';
    await write(io.stderr, `${s.dryRun ? 'Dry run: ' : ''}${line}${where}\n`);
  }
  if (stats && stats.changed > 0) {
    await notice(
      io,
      `${stats.changed} line${stats.changed === 1 ? '' : 's'} that ${s.results} records as ok read${stats.changed === 1 ? 's' : ''} differently now (the input was edited or lines moved); ${stats.changed === 1 ? 'it was' : 'they were'} not skipped.`,
      'warning',
    );
  }
}
