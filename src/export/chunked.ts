import type { ApiClient } from '../api/client.js';
import { numericIdOf } from '../submissions/ref.js';
import { type WholeListPage, type WholeListState, readWholeList } from '../submissions/whole-list.js';
import type { StreamResponse } from '../api/client.js';
import { ExportStatusClosedError, type StatusPathMemo, openExportFile, startExport } from '../api/exports.js';
import { describeStatus, waitForExport } from './wait.js';
import { CliError, ExitCode, InterruptedError } from '../errors.js';
import { ValidationError } from '../api/errors.js';
import { budgetFor } from '../api/ratelimit.js';
import { NOT_CSV_HINT, NotCsvError, guardCsv, htmlContentType } from './csv-check.js';
import { CsvUnreadableError, type RowFilterResult, filterCsvRows } from './csv-rows.js';

/** How many times one chunk is asked for when its answer is not the CSV of exactly its ids (each ask is one export of the 10 a minute). */
export const CHUNK_ATTEMPTS = 3;

/** The deployed service answers an export synchronously for at most this many `submissionIds`. */
export const CHUNK_IDS = 1000;

const BOM = [0xef, 0xbb, 0xbf];

/**
 * Joins CSV chunks into one file (docs/submission-update.md, "Exports above 1,000 rows"): the first
 * chunk passes untouched (its BOM and header line are the file's); every later chunk loses a leading
 * BOM and its header line (up to the first line break outside quotes). Bytes are passed on as they
 * come, so memory stays flat whatever the chunk size.
 */
export class CsvJoiner {
  private index = -1;
  /** Bytes of the current chunk's start still to check against the BOM. */
  private bomLeft = 0;
  private bomSeen = 0;
  private inHeader = false;
  private inQuotes = false;

  /** Starts the next chunk. */
  next(): void {
    this.index++;
    this.bomLeft = this.index > 0 ? BOM.length : 0;
    this.bomSeen = 0;
    this.inHeader = this.index > 0;
    this.inQuotes = false;
  }

  /** The part of `buf` (a piece of the current chunk) that belongs in the joined file. */
  take(buf: Uint8Array): Uint8Array {
    if (this.index === 0 || (!this.inHeader && this.bomLeft === 0)) return buf;
    let i = 0;
    while (this.bomLeft > 0 && i < buf.length) {
      if (buf[i] === BOM[this.bomSeen]) {
        this.bomSeen++;
        this.bomLeft--;
        i++;
        continue;
      }
      // No (complete) BOM: the bytes taken for one belong to the header, which is dropped anyway.
      this.bomLeft = 0;
    }
    while (this.inHeader && i < buf.length) {
      const b = buf[i++]!;
      if (b === 0x22) this.inQuotes = !this.inQuotes;
      else if (b === 0x0a && !this.inQuotes) this.inHeader = false;
    }
    return i === 0 ? buf : buf.subarray(i);
  }
}

/**
 * A rate limit's budget (the deployed service: 100 requests a minute per user, and 10 exports).
 * Requests go back to back while the window has room and wait for the next window when it has none;
 * `X-RateLimit-Limit` / `-Remaining` from each answer keep the count true when other requests share
 * it (`cap`: the headers may lower the limit, never raise it above this).
 *
 * It keeps within what the rate budget shared with other formctl processes admits (src/api/ratelimit.ts):
 * `budgetFor(limit)` requests in any 60 s, a sliding span. So a window lets that many through, and the
 * next one opens 60 s after the window's last request: no 60 s span holds requests of two windows.
 * Otherwise the shared budget would hold requests back itself, and those waits, counted against
 * --max-wait for the whole command, would end a long export with a refusal (exit 8).
 */
export class WindowBudget {
  /** When the window's last request went. */
  private lastTake: number | undefined;
  private used = 0;

  constructor(
    private limit: number,
    private readonly now: () => number,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
    /** Slack after the window's end, for the two clocks' difference. */
    private readonly marginMs = 500,
    private readonly cap = Number.POSITIVE_INFINITY,
  ) {
    this.limit = Math.min(limit, cap);
  }

  /** Resolves when one more export may go. */
  async take(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new InterruptedError();
    let t = this.now();
    if (this.lastTake !== undefined && t - this.lastTake >= 60_000) this.reset();
    if (this.used >= budgetFor(this.limit)) {
      const last = this.lastTake ?? t;
      const wait = last + 60_000 + this.marginMs - t;
      if (wait > 0) await this.sleep(wait, signal);
      if (signal?.aborted) throw new InterruptedError();
      this.reset();
      t = this.now();
    }
    this.lastTake = t;
    this.used++;
  }

