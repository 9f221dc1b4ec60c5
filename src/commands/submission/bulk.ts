import { setMaxListeners } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from '../../api/client.js';
import { type Form, resolveForm } from '../../api/forms.js';
import { Readable as ReadableStream } from 'node:stream';
import { type Pacer, createPacer } from '../../api/ratelimit.js';
import { type SubmissionIndex, countActiveIntegrations, refreshSubmission, scanSubmissions } from '../../api/submissions.js';
import { type BulkStats, type ResumeLog, isDone, resumeKey, runBulkUpdate, sniffRef } from '../../bulk/update.js';
import { InterruptedError, PartialFailureError, UsageError } from '../../errors.js';
import type { IOStreams } from '../../io/iostreams.js';
import { readAll, write } from '../../io/iostreams.js';
import { notice } from '../../io/output.js';
import { cannotRead, cannotWrite } from '../../io/files.js';
import { type Prompter, confirmDestructive } from '../../io/prompter.js';
import { createStatusLine } from '../../io/status-line.js';
import { formLabel } from '../../forms/label.js';
import { assertUpdatable, currentAnswers, integrationWarnings, isPartial } from '../../submissions/answers.js';
import { RATE_LIMIT_PER_MINUTE } from '../../service/limits.js';
import type { FlagsOf } from '../shared.js';
import type { submissionUpdateCommand } from './shared.js';

