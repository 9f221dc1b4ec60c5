import { Command, Option } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { type ExportStatus, ExportStatusClosedError, exportStatusClosed, openExportFile, startExport } from '../../api/exports.js';
import { type ChunkProgress, WindowBudget, chunkedCsv } from '../../export/chunked.js';
import { EXPORT_LIMIT_PER_MINUTE, RATE_LIMIT_PER_MINUTE } from '../../service/limits.js';
import { precheckTarget, writeFileAtomically, writeToStreamWhole } from '../../export/sink.js';
import { resolve as resolvePath } from 'node:path';
import { Readable } from 'node:stream';
import { type Form, resolveForm } from '../../api/forms.js';
import { saveExport } from '../../export/download.js';
import { formatBytes, progressBar } from '../../export/progress.js';
import { createStatusLine } from '../../io/status-line.js';
import { describeStatus, waitForExport } from '../../export/wait.js';
import { ExportStatusMemo, straightToChunks } from '../../export/status-memo.js';
import { CliError, ExitCode, InterruptedError, UsageError } from '../../errors.js';
import type { WholeListState } from '../../submissions/whole-list.js';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { shellWord } from '../../io/shell-word.js';
import { profileWords } from '../hint-words.js';
import { escapeControls, jsonFormat, notice, splitList, writeObject } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { type FlagsOf, addFormArgument, examples, fileOption, jqOption, jsonOption } from '../shared.js';
import { parseTimeFlag, resolveRange } from '../../io/time-range.js';
import { exportIncremental, exportRange } from '../../export/selected.js';
import { checkState, lockState, readState } from '../../export/incremental.js';
import { originOf } from '../../config/store.js';
import { formLabel } from '../../forms/label.js';
import { inputProperties } from '../../submissions/fields.js';
import { ATTRIBUTION_PARAMETERS, SYSTEM_COLUMNS, attributionParameter, removedProperties } from '../../service/export.js';
import { type FormProperty, isLayoutBlock } from '../../service/forms.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type ExportDeps, addDownloadOptions, exportDeps, retentionNote } from './shared.js';

/** Fields of `export --json`: the saved file's, or the queued job's with --no-wait (a contract with scripts). */
const EXPORT_FIELDS = [
  'file',
  'bytes',
  'job_id',
  'form_id',
  'status',
  'resume',
  'rows',
  'new',
  'known',
  'gone',
  'first_run',
  'boundary',
  'state',
  'requests',
] as const;

/** `formctl submission export [form]`: the command and its flags, declared once. */
function submissionExportCommand() {
  const base = new Command('export')
    .description('Export submissions as CSV, waiting for large exports to finish')
    .option(
      '--columns <ids>',
      'Comma-separated column ids in the order wanted: field ids or names (any case; removed fields too), created_at, status, meta.attribution.utm_source and the like (default: --all-columns)',
      splitList,
    )
    .option('--all-columns', 'Every input field plus created_at')
    .option(
      '--no-wait',
      'For a large (async) export: print the job id and exit instead of waiting (a small export comes back as the CSV itself: it is saved, stdout stays empty); refused where tokens cannot read a job (the deployed service)',
    );
  const ranged = base
    .addOption(
      new Option(
        '--since <when>',
        'Only submissions created at or after this: ISO date/time (UTC unless it names a zone) or a duration back from now (30m, 24h, 7d)',
      ).argParser(parseTimeFlag('--since')),
    )
    .addOption(new Option('--until <when>', 'Only submissions created before this (a date alone includes that day)').argParser(parseTimeFlag('--until')))
    .addOption(
      fileOption(
        '--incremental <state>',
        'Export only the rows new since the last successful run recorded in this state file (created on the first run, which exports every row); needs -o FILE',
      ),
    );
  const cmd = addDownloadOptions(addFormArgument(ranged))
    .addOption(
      jsonOption(EXPORT_FIELDS, {
        description: `Print {file, bytes, job_id} as JSON when done (or {job_id, form_id, status, resume} with --no-wait); with --since/--until or --incremental also rows, gone, requests (and new/known counts); optionally only these comma-separated fields (fields: ${EXPORT_FIELDS.join(', ')})`,
      }),
    )
    .addOption(jqOption());
  return examples(cmd, [
    'formctl submission export contact-us',
    'formctl submission export 42 --columns name_id,email_id,created_at -o answers.csv',
    'formctl submission export 42 -o - | head -5',
    'formctl submission export 42 --no-wait   # prints the job id; fetch it later with export-status',
    'formctl submission export 42 --since 7d -o last-week.csv',
    'formctl submission export 42 --incremental export-state.json -o "answers-$(date +%F).csv"   # nightly: only the new rows',
  ]);
}