  /** What the answer's headers say about the window. */
  observe(headers: Record<string, string | string[] | undefined>): void {
    const num = (k: string) => {
      const v = headers[k];
      const n = Number(Array.isArray(v) ? v[0] : v);
      return v !== undefined && Number.isFinite(n) ? n : undefined;
    };
    const limit = num('x-ratelimit-limit');
    const remaining = num('x-ratelimit-remaining');
    if (limit !== undefined && limit > 0) this.limit = Math.min(limit, this.cap);
    if (remaining !== undefined) this.used = Math.max(this.used, this.limit - remaining);
  }

  private reset(): void {
    this.lastTake = undefined;
    this.used = 0;
  }
}

/**
 * The form's submission ids in list order (newest first), in chunks of at most CHUNK_IDS, each page
 * request paced by the general limit. The list is read whole, each id once, by readWholeList
 * (src/submissions/whole-list.ts): it shifts while it is read (answers arriving, submissions deleted)
 * and orders same-second submissions differently from one page request to the next.
 */
export class IdChunks {
  private readonly state: WholeListState;
  private readonly pagesIn: AsyncGenerator<WholeListPage>;
  private done = false;
  private buffered: number[] = [];

  constructor(client: ApiClient, formId: number, budget: WindowBudget, signal?: AbortSignal, state?: WholeListState) {
    this.state = state ?? { pages: 0, distinct: 0, rereads: 0 };
    this.pagesIn = readWholeList(client, formId, {
      signal,
      state: this.state,
      pace: () => budget.take(signal),
      observe: (headers) => budget.observe(headers),
    });
  }

  /** The list's total, once page 1 was read. */
  get total(): number | undefined {
    return this.state.total;
  }

  /** List requests made. */
  get pages(): number {
    return this.state.pages;
  }

  /** The next chunk of ids; empty when the list is exhausted. */
  async next(): Promise<number[]> {
    while (!this.done && this.buffered.length < CHUNK_IDS) {
      const r = await this.pagesIn.next();
      if (r.done) this.done = true;
      else
        for (const s of r.value.items) {
          const id = numericIdOf(s);
          if (id !== undefined) this.buffered.push(id);
        }
    }
    return this.buffered.splice(0, CHUNK_IDS);
  }
}

export interface ChunkProgress {
  chunks: number;
  /** Chunks in all, once the list's total is known. */
  totalChunks?: number;
  rows: number;
  totalRows?: number;
}

export interface ChunkedCsvOptions extends ChunkRequest {
  /** The general limit's budget, for the list pages. */
  listBudget: WindowBudget;
  /** Filled as the list is read: whether it could be read whole (see readWholeList). */
  listState?: WholeListState;
  onProgress?: (p: ChunkProgress) => void;
}

/**
 * The form's CSV, exported synchronously in chunks of at most 1,000 `submissionIds` taken from the
 * list, joined into one CSV (one BOM, one header). The next chunk's ids are read from the list while
 * the current chunk downloads, so the list and the export limit overlap. Bytes come out as they
 * arrive: memory stays flat whatever the form's size.
 */
export async function* chunkedCsv(o: ChunkedCsvOptions): AsyncGenerator<Buffer> {
  // The list read ahead is stopped once the export ends (done, failed or interrupted): left running,
  // it would go on against a client being closed, and retry and print notes after the error.
  const readAhead = new AbortController();
  try {
    yield* chunks(o, o.signal ? AbortSignal.any([o.signal, readAhead.signal]) : readAhead.signal);
  } finally {
    readAhead.abort();
  }
}

async function* chunks(o: ChunkedCsvOptions, listSignal: AbortSignal): AsyncGenerator<Buffer> {
  const ids = new IdChunks(o.client, o.formId, o.listBudget, listSignal, o.listState);
  const joiner = new CsvJoiner();
  const progress: ChunkProgress = { chunks: 0, rows: 0 };
  const idColumn: IdColumn = {};
  let next = ids.next();
  // A prefetch that fails while a chunk downloads is reported when it is awaited, not as unhandled.
  next.catch(() => undefined);
  for (;;) {
    const chunk = await next;
    if (chunk.length === 0) {
      if (progress.chunks > 0) return;
      throw new CliError('The service answered the export with a job, but its submission list is empty, so there is nothing to export in chunks.');
    }
    next = ids.next();
    next.catch(() => undefined);
    const got = await checkedChunk(o, chunk, { index: progress.chunks + 1, rows: 'exact', idColumn });
    if (got.ids.length === 0) continue;
    joiner.next();
    for (const piece of got.pieces) {
      const out = joiner.take(piece);
      if (out.length > 0) yield Buffer.isBuffer(out) ? out : Buffer.from(out.buffer, out.byteOffset, out.length);
    }
    progress.chunks++;
    progress.rows += got.ids.length;
    if (ids.total !== undefined) {
      progress.totalRows = Math.max(ids.total, progress.rows);
      progress.totalChunks = Math.max(progress.chunks, Math.ceil(progress.totalRows / CHUNK_IDS));
    }
    o.onProgress?.({ ...progress });
  }
}

