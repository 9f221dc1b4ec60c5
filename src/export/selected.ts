// Exports of chosen rows: a time range (`submission export --since/--until`) and the new rows of an
// incremental export (`--incremental STATE`). Both read the list newest first down to where they
// start (src/submissions/range.ts), then export exactly the ids found, in `submissionIds` chunks
// (src/export/by-ids.ts), so neither meets the 1,000-row wall of a whole export.
import { readFile, unlink } from 'node:fs/promises';
import { writeFileAtomic } from '../atomic-file.js';
import { resolve as resolvePath } from 'node:path';
import { Readable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import type { Form } from '../api/forms.js';
import { startExport } from '../api/exports.js';
import type { WholeListState } from '../submissions/whole-list.js';
import { CliError, ExitCode } from '../errors.js';
import type { IOStreams } from '../io/iostreams.js';
import { notice } from '../io/output.js';
import { createStatusLine } from '../io/status-line.js';
import type { TimeRange } from '../io/time-range.js';
import { RATE_LIMIT_PER_MINUTE, EXPORT_LIMIT_PER_MINUTE } from '../service/limits.js';
import { type RangeReading, readListInRange } from '../submissions/range.js';
import { type ByIdsResult, csvForIds } from './by-ids.js';
import { CHUNK_IDS, type ChunkJobWait, WindowBudget, chunkJobFile } from './chunked.js';
import { type RowFilterResult, filterCsvRows } from './csv-rows.js';
import { type IncrementalState, advance, isNew, newState, readFrom, writeState } from './incremental.js';
import { NotCsvError, guardCsv, htmlContentType } from './csv-check.js';
import { type TargetFlags, discard, partName, sweepPart, writeFileAtomically, writeToStream, writeToStreamWhole } from './sink.js';

export interface SelectedExportInput {
  io: IOStreams;
  client: ApiClient;
  form: Form;
  columns: Record<string, boolean>;
  /** A file, or `-` for stdout. */
  output: string;
  clobber?: boolean;
  /** The command's flags for the file, named in hints (`submission export`'s by default). */
  flags?: TargetFlags;
  signal?: AbortSignal;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Where an export of more than one chunk to stdout is collected until every chunk passed. */
  spoolDir?: string;
  /** How a chunk answered with an export job is waited for: --poll-interval, --wait-timeout, and the hint past it. */
  jobs: Pick<ChunkJobWait, 'pollMs' | 'timeoutMs' | 'timeoutHint'>;
}

export interface SelectedExportResult {
  file: string;
  bytes: number;
  /** Rows written (the header aside). */
  rows: number;
  /** Ids chosen that the service refused as deleted since they were listed (not in the file). */
  gone: number;
  requests: { list: number; export: number };
}

/** The list's pages paced under the general limit, the exports under the export limit. */
function budgets(i: SelectedExportInput) {
  const list = new WindowBudget(i.client.rateLimit.limit ?? RATE_LIMIT_PER_MINUTE, i.now, i.sleep);
  if (i.client.rateLimit.remaining !== undefined) list.observe({ 'x-ratelimit-remaining': String(i.client.rateLimit.remaining) });
  return { list, exports: new WindowBudget(EXPORT_LIMIT_PER_MINUTE, i.now, i.sleep, 500, EXPORT_LIMIT_PER_MINUTE) };
}

/** The chosen ids of the list, newest first, with their creation times. */
async function listIds(
  i: SelectedExportInput,
  range: TimeRange,
  pick: (id: number, t: number) => boolean,
  listBudget: WindowBudget,
): Promise<{ ids: number[]; times: Map<number, number>; info: RangeReading; state: WholeListState }> {
  const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
  const info: RangeReading = { stoppedEarly: false, outOfOrder: false, undated: 0, times: new Map() };
  const ids: number[] = [];
  // A log gets the export's line, not this one's too.
  const line = createStatusLine(i.io, i.now, { quiet: i.output === '-' || !i.io.stderrIsTTY });
  try {
    for await (const page of readListInRange(
      i.client,
      i.form.id,
      range,
      {
        state,
        signal: i.signal,
        pace: () => listBudget.take(i.signal),
        observe: (h) => listBudget.observe(h),
      },
      info,
    )) {
      for (const s of page.items) {
        const id = Number(s.id ?? s.pathId);
        const t = info.times!.get(id);
        if (t !== undefined && pick(id, t)) ids.push(id);
      }
      line.update(`Reading the submission list… ${state.pages} page${state.pages === 1 ? '' : 's'}, ${ids.length} chosen`);
    }
  } finally {
    line.done();
  }
  if (!info.stoppedEarly && state.complete === false) {
    throw new CliError(
      `The submission list of form ${i.form.id} could not be read completely (${state.missing ?? '?'} of ${state.total ?? '?'} missing); nothing was exported.`,
      ExitCode.partial,
      'Submissions created in the same second come in no set order on the service, and answers deleted while it is read move the pages; run the command again.',
    );
  }
  return { ids, times: info.times!, info, state };
}

/**
 * The CSV's header alone: from an export of one listed submission with its row dropped, or of the
 * whole form when it has none (then the CSV is the header).
 */
async function headerOnly(i: SelectedExportInput, anyId: number | undefined, budget: WindowBudget): Promise<Buffer> {
  await budget.take(i.signal);
  const started = await startExport(i.client, i.form.id, i.columns, i.signal, anyId === undefined ? undefined : [anyId]);
  // A service with a low async threshold may answer even this with a job: its file stands for the CSV.
  const res =
    started.kind === 'csv'
      ? started.response
      : await chunkJobFile(
          { client: i.client, formId: i.form.id, columns: i.columns, budget, signal: i.signal, jobs: { ...i.jobs, now: i.now, sleep: i.sleep } },
          started.job.job_id,
          anyId === undefined ? 0 : 1,
          1,
        );
  // An HTML page or another answer than the CSV is refused (exit 1), as every export answer is (csv-check.ts).
  const what = `The export of form ${i.form.id}`;
  if (htmlContentType(res.headers)) {
    discard(res.body);
    throw new NotCsvError(what, 'the service sent an HTML page, not the CSV');
  }
  const rows: RowFilterResult = { kept: [], dropped: 0 };
  for await (const piece of filterCsvRows(guardCsv(res.body as AsyncIterable<Uint8Array>, what), () => false, rows)) void piece;
  return rows.header ?? Buffer.alloc(0);
}

/** Writes the chosen rows' CSV to the output (atomically for a file); a header-only file when there are none. */
async function writeCsv(
  i: SelectedExportInput,
  ids: number[],
  o: { header?: Buffer; anyId?: number; budget: WindowBudget; clobber: boolean },
): Promise<{ bytes: number; result: ByIdsResult }> {
  const result: ByIdsResult = { exported: [], gone: [], requests: 0 };
  const line = createStatusLine(i.io, i.now, { quiet: i.output === '-' });
  async function* body(): AsyncGenerator<Buffer> {
    if (ids.length > 0) {
      yield* csvForIds({
        client: i.client,
        formId: i.form.id,
        columns: i.columns,
        ids,
        budget: o.budget,
        signal: i.signal,
        result,
        onChunk: (done, total, rows) =>
          line.update(`Exporting ${rows.toLocaleString('en-US')}/${ids.length.toLocaleString('en-US')} rows (chunk ${done}/${total})`),
        // A refused chunk is asked for again: said on stderr (the progress line cleared first on a terminal).
        onRetry: (text) => {
          if (i.io.stderrIsTTY) line.done();
          void notice(i.io, text, 'warning');
        },
        jobs: {
          ...i.jobs,
          now: i.now,
          sleep: i.sleep,
          memo: {},
          onStatus: (text) => line.update(`Exporting ${ids.length.toLocaleString('en-US')} rows: ${text}`),
        },
      });
    }
    // No row (none chosen, or every chosen one deleted meanwhile): the file still has its header.
    if (result.header === undefined) {
      const header = o.header ?? (await headerOnly(i, o.anyId, o.budget));
      if (o.header === undefined) result.requests++;
      result.header = header;
      yield header;
    }
  }
  try {
    const stream = Readable.from(body());
    // To stdout, more than one chunk is all or nothing (writeToStreamWhole); one chunk is checked whole before a byte goes on.
    const bytes =
      i.output !== '-'
        ? await writeFileAtomically(stream, i.output, { signal: i.signal, clobber: o.clobber, flags: i.flags })
        : ids.length > CHUNK_IDS
          ? await writeToStreamWhole(stream, i.io.stdout, { signal: i.signal, dir: i.spoolDir })
          : await writeToStream(stream, i.io.stdout, { signal: i.signal });
    return { bytes, result };
  } finally {
    line.done();
  }
}

/** `submission export --since/--until`: exactly the rows created in the range. */
export async function exportRange(i: SelectedExportInput, range: TimeRange): Promise<SelectedExportResult> {
  const b = budgets(i);
  const { ids, info, state } = await listIds(i, range, () => true, b.list);
  const { bytes, result } = await writeCsv(i, ids, { anyId: info.anyId, budget: b.exports, clobber: i.clobber === true });
  return { file: i.output, bytes, rows: result.exported.length, gone: result.gone.length, requests: { list: state.pages, export: result.requests } };
}

export interface IncrementalInput extends SelectedExportInput {
  statePath: string;
  /** The state as read (undefined: the first run). */
  state: IncrementalState | undefined;
  service: string;
  /** The export's columns in order (the state's, or the user's on a first run). */
  columnIds: string[];
  /** Called at each step; tests stop a run there as a kill would. */
  checkpoint?: (step: 'listed' | 'pending' | 'written' | 'committed') => Promise<void>;
}

export interface IncrementalResult extends SelectedExportResult {
  /** Rows earlier runs exported that this run found again and left out (the list read down to the boundary's window). */
  known: number;
  boundary: string | null;
  first_run: boolean;
}

/**
 * One run of an incremental export: the new rows (isNew) to the file, then the state advanced. The
 * state is written twice: before the file (naming it as pending, so that a rerun after a kill may
 * replace that file) and after the file is complete under its final name (the commit). A run that
 * stops anywhere before the commit leaves the state as it was: the next run exports the same rows
 * again, with any newer ones.
 */
export async function exportIncremental(i: IncrementalInput): Promise<IncrementalResult> {
  const b = budgets(i);
  const from = readFrom(i.state);
  let known = 0;
  const {
    ids,
    times,
    info,
    state: list,
  } = await listIds(
    i,
    { since: from },
    (id, t) => {
      if (isNew(i.state, id, t)) return true;
      known++;
      return false;
    },
    b.list,
  );
  await i.checkpoint?.('listed');
  const base = i.state ?? newState(i.service, i.form.id, i.columnIds);
  const file = resolvePath(i.output);
  // A run killed before its commit may have left its file complete under another name: its rows are
  // in this run's file again, so that file goes (a directory of finished files then holds each row once).
  const stale = i.state?.pending?.file;
  if (
    stale !== undefined &&
    stale !== file &&
    (await unlink(stale).then(
      () => true,
      () => false,
    ))
  ) {
    await notice(i.io, `removed ${stale}, the file of a run that did not finish (its rows are in this export again).`);
  }
  // A run killed while it wrote (kill -9, a crash) left its `.part` and owner record: removed too, or
  // an outbox of one name per run would keep them for ever.
  if (stale !== undefined && stale !== file && (await sweepPart(stale))) {
    await notice(i.io, `removed ${partName(stale)}, left by a run that did not finish.`);
  }
  // The state as it was, put back when the export fails (nothing was saved, so nothing is pending).
  const before = await readFile(i.statePath, 'utf8').catch(() => undefined);
  await writeState(i.statePath, { ...base, pending: { file, started: new Date(i.now()).toISOString() } });
  await i.checkpoint?.('pending');
  const replacesPending = i.state?.pending?.file === file;
  let written: Awaited<ReturnType<typeof writeCsv>>;
  try {
    written = await writeCsv(i, ids, {
      header: i.state?.header ? Buffer.from(i.state.header, 'utf8') : undefined,
      anyId: info.anyId,
      budget: b.exports,
      clobber: i.clobber === true || replacesPending,
    });
  } catch (err) {
    await (before === undefined ? unlink(i.statePath) : writeFileAtomic(i.statePath, before, { mode: 0o600 })).catch(() => undefined);
    throw err;
  }
  const { bytes, result } = written;
  await i.checkpoint?.('written');
  const exported = new Map<number, number>();
  for (const id of result.exported) exported.set(id, times.get(id)!);
  const next = advance(base, exported, result.header ? result.header.toString('utf8') : null, { at: new Date(i.now()), file });
  await writeState(i.statePath, next);
  await i.checkpoint?.('committed');
  return {
    file: i.output,
    bytes,
    rows: result.exported.length,
    gone: result.gone.length,
    requests: { list: list.pages, export: result.requests },
    known,
    boundary: next.boundary,
    // A state whose only run was killed before its commit has exported nothing yet: this is still the first run.
    first_run: base.runs === 0,
  };
}

/**
 * The CSV of exactly `ids` (in that order, at most 1,000 a request) to the output: the safety copy of
 * a bulk delete. The result names the ids whose rows the file holds.
 */
export async function exportIds(
  i: SelectedExportInput,
  ids: number[],
  anyId?: number,
): Promise<SelectedExportResult & { exported: number[]; header: Buffer | undefined }> {
  const b = budgets(i);
  const { bytes, result } = await writeCsv(i, ids, { anyId: anyId ?? ids[0], budget: b.exports, clobber: i.clobber === true });
  return {
    header: result.header,
    file: i.output,
    bytes,
    rows: result.exported.length,
    gone: result.gone.length,
    requests: { list: 0, export: result.requests },
    exported: result.exported,
  };
}