export type SubmissionExportOptions = FlagsOf<typeof submissionExportCommand> &
  ExportDeps & {
    form: string;
    /** The base URL of the service (the incremental state names its origin). */
    baseUrl?: () => Promise<string>;
    /** Incremental runs: called at each step (tests stop a run there, as a kill would). */
    checkpoint?: (step: 'listed' | 'pending' | 'written' | 'committed') => Promise<void>;
  };

/** `formctl submission export [form]`. */
export function newSubmissionExportCommand(f: Factory, runF = submissionExportRun) {
  return submissionExportCommand().action(async (form, flags) =>
    runF({ ...flags, ...exportDeps(f), baseUrl: async () => (await f.context()).baseUrl, form: await resolveFormArg(f, form) }),
  );
}

/**
 * What can be said of --columns without the form: given with --all-columns, or naming no column
 * (`--columns ''`, `--columns ,`). Checked before any request (the form is not read for nothing).
 */
export function checkColumnFlags(ids: string[] | undefined, all: boolean | undefined, form: string): void {
  if (ids && all) throw new UsageError('Use either --columns or --all-columns, not both.');
  if (ids?.length === 0)
    throw new UsageError(
      '--columns needs at least one column id.',
      `Name them, e.g. --columns name,email,created_at (field ids or names: formctl form get ${shellWord(form)} --json properties); or leave --columns out for every field.`,
    );
}

/**
 * Picks the `columns` body from the user's ids, checked against the form before anything is sent,
 * so a typo costs no export (the deployed export limiter allows 10 a minute). The service takes the
 * ids of current and removed fields, `created_at`, `status` and `meta.attribution.<parameter>`
 * (isExportColumn, src/service/export.ts; docs/service-details.md, Export); a field may also be named
 * in any case, a current field before a removed one. A layout block's id, which the service takes
 * but never writes a column for, is refused.
 */
export function selectColumns(form: Form, ids: string[] | undefined, all: boolean | undefined): Record<string, boolean> {
  checkColumnFlags(ids, all, String(form.id));
  const props = inputProperties(form);
  if (!ids) {
    const out: Record<string, boolean> = {};
    for (const p of props) out[p.id] = true;
    out.created_at = true;
    return out;
  }
  const removed = uniqueById(removedProperties(form).filter((p) => !isLayoutBlock(p) && !props.some((q) => q.id === p.id)));
  const unknown: string[] = [];
  const chosen: string[] = [];
  for (const key of ids) {
    if ((SYSTEM_COLUMNS as readonly string[]).includes(key) || attributionParameter(key) !== undefined || [...props, ...removed].some((p) => p.id === key)) {
      chosen.push(key);
      continue;
    }
    const block = (Array.isArray(form.properties) ? form.properties : []).find((p) => p.id === key && isLayoutBlock(p));
    if (block) {
      throw new UsageError(
        `Column "${key}" is a layout block (${String(block.type)}) of form ${formLabel(form)}: it holds no answers, so the export has no column for it.`,
        'Pass the ids or names of fields (`formctl form get` lists them).',
      );
    }
    // A field id, or its name in any case (as --set and webhook trigger --data take it): current fields first.
    const named = byName(props, key);
    const found = named.length > 0 ? named : byName(removed, key);
    if (found.length > 1) {
      throw new UsageError(
        `Column "${key}" names ${found.length} ${named.length > 0 ? '' : 'removed '}fields of form ${formLabel(form)}: ${found.map((p) => escapeControls(p.id, { all: true })).join(', ')}.`,
        'Pass the field id instead.',
      );
    }
    if (found.length === 1) chosen.push(found[0]!.id);
    else unknown.push(key);
  }
  if (unknown.length > 0) {
    // Ids and names come from the service: escaped with tab and newline, so a name cannot forge a line of the hint.
    const field = (p: FormProperty) => `${escapeControls(String(p.id), { all: true })} (${escapeControls(String(p.name), { all: true })})`;
    const fields = props.map(field);
    const gone = removed.length > 0 ? [`removed fields: ${removed.map(field).join(', ')}`] : [];
    const list = [...fields, ...SYSTEM_COLUMNS, ...gone, `meta.attribution.<${ATTRIBUTION_PARAMETERS.join('|')}>`].join(', ');
    throw new UsageError(`Unknown column id${unknown.length > 1 ? 's' : ''} for form ${formLabel(form)}: ${unknown.join(', ')}.`, `Valid columns: ${list}`);
  }
  const out: Record<string, boolean> = {};
  // Object key order is the request's column order, which the service keeps in the CSV (docs/service-details.md, Export).
  for (const id of chosen) out[id] = true;
  return out;
}