/** `submissionIds.<i>` field errors: the deployed service's `exists` rule refusing ids of submissions deleted since the list was read. */
export function goneIds(err: unknown, chunk: number[]): Set<number> | undefined {
  if (!(err instanceof ValidationError) || !err.errors) return undefined;
  const gone = new Set<number>();
  for (const key of Object.keys(err.errors)) {
    const m = /^submissionIds\.(\d+)$/.exec(key);
    const id = m ? chunk[Number(m[1])] : undefined;
    if (id === undefined) return undefined;
    gone.add(id);
  }
  return gone.size > 0 ? gone : undefined;
}

/**
 * Which rows a chunk must hold. `exact` (the whole form in chunks): the rows of the ids asked for and
 * no other. `chosen` (a time range, an incremental run, a bulk delete's safety copy): a service that
 * ignores `submissionIds` (the spec does not list it) sends every row, and only those asked for are
 * kept; every one of them must still be there.
 */
export type ChunkRows = 'exact' | 'chosen';

/**
 * What the chunks of one export showed of the `id` column. `plain`: a chunk held every id asked for
 * under its own number (the sandbox), so later chunks are held to their ids too. The deployed service
 * writes a Hashids code of each id instead (OpnForm `FormExportService.php:55`; its sandbox flavour
 * writes a stand-in, docs/service.md, "Export"), which formctl cannot decode: there the row count and
 * the distinct codes are what is checked. A code may be all digits, so digits alone prove nothing.
 */
export interface IdColumn {
  plain?: boolean;
  /** The codes of the chunks taken so far (coded ids): a code never names two submissions, so none may come back in a later chunk. */
  codes?: Set<string>;
}

export interface ChunkRequest {
  client: ApiClient;
  formId: number;
  columns: Record<string, boolean>;
  /** The export limit's budget. */
  budget: WindowBudget;
  signal?: AbortSignal;
  /** Told when a chunk's answer is refused and the chunk is asked for again. */
  onRetry?: (text: string) => void;
  /** Told before each export request. */
  onRequest?: () => void;
  /** How a chunk answered with an export job is waited for (chunkJobFile). */
  jobs: ChunkJobWait;
}

/**
 * Waiting for a chunk's export job. The deployed service answers every chunk (at most 1,000 ids) with
 * the CSV at once; a service whose async threshold is lower (the spec leaves it open: the sandbox's
 * --export-async-threshold) answers with a job, whose file then stands for the chunk's CSV.
 */
export interface ChunkJobWait {
  /** --poll-interval. */
  pollMs: number;
  /** --wait-timeout, for each chunk's job. */
  timeoutMs: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The hint when a job outlasts timeoutMs (what to raise, and that nothing was saved or deleted). */
  timeoutHint: string;
  /** Which status path answered: shared by the chunks of one export. */
  memo?: StatusPathMemo;
  /** Each status read, as a line ("chunk 2: processing ▕███░▏ 40%"). */
  onStatus?: (text: string) => void;
}

export interface CheckedChunk {
  /** The chunk's CSV as it goes on: its header record, then the rows kept, each with its bytes as they came. */
  pieces: Buffer[];
  /** The header record (BOM included), when the answer had one. */
  header?: Buffer;
  /** The ids whose rows are in `pieces`, in their order there. */
  ids: number[];
  /** Ids the service refused as gone (deleted since they were listed): asked for again without them. */
  gone: number[];
}

/**
 * Exports one chunk of ids. The service refuses (422) a chunk naming a submission that no longer
 * exists: such ids (deleted since the list was read) are dropped and the chunk is asked again;
 * undefined when none is left.
 */
async function exportChunk(o: ChunkRequest, chunk: number[]): Promise<{ res: Awaited<ReturnType<typeof startExport>>; ids: number[] } | undefined> {
  let ids = chunk;
  for (;;) {
    if (ids.length === 0) return undefined;
    await o.budget.take(o.signal);
    o.onRequest?.();
    try {
      return { res: await startExport(o.client, o.formId, o.columns, o.signal, ids), ids };
    } catch (err) {
      const gone = goneIds(err, ids);
      if (!gone) throw err;
      ids = ids.filter((id) => !gone.has(id));
    }
  }
}