/** Options of a bulk update: the bulk flags of `submission update`'s declaration, the resolved form and default concurrency. */
export type BulkUpdateRunOptions = Pick<FlagsOf<typeof submissionUpdateCommand>, 'rateLimit' | 'results' | 'resume' | 'dryRun' | 'yes'> & {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  signal?: AbortSignal;
  now: () => number;
  form: string;
  from: string;
  concurrency: number;
  prompter?: () => Prompter;
  /** Tests pace with a fake clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

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

/** What the pass before the run learns from the input: its size and the submissions its lines name. */
interface InputSurvey {
  total: number;
  ids: Set<number>;
  uuids: Set<string>;
}

/** One streaming pass over the input (lines an earlier run finished are left out of the lookup). */
async function surveyInput(input: Readable, done: ResumeLog | undefined): Promise<InputSurvey> {
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

/**
 * Says what the run changes on the deployed service besides the fields asked for, and asks (on a
 * terminal) or requires --yes (elsewhere) before a real run goes ahead (docs/submission-update.md).
 */
async function confirmSideEffects(o: BulkUpdateRunOptions, form: Form, index: SubmissionIndex, active: number | undefined): Promise<void> {
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
  for (const w of warnings) await notice(o.io, w, 'warning');
  const needsYes = partial > 0 || withRemoved > 0 || (active ?? 0) > 0;
  if (!needsYes || o.dryRun || o.yes) return;
  if (!o.prompter)
    throw new UsageError(`Updating submissions of form ${formLabel(form)} has the side effects above: refusing without --yes.`, 'Pass --yes to go ahead.');
  await confirmDestructive(o.io, o.prompter(), { message: `Update the submissions of form ${formLabel(form)} anyway?` });
}

/** Opens the results sink: a new file (refusing to overwrite one, which is a resume log), an appended one with --resume, or stdout. */
async function resultsSize(o: BulkUpdateRunOptions): Promise<number> {
  if (!o.results) return -1;
  let size = -1;
  try {
    const st = await stat(o.results);
    if (st.isDirectory()) throw new UsageError(`Cannot write ${o.results}: it is a directory.`, 'Pass a file name, e.g. --results fixes.results.ndjson.');
    size = st.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // Missing: a fresh run.
  }
  if (size > 0 && !o.resume) {
    throw new UsageError(`${o.results} already exists.`, 'Pass --resume to continue that run (done lines are skipped), or remove the file to start over.');
  }
  return size;
}

async function openResults(io: IOStreams, o: BulkUpdateRunOptions, size: number): Promise<{ stream: Writable; close(): Promise<void> }> {
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
  const stream = createWriteStream(file, { flags: o.resume ? 'a' : 'w' });
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

function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/**
 * A submission read from the list longer ago than this is read again before its update is sent
 * (docs/submission-update.md, "Finding the submission"): on the deployed service the body sends back
 * every answer, so an old copy would undo what others changed since. One list page refreshes every
 * submission of the run on it, so a run in list order pays about one page per page of targets.
 */
const FRESH_MS = 60_000;

/** The rate shown is measured over the last minute: long enough to smooth the pacer's steps, short enough to follow a changed limit. */
const RATE_WINDOW_MS = 60_000;
/** Below this much measured time a rate is noise (the first requests go at once), so none is shown. */
const MIN_RATE_SPAN_MS = 2_000;

/**
 * Progress on stderr: redrawn on a TTY, one line every 10 s otherwise (CI logs). The rate counts
 * lines that were sent (not skipped ones), over the last minute, and never shows more than the
 * pacer lets through: a burst at the start would otherwise promise a rate, and an ETA, the limit
 * forbids. A dry run sends nothing, so it has neither.
 */
function progressReporter(io: IOStreams, o: { now: () => number; total?: number; dryRun?: boolean; ceiling: () => number }) {
  const started = o.now();
  // The first line comes after one interval: a short run needs only the summary.
  let lastAt = started;
  const every = io.stderrIsTTY ? 250 : 10_000;
  // Paced here (every 250 ms on a terminal, 10 s in a log), drawn by the shared status line.
  const line = createStatusLine(io, o.now, { minIntervalMs: 0, inLog: 'each' });
  const done: number[] = [];
  let handledSeen = 0;
  const track = (s: BulkStats) => {
    const t = o.now();
    for (; handledSeen < s.ok + s.failed; handledSeen++) done.push(t);
    while (done.length > 0 && done[0]! < t - RATE_WINDOW_MS) done.shift();
  };
  const rate = (): number | undefined => {
    const t = o.now();
    const span = Math.min(t - started, RATE_WINDOW_MS);
    if (o.dryRun || done.length === 0 || span < MIN_RATE_SPAN_MS) return undefined;
    return Math.min((done.length / span) * 60_000, o.ceiling());
  };
  const count = (s: BulkStats) => `${s.ok + s.failed + s.skipped}${o.total !== undefined ? `/${o.total}` : ''}`;
  const text = (s: BulkStats) => {
    const r = rate();
    const left = o.total !== undefined ? Math.max(0, o.total - s.ok - s.failed - s.skipped) : undefined;
    const perMin = r !== undefined ? ` · ${Math.round(r)}/min` : '';
    const eta = r !== undefined && r > 0 && left !== undefined && left > 0 ? ` · ETA ${formatDuration((left / r) * 60_000)}` : '';
    return `${count(s)} lines · ${s.ok} ok · ${s.failed} failed${s.skipped ? ` · ${s.skipped} skipped` : ''}${perMin}${eta}`;
  };
  return {
    update(s: BulkStats) {
      track(s);
      const t = o.now();
      if (t - lastAt < every) return;
      lastAt = t;
      line.update(text(s));
    },
    /** Clears the live line and returns the summary. */
    finish(s: BulkStats) {
      track(s);
      line.done();
      return text(s);
    },
    /** Clears the live line and returns how far an interrupted run got. */
    interrupted(s: BulkStats) {
      line.done();
      return `Interrupted after ${count(s)} lines`;
    },
  };
}

/** Bulk update: paced under the rate limit, per-line results as NDJSON, resumable, exit 10 when any line failed. */
export async function bulkUpdateRun(o: BulkUpdateRunOptions): Promise<void> {
  if (o.resume && !o.results) throw new UsageError('--resume needs --results FILE (the log of the earlier run).');
  if (o.from === '-' && o.io.stdinIsTTY)
    throw new UsageError('--from - reads NDJSON from stdin, but stdin is a terminal.', 'Pipe a file in, or pass --from FILE.');
  // Two passes over the input: one to learn which submissions it names (they are read from the list
  // first), one to run. stdin is kept in memory for that; a file is read twice.
  let stdinText: string | undefined;
  const openInput = (): Readable => (stdinText !== undefined ? ReadableStream.from([stdinText]) : createReadStream(o.from));
  if (o.from === '-') stdinText = (await readAll(o.io.stdin)).toString('utf8');
  else {
    let st;
    try {
      st = await stat(o.from);
    } catch (err) {
      throw cannotRead(o.from, err);
    }
    if (st.isDirectory()) throw new UsageError(`Cannot read ${o.from}: it is a directory.`);
    if (!st.isFile()) throw new UsageError(`Cannot read ${o.from}: not a regular file.`, 'Pipe it in with --from - instead.');
    if (o.results) {
      // Appending results to the file being read would feed them back in as input, without end.
      const [a, b] = await Promise.all([stat(o.from), stat(o.results).catch(() => undefined)]);
      if (b && a.dev === b.dev && a.ino === b.ino)
        throw new UsageError('--results must not be the --from file.', 'Write the results next to it, e.g. --results fixes.results.ndjson.');
    }
  }
  // Checked before any request: an existing results file is the log of an earlier run.
  const size = await resultsSize(o);
  const done = o.resume && o.results ? await readDoneKeys(o.results) : undefined;
  let survey: InputSurvey;
  try {
    survey = await surveyInput(openInput(), done);
  } catch (err) {
    throw cannotRead(o.from === '-' ? 'stdin' : o.from, err);
  }
  const total = survey.total;
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  assertUpdatable(form);
  // Without --rate-limit, trust the limit the service announced on the form lookup.
  const limit = o.rateLimit ?? client.rateLimit.limit ?? RATE_LIMIT_PER_MINUTE;
  const shared = createPacer({ limitPerMinute: limit, now: o.now, sleep: o.sleep });
  // The shared pacer follows X-RateLimit-Limit up and down; an explicit --rate-limit stays a ceiling.
  const pacer: Pick<Pacer, 'take' | 'observe'> = {
    take: (signal) => shared.take(signal),
    observe: (st) => shared.observe(o.rateLimit !== undefined && st.limit !== undefined ? { ...st, limit: Math.min(st.limit, o.rateLimit) } : st),
  };
  // The submissions the lines name, in one pass over the list (paced like the updates), and the
  // integrations that would fire again: both before anything is sent.
  const scanLine = createStatusLine(o.io, () => o.now());
  let index: SubmissionIndex;
  try {
    index = await scanSubmissions(
      client,
      form.id,
      { ids: survey.ids, uuids: survey.uuids },
      {
        signal: o.signal,
        pace: async () => pacer.take(o.signal),
        observe: () => pacer.observe(client.rateLimit),
        onPage: (p, last) => o.io.stderrIsTTY && scanLine.update(`Reading submissions: page ${p}${last ? `/${last}` : ''}`),
        now: o.now,
      },
    );
  } finally {
    scanLine.done();
  }
  // Nothing left to send (a resumed run that is done, lines naming no submission): nothing to confirm.
  if (index.byId.size > 0) {
    const active = await countActiveIntegrations(client, form.id, o.signal);
    await confirmSideEffects(o, form, index, active);
  }
  const input = openInput();
  // Every line in flight waits on the one Ctrl-C signal (its pacer slot, its request): that many
  // listeners are by design, not a leak.
  if (o.signal) setMaxListeners(Math.max(10, o.concurrency * 4 + 4), o.signal);
  const sink = await openResults(o.io, o, size);
  const progress = progressReporter(o.io, { now: o.now, total, dryRun: o.dryRun, ceiling: () => shared.ratePerMinute });
  let stats: BulkStats | undefined;
  let interrupted = false;
  try {
    stats = await runBulkUpdate({
      client,
      form,
      index,
      refresh: async (id, reusable) => {
        const read = index.readAt.get(id);
        if (read !== undefined && o.now() - read < FRESH_MS) return index.byId.get(id)!;
        return refreshSubmission(client, form.id, index, id, {
          now: o.now,
          reusable,
          pace: async () => pacer.take(o.signal),
          observe: () => pacer.observe(client.rateLimit),
          signal: o.signal,
        });
      },
      intent: o.results !== undefined,
      input,
      concurrency: o.concurrency,
      pacer,
      dryRun: o.dryRun,
      results: sink.stream,
      done,
      signal: o.signal,
      onProgress: (s) => {
        stats = s;
        progress.update(s);
      },
    });
  } catch (err) {
    interrupted = err instanceof InterruptedError;
    throw err;
  } finally {
    // Results are flushed before any exit, Ctrl-C included: they are the resume log.
    await sink.close();
    if (interrupted) {
      const how = o.results
        ? 'rerun with --resume to continue.'
        : 'the results so far are on stdout; save them to a file and rerun with --results FILE --resume to continue.';
      await write(o.io.stderr, `${progress.interrupted(stats ?? { ok: 0, failed: 0, skipped: 0, seen: 0, changed: 0 })}; ${how}\n`);
    } else if (stats) {
      const where = o.results ? ` (results in ${o.results})` : '';
      await write(o.io.stderr, `${o.dryRun ? 'Dry run: ' : ''}${progress.finish(stats)}${where}\n`);
    }
    if (stats && stats.changed > 0) {
      await notice(
        o.io,
        `${stats.changed} line${stats.changed === 1 ? '' : 's'} that ${o.results} records as ok read${stats.changed === 1 ? 's' : ''} differently now (the input was edited or lines moved); ${stats.changed === 1 ? 'it was' : 'they were'} not skipped.`,
        'warning',
      );
    }
    input.destroy();
  }
  if (stats.failed > 0) {
    throw new PartialFailureError(
      `${stats.failed} of ${stats.ok + stats.failed} line${stats.ok + stats.failed === 1 ? '' : 's'} failed.`,
      o.results
        ? `See the "error" of each failed line in ${o.results}; fix them and rerun with --resume.`
        : 'Rerun with --results FILE to keep a log you can --resume from.',
    );
  }
}