function byName(props: FormProperty[], key: string): FormProperty[] {
  return props.filter((p) => typeof p.name === 'string' && p.name.toLowerCase() === key.toLowerCase());
}

/** A form updated, restored and updated again lists a field in `removed_properties` once per removal. */
function uniqueById(props: FormProperty[]): FormProperty[] {
  const seen = new Set<string>();
  return props.filter((p) => !seen.has(p.id) && seen.add(p.id));
}

/**
 * `status` asked of a form that takes no partial submissions: the service writes that column only
 * for forms that do, asked or not (OpnForm `api/app/Service/Forms/FormExportService.php:75-78`), so
 * the file will have none; said once on stderr.
 */
async function statusColumnNote(io: IOStreams, form: Form, columns: Record<string, boolean>): Promise<void> {
  if (columns.status !== true || form.enable_partial_submissions === true) return;
  await notice(
    io,
    `form ${form.id} takes no partial submissions, so its export has no status column: the service writes one only for forms that do (with or without --columns status).`,
  );
}

/** Starts the export; streams a CSV answer to disk, or polls an async job and then downloads its file. */
export async function submissionExportRun(o: SubmissionExportOptions): Promise<void> {
  checkColumnFlags(o.columns, o.allColumns, o.form);
  const toStdout = o.output === '-';
  if (toStdout && (o.json || o.jq !== undefined)) throw new UsageError('--json and --jq cannot be used with -o - (stdout carries the CSV).');
  if (toStdout && !o.wait)
    throw new UsageError('--no-wait cannot be used with -o - (stdout carries the job id).', 'Pass -o FILE, or drop --no-wait to stream the CSV.');
  if (o.since !== undefined || o.until !== undefined || o.incremental !== undefined) return selectedExport(o);
  // Checked before any request: a refusal afterwards would waste a rate-limited export.
  if (o.output && !toStdout) await precheckTarget(o.output, o.clobber, o.now);
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  const columns = selectColumns(form, o.columns, o.allColumns);
  await statusColumnNote(o.io, form, columns);
  await retentionNote(o.io, form);
  const memo = new ExportStatusMemo(o.serviceCacheDir, o.now);
  const origin = client.baseUrl.origin;
  // A job id is only worth printing if it can be fetched later: on the deployed service a token can
  // never read a job's status (docs/service.md, "Export"), so --no-wait is refused before an export
  // (10 a minute there) is spent on a job nobody could collect.
  if (!o.wait && (memo.closedSince(origin) !== undefined || (await learnClosed(client, form.id, memo, origin, o.signal)))) {
    const again = `formctl submission export ${form.id}${o.output ? ` -o ${shellWord(o.output)}` : ''}`;
    throw new UsageError(
      '--no-wait cannot work on this service: it does not let API tokens read the status of an export job (the deployed OpnForm service answers 404 with an empty message), so a job id could never be fetched. Nothing was exported.',
      `Run \`${again}\` without --no-wait: a small export is saved at once, a larger one is exported in chunks of 1,000 rows.`,
    );
  }
  // The headers of an export answer may be the general limit's: they can lower this budget, never raise it.
  const budget = new WindowBudget(EXPORT_LIMIT_PER_MINUTE, o.now, o.sleep, 500, EXPORT_LIMIT_PER_MINUTE);
  const fallbackName0 = `${form.slug}-submission-data.csv`;
  // Known to close export jobs to tokens, and too large for one answer: no job nobody could collect.
  if (straightToChunks(memo, origin, form.submissions_count)) {
    const since = new Date(memo.closedSince(origin)!).toISOString().slice(0, 10);
    await notice(
      o.io,
      `this service does not let API tokens read export jobs (seen ${since}), and form ${form.id} has ${Number(form.submissions_count).toLocaleString('en-US')} submissions: exporting them in chunks of 1,000 rows, without starting a job.`,
    );
    await finishInChunks(o, client, form, columns, budget, fallbackName0);
    return;
  }
  await budget.take(o.signal);
  const started = await startExport(client, form.id, columns, o.signal);
  const fallbackName = fallbackName0;
  if (started.kind === 'csv') {
    const saved = await saveExport({
      io: o.io,
      res: started.response,
      output: o.output,
      fallbackName,
      clobber: o.clobber,
      signal: o.signal,
      now: o.now,
      what: `The export of form ${form.id}`,
    });
    if (!o.wait) {
      // `JOB=$(… --no-wait)` must not capture anything but a job id: stdout stays empty, and the note says why.
      if (jsonFormat(o)) await reportSaved(o, saved);
      await notice(o.io, `the service sent the CSV directly (a small export), so there is no job; it was saved to ${saved.file}.`);
      return;
    }
    await reportSaved(o, saved);
    return;
  }
  budget.observe(started.headers);
  const jobId = started.job.job_id;
  if (!o.wait) {
    // The status routes answer tokens (checked above), so the job can be fetched later.
    const resume = await resumeCommand(o, form.id, jobId);
    const json = jsonFormat(o);
    if (json) await writeObject(o.io, json, { job_id: jobId, form_id: form.id, status: 'queued', resume }, [], { compact: true });
    else {
      await write(o.io.stdout, `${jobId}\n`);
      await notice(o.io, `export job ${jobId} runs in the background; fetch it with: ${resume}`);
    }
    return;
  }
  await downloadJob(o, client, form, jobId, fallbackName, { columns, budget, memo });
}