/**
 * The file of the export job a chunk was answered with, once the job completed: the status polled
 * every `jobs.pollMs` up to `jobs.timeoutMs` (exit 11 past it), a failed job exit 1. A service that
 * does not let tokens read the job's status (the deployed server's 404 with an empty message) ends
 * the export (exit 1) at the first status read: that server never answers a chunk with a job, so
 * this one differs from it, and no wait could fetch the file.
 */
export async function chunkJobFile(o: ChunkRequest, jobId: string, count: number, index: number): Promise<StreamResponse> {
  let fileUrl: string;
  try {
    const status = await waitForExport({
      client: o.client,
      formId: o.formId,
      jobId,
      pollMs: o.jobs.pollMs,
      timeoutMs: o.jobs.timeoutMs,
      now: o.jobs.now,
      sleep: o.jobs.sleep,
      signal: o.signal,
      memo: o.jobs.memo,
      timeoutHint: o.jobs.timeoutHint,
      onStatus: (s) => o.jobs.onStatus?.(`chunk ${index}: export job ${describeStatus(s)}`),
    });
    fileUrl = status.file_url;
  } catch (err) {
    if (!(err instanceof ExportStatusClosedError)) throw err;
    throw new CliError(
      `The service answered the export of ${count.toLocaleString('en-US')} chosen submissions (chunk ${index} of the export of form ${o.formId}) with export job ${jobId}, whose status API tokens may not read (HTTP 404 with an empty message), so its CSV cannot be fetched; nothing was saved. The deployed OpnForm server answers up to ${CHUNK_IDS.toLocaleString('en-US')} chosen submissions with the CSV at once: this service differs from it.`,
      ExitCode.error,
      'Ask the service operator how this service exports chosen submissions; rerun with --debug to see its answers.',
    );
  }
  return openExportFile(o.client, fileUrl, o.signal);
}

/** A chunk's CSV that does not hold exactly the rows it asked for (why, in a few words). */
class ChunkRowsError extends Error {}

/**
 * Exports one chunk and checks its answer before any of it goes on (docs/submission-update.md,
 * "Exports above 1,000 rows"): the CSV itself (not an HTML page, the id column first), then its rows
 * (judgeRows). A refused answer is asked for again, CHUNK_ATTEMPTS times in all; then the export fails
 * (exit 1) and no file is saved. The one path of every export by `submissionIds`: the whole form in
 * chunks (`rows: 'exact'`) and chosen rows (`'chosen'`, src/export/by-ids.ts). The chunk's rows (at most
 * 1,000, and as many others when a service sends rows not asked for) are held in memory until checked.
 */
export async function checkedChunk(o: ChunkRequest, chunk: number[], x: { index: number; rows: ChunkRows; idColumn: IdColumn }): Promise<CheckedChunk> {
  const what = `Chunk ${x.index} of the export of form ${o.formId}`;
  for (let attempt = 1; ; attempt++) {
    const started = await exportChunk(o, chunk);
    if (started === undefined) return { pieces: [], ids: [], gone: chunk };
    const { ids } = started;
    o.budget.observe(started.res.kind === 'csv' ? started.res.response.headers : started.res.headers);
    // A job's file is the chunk's CSV, and gets every check the CSV answered at once gets.
    const res = started.res.kind === 'csv' ? started.res.response : await chunkJobFile(o, started.res.job.job_id, ids.length, x.index);
    let reason: string;
    try {
      if (htmlContentType(res.headers)) {
        res.body.on('error', () => undefined).destroy();
        throw new NotCsvError(what, 'the service sent an HTML page, not the CSV');
      }
      const asked = new Set(ids.map(String));
      let spare = 0;
      // Rows of ids not asked for are kept as many as were asked for: enough to judge a chunk whose codes are all digits.
      const keep = (cell: string) => asked.has(cell) || !/^\d+$/.test(cell) || spare++ < ids.length;
      const rows: RowFilterResult = { kept: [], dropped: 0 };
      const out: Buffer[] = [];
      for await (const piece of filterCsvRows(guardCsv(res.body as AsyncIterable<Uint8Array>, what), keep, rows)) out.push(piece);
      const header = rows.header;
      const records = header === undefined ? out : out.slice(1);
      const taken = judgeRows(rows.kept, rows.dropped, ids, x.rows, x.idColumn);
      const pieces = header === undefined ? [] : [header];
      const got: number[] = [];
      records.forEach((r, i) => {
        if (!taken[i]) return;
        pieces.push(r);
        got.push(x.idColumn.plain ? Number(rows.kept[i]) : ids[got.length]!);
      });
      return { pieces, header, ids: got, gone: chunk.filter((id) => !asked.has(String(id))) };
    } catch (err) {
      if (err instanceof NotCsvError) reason = 'the service sent an HTML page or something else than the CSV';
      else if (err instanceof ChunkRowsError) reason = err.message;
      else if (err instanceof CsvUnreadableError) reason = `its CSV could not be read (${err.detail})`;
      else throw err;
      if (attempt >= CHUNK_ATTEMPTS) {
        if (err instanceof NotCsvError)
          throw new NotCsvError(
            what,
            `${err.message.replace(/^[^:]*: /, '').replace(/; nothing was saved\.$/, '')} (asked ${attempt} times); the export was stopped`,
          );
        throw new CliError(
          `${what} did not hold its ${ids.length.toLocaleString('en-US')} rows: ${reason} (asked ${attempt} times); the export was stopped, and no file is saved without every row.`,
          ExitCode.error,
          NOT_CSV_HINT,
        );
      }
    }
    o.onRetry?.(`${what.toLowerCase()} was refused (${reason}); asking for it again (attempt ${attempt + 1} of ${CHUNK_ATTEMPTS}).`);
  }
}

/**
 * Which of a chunk's rows go on (by their id cells, `cells`; `dropped` rows of ids not asked for were
 * not kept), or ChunkRowsError when the chunk does not hold the rows of `ids`:
 * - every id asked for came back under its own number: the ids are the service's (the sandbox). Each
 *   must be there once; a row of an id not asked for is refused (`exact`) or left out (`chosen`);
 * - otherwise, unless an earlier chunk showed plain ids: the ids are coded (the deployed service). The
 *   chunk must hold one row per id asked for, each code once and none an earlier chunk had (a proxy
 *   answering with an earlier chunk's CSV), and every row goes on.
 */
export function judgeRows(cells: string[], dropped: number, ids: number[], rows: ChunkRows, idColumn: IdColumn): boolean[] {
  const n = (x: number) => x.toLocaleString('en-US');
  // "1 row came back twice", "2 rows came back twice"; "1 row is of a submission…", "2 rows are of submissions…".
  const rowCount = (k: number) => `${n(k)} ${k === 1 ? 'row' : 'rows'}`;
  const notAsked = (k: number, id: string | undefined) =>
    `${rowCount(k)} ${k === 1 ? 'is of a submission' : 'are of submissions'} not asked for (e.g. id ${id})`;
  // "1 of 2 rows came back", or, when there are more than asked for, "7 rows came back for the 2 asked".
  const cameBack = (got: number) =>
    got > ids.length ? `${rowCount(got)} came back for the ${n(ids.length)} asked` : `${n(got)} of ${n(ids.length)} rows came back`;
  const asked = new Set(ids.map(String));
  const found = new Set(cells.filter((c) => asked.has(c)));
  if (found.size === asked.size) {
    idColumn.plain = true;
    const hits = cells.filter((c) => asked.has(c)).length;
    if (hits > asked.size) throw new ChunkRowsError(`${rowCount(hits - asked.size)} came back twice`);
    const other = cells.find((c) => !asked.has(c));
    if (rows === 'exact' && (other !== undefined || dropped > 0)) {
      throw new ChunkRowsError(notAsked(cells.length - hits + dropped, other));
    }
    return cells.map((c) => asked.has(c));
  }
  const count = cells.length + dropped;
  if (idColumn.plain) {
    const distinct = new Set(cells).size;
    if (count === ids.length && distinct < cells.length) throw new ChunkRowsError(`${rowCount(cells.length - distinct)} came back twice`);
    const other = cells.find((c) => !asked.has(c));
    if (count === ids.length && other !== undefined) throw new ChunkRowsError(notAsked(count - found.size, other));
    throw new ChunkRowsError(cameBack(found.size));
  }
  if (count !== ids.length) throw new ChunkRowsError(cameBack(count));
  const distinct = new Set(cells).size;
  if (distinct !== cells.length) throw new ChunkRowsError(`${rowCount(cells.length - distinct)} came back twice`);
  const codes = (idColumn.codes ??= new Set());
  const again = cells.filter((c) => codes.has(c));
  if (again.length > 0) throw new ChunkRowsError(`${rowCount(again.length)} came back in an earlier chunk too (e.g. id ${again[0]})`);
  for (const c of cells) codes.add(c);
  return cells.map(() => true);
}