/** Probes the status route (`exportStatusClosed`) and remembers a "closed" answer for this service. */
async function learnClosed(client: ApiClient, formId: number, memo: ExportStatusMemo, origin: string, signal?: AbortSignal): Promise<boolean> {
  const closed = await exportStatusClosed(client, formId, signal);
  if (closed) memo.rememberClosed(origin);
  return closed;
}

/**
 * How a chunk answered with an export job is waited for (a service whose async threshold is below
 * 1,000 ids; never the deployed one): --poll-interval, and --wait-timeout for each job.
 */
function chunkJobs(o: Pick<DownloadJobOptions, 'pollInterval' | 'waitTimeout' | 'now' | 'sleep'>) {
  return {
    pollMs: o.pollInterval,
    timeoutMs: o.waitTimeout,
    now: o.now,
    sleep: o.sleep,
    timeoutHint: 'A chunk of the export went to an export job that did not finish in time; nothing was saved: raise --wait-timeout and run the export again.',
  };
}

/** A chunked export saved and reported; an incomplete list fails the run (exit 10) after saving. */
async function finishInChunks(
  o: DownloadJobOptions,
  client: ApiClient,
  form: Form,
  columns: Record<string, boolean>,
  budget: WindowBudget,
  fallbackName: string,
): Promise<void> {
  const saved = await exportInChunks(o, client, form, columns, budget, fallbackName);
  await reportSaved(o, saved);
  if (saved.list.complete === false) throw incompleteExport(form.id, saved.file, saved.list);
}

type DownloadJobOptions = Pick<
  SubmissionExportOptions,
  'io' | 'signal' | 'now' | 'sleep' | 'context' | 'pollInterval' | 'waitTimeout' | 'output' | 'clobber' | 'json' | 'spoolDir'
>;

/** The command that fetches a job later: `--profile` is named when the profile came from a flag or FORMCTL_PROFILE (another shell would not pick it). */
export async function resumeCommand(o: Pick<SubmissionExportOptions, 'context' | 'output'>, formId: number, jobId: string): Promise<string> {
  return `formctl${await profileWords(o.context)} submission export-status ${formId} ${shellWord(jobId)} --download${o.output ? ` -o ${shellWord(o.output)}` : ''}`;
}

/**
 * Polls a job to completion and downloads its file (shared with `export-status --download`); on Ctrl-C,
 * says how to fetch the job later. With `chunks` (an export just started), a job whose status the
 * service does not let tokens read is replaced by a chunked export.
 */
export async function downloadJob(
  o: DownloadJobOptions,
  client: ApiClient,
  form: Form,
  jobId: string,
  fallbackName: string,
  chunks?: { columns: Record<string, boolean>; budget: WindowBudget; memo?: ExportStatusMemo },
): Promise<void> {
  const resume = await resumeCommand(o, form.id, jobId);
  // With -o - the CSV may be on this very terminal: no status text beside it.
  const line = createStatusLine(o.io, o.now, { quiet: o.output === '-' });
  let inChunks = false;
  try {
    let status: ExportStatus & { file_url: string };
    try {
      status = await waitForExport({
        client,
        formId: form.id,
        jobId,
        pollMs: o.pollInterval,
        timeoutMs: o.waitTimeout,
        now: o.now,
        sleep: o.sleep,
        signal: o.signal,
        resumeCommand: resume,
        onStatus: (s) => line.update(`Exporting: ${describeStatus(s)}`),
      });
    } catch (err) {
      line.done();
      if (!(err instanceof ExportStatusClosedError) || !chunks) throw err;
      // Next time a large form of this service goes straight to chunks (src/export/status-memo.ts).
      chunks.memo?.rememberClosed(client.baseUrl.origin);
      await notice(
        o.io,
        `this service does not let API tokens read the status of export job ${jobId}, so its file cannot be fetched; exporting the rows in chunks of 1,000 instead.`,
      );
      inChunks = true;
      await finishInChunks(o, client, form, chunks.columns, chunks.budget, fallbackName);
      return;
    } finally {
      line.done();
    }
    const res = await openExportFile(client, status.file_url, o.signal);
    const saved = await saveExport({
      io: o.io,
      res,
      output: o.output,
      fallbackName,
      clobber: o.clobber,
      signal: o.signal,
      now: o.now,
      what: `The file of export job ${jobId}`,
    });
    await reportSaved(o, saved, jobId);
  } catch (err) {
    // The job goes on without us (and its file outlives the download): Ctrl-C must not lose its id.
    // A chunked export has no job to come back to: nothing was kept, and a rerun starts over.
    if (err instanceof InterruptedError && !inChunks) await notice(o.io, `export job ${jobId} keeps running on the service; fetch it with: ${resume}`);
    throw err;
  }
}

/**
 * The export done as chunks of at most 1,000 submissions (docs/submission-update.md, "Exports above
 * 1,000 rows"), joined into one CSV written through the same `.part` path as any export.
 */
async function exportInChunks(
  o: DownloadJobOptions,
  client: ApiClient,
  form: Form,
  columns: Record<string, boolean>,
  budget: WindowBudget,
  fallbackName: string,
): Promise<{ file: string; bytes: number; list: WholeListState }> {
  const file = o.output ?? fallbackName;
  const list: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
  if (file !== '-') await precheckTarget(file, o.clobber, o.now);
  const line = createStatusLine(o.io, o.now, { quiet: file === '-' });
  const listBudget = new WindowBudget(client.rateLimit.limit ?? RATE_LIMIT_PER_MINUTE, o.now, o.sleep);
  // What the earlier answers said is left of the general limit's window.
  if (client.rateLimit.remaining !== undefined) listBudget.observe({ 'x-ratelimit-remaining': String(client.rateLimit.remaining) });
  const show = (p: ChunkProgress) => line.update(describeChunks(p));
  line.update('Exporting in chunks: reading the submission list…');
  // A refused chunk is asked for again: said on stderr, so a slow export explains itself.
  const onRetry = (text: string) => {
    // On a terminal the progress line is cleared first (the next update draws it again below the warning).
    if (o.io.stderrIsTTY) line.done();
    void notice(o.io, text, 'warning');
  };
  const body = Readable.from(
    chunkedCsv({
      client,
      formId: form.id,
      columns,
      budget,
      listBudget,
      listState: list,
      signal: o.signal,
      onProgress: show,
      onRetry,
      jobs: { ...chunkJobs(o), memo: {}, onStatus: (text) => line.update(`Exporting in chunks: ${text}`) },
    }),
  );
  try {
    // To stdout, all or nothing: a chunk refused after others passed leaves stdout empty (writeToStreamWhole).
    const bytes =
      file === '-'
        ? await writeToStreamWhole(body, o.io.stdout, { signal: o.signal, dir: o.spoolDir })
        : await writeFileAtomically(body, file, { signal: o.signal, clobber: o.clobber });
    return { file, bytes, list };
  } finally {
    line.done();
  }
}

/**
 * The chunks hold every id the list gave, but the list ended short of its total though read again
 * (docs/submission-update.md, "Reading the whole list"): the file is saved, and the run fails so a
 * script notices.
 */
function incompleteExport(formId: number, file: string, list: WholeListState): CliError {
  const missing = list.missing ?? (list.total ?? 0) - list.distinct;
  return new CliError(
    `The export of form ${formId} is incomplete: the submission list counts ${list.total} submissions, but ${(list.total ?? 0) - missing} distinct ones could be read (${missing} missing, the list read ${list.rereads + 1} times); ${file === '-' ? 'the CSV' : file} lacks ${missing === 1 ? 'it' : 'them'}.`,
    ExitCode.partial,
    'Submissions created in the same second come in no set order on the service, and answers deleted during the export move the pages; run the export again.',
  );
}

/** "Exporting in chunks ▕████░░░░▏ 3/20 chunks · 3,000/20,000 rows". */
export function describeChunks(p: ChunkProgress): string {
  const bar = p.totalChunks ? ` ${progressBar(p.chunks / p.totalChunks)}` : '';
  const n = (x: number) => x.toLocaleString('en-US');
  return `Exporting in chunks${bar} ${p.chunks}${p.totalChunks ? `/${p.totalChunks}` : ''} chunks · ${n(p.rows)}${p.totalRows !== undefined ? `/${n(p.totalRows)}` : ''} rows`;
}

async function reportSaved(o: Pick<SubmissionExportOptions, 'io' | 'json'>, saved: { file: string; bytes: number }, jobId?: string): Promise<void> {
  if (saved.file === '-') return;
  const json = jsonFormat(o);
  if (json) {
    await writeObject(o.io, json, { file: saved.file, bytes: saved.bytes, job_id: jobId ?? null }, [], { compact: true });
    return;
  }
  // On stderr: the file is the result, and stdout stays clean for scripts.
  if (o.io.stderrIsTTY) await write(o.io.stderr, `✓ Saved ${saved.file} (${formatBytes(saved.bytes)})\n`);
}

/**
 * `--since`/`--until` (exactly the rows of a time range) and `--incremental` (the rows new since the
 * last run): the list is read down to where the export starts, and the ids found are exported in
 * chunks (src/export/selected.ts). Every refusal comes before a request.
 */
async function selectedExport(o: SubmissionExportOptions): Promise<void> {
  if (!o.wait)
    throw new UsageError(
      `--no-wait cannot be used with ${o.incremental !== undefined ? '--incremental' : '--since/--until'}: the rows are exported by id, at once.`,
    );
  if (o.incremental !== undefined && (o.since !== undefined || o.until !== undefined)) {
    throw new UsageError('--incremental chooses the rows itself: it cannot be combined with --since or --until.');
  }
  const range = resolveRange(o, new Date(o.now()));
  const statePath = o.incremental;
  if (statePath !== undefined && (o.output === undefined || o.output === '-')) {
    throw new UsageError(
      '--incremental needs -o FILE: the state advances only once the file is complete under its name.',
      'Example: -o "answers-$(date +%F).csv"',
    );
  }
  // One run of a series at a time: two runs reading the same STATE would both export its new rows.
  const release = statePath !== undefined ? await lockState(statePath) : undefined;
  try {
    await selectedExportLocked(o, range, statePath);
  } finally {
    await release?.();
  }
}

async function selectedExportLocked(o: SubmissionExportOptions, range: ReturnType<typeof resolveRange>, statePath: string | undefined): Promise<void> {
  const state = statePath !== undefined ? await readState(statePath) : undefined;
  const service = originOf((await o.baseUrl?.()) ?? '') ?? '';
  if (state && statePath !== undefined) checkState(state, statePath, { service, columns: o.columns });
  const output = o.output ?? '';
  const replacesPending = state?.pending?.file !== undefined && state.pending.file === resolvePath(output);
  if (output !== '-' && output !== '') await precheckTarget(output, o.clobber || replacesPending, o.now);
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  if (state && statePath !== undefined) checkState(state, statePath, { service, formId: form.id });
  const columns = state ? Object.fromEntries(state.columns.map((c) => [c, true])) : selectColumns(form, o.columns, o.allColumns);
  if (!state) await statusColumnNote(o.io, form, columns);
  const file = output === '' ? `${form.slug}-submission-data.csv` : output;
  if (file !== output) await precheckTarget(file, o.clobber, o.now);
  const input = {
    io: o.io,
    client,
    form,
    columns,
    output: file,
    clobber: o.clobber,
    signal: o.signal,
    now: o.now,
    sleep: o.sleep,
    spoolDir: o.spoolDir,
    jobs: chunkJobs(o),
  };
  if (statePath === undefined) {
    const r = await exportRange(input, range);
    const json = jsonFormat(o);
    if (json)
      await writeObject(o.io, json, { file: r.file, bytes: r.bytes, job_id: null, rows: r.rows, gone: r.gone, requests: r.requests }, [], { compact: true });
    else if (r.file !== '-' && o.io.stderrIsTTY) await write(o.io.stderr, `✓ Saved ${r.file} (${r.rows} rows, ${formatBytes(r.bytes)})\n`);
    if (r.file !== '-') await notice(o.io, `${r.rows} row${r.rows === 1 ? '' : 's'} in the range; ${describeCost(r.requests)}.`);
    return;
  }
  const r = await exportIncremental({ ...input, statePath, state, service, columnIds: Object.keys(columns), checkpoint: o.checkpoint });
  const json = jsonFormat(o);
  if (json) {
    await writeObject(
      o.io,
      json,
      {
        file: r.file,
        bytes: r.bytes,
        job_id: null,
        rows: r.rows,
        new: r.rows,
        known: r.known,
        gone: r.gone,
        first_run: r.first_run,
        boundary: r.boundary,
        state: statePath,
        requests: r.requests,
      },
      [],
      { compact: true },
    );
  }
  if (r.rows === 0)
    await notice(
      o.io,
      `no new rows since the last run${r.boundary ? ` (newest exported: ${r.boundary})` : ''}: ${r.file} has the header only; ${describeCost(r.requests)}.`,
    );
  else
    await notice(
      o.io,
      `${r.rows} new row${r.rows === 1 ? '' : 's'} in ${r.file}${r.first_run ? ' (first run: every row)' : ''}; ${statePath} advanced; ${describeCost(r.requests)}.`,
    );
}

/** "3 requests (2 list pages, 1 export)". */
function describeCost(r: { list: number; export: number }): string {
  const n = r.list + r.export;
  return `${n} request${n === 1 ? '' : 's'} (${r.list} list page${r.list === 1 ? '' : 's'}, ${r.export} export${r.export === 1 ? '' : 's'})`;
}
