// The CSV of chosen submissions: `submissionIds` chunks of at most 1,000, each answered with the CSV
// at once (docs/service.md, Export), joined into one file with one header. Every chunk's rows are
// checked against the ids it asked for (src/export/csv-rows.ts): a service that ignores
// `submissionIds` (the spec does not list it) and sends every row still yields only the chosen ones.
import type { ApiClient } from '../api/client.js';
import { ValidationError } from '../api/errors.js';
import { startExport } from '../api/exports.js';
import { CliError, ExitCode } from '../errors.js';
import { CHUNK_IDS, type WindowBudget, goneIds } from './chunked.js';
import { type RowFilterResult, filterCsvRows } from './csv-rows.js';

export interface ByIdsResult {
  /** The header record as the first chunk sent it (BOM included), when any chunk was exported. */
  header?: Buffer;
  /** The ids whose rows are in the CSV, in the order written. */
  exported: number[];
  /** Ids the service refused as gone (deleted since they were listed): not in the CSV. */
  gone: number[];
  /** Export requests made. */
  requests: number;
}

export interface ByIdsOptions {
  client: ApiClient;
  formId: number;
  columns: Record<string, boolean>;
  ids: readonly number[];
  /** The export limit's budget (10 a minute on the deployed service). */
  budget: WindowBudget;
  signal?: AbortSignal;
  result: ByIdsResult;
  /** After each chunk is written: chunks done and in all, rows so far. */
  onChunk?: (done: number, total: number, rows: number) => void;
}

/** The chosen submissions' CSV (header first); yields nothing for no ids. Fills `o.result` as it goes. */
export async function* csvForIds(o: ByIdsOptions): AsyncGenerator<Buffer> {
  const total = Math.ceil(o.ids.length / CHUNK_IDS);
  for (let i = 0; i < o.ids.length; i += CHUNK_IDS) {
    let chunk = o.ids.slice(i, i + CHUNK_IDS);
    let res: Awaited<ReturnType<typeof startExport>> | undefined;
    while (chunk.length > 0 && res === undefined) {
      await o.budget.take(o.signal);
      o.result.requests++;
      try {
        res = await startExport(o.client, o.formId, o.columns, o.signal, chunk);
      } catch (err) {
        const gone = goneIds(err, chunk);
        if (!gone || !(err instanceof ValidationError)) throw err;
        o.result.gone.push(...gone);
        chunk = chunk.filter((id) => !gone.has(id));
      }
    }
    if (res === undefined) continue;
    if (res.kind !== 'csv') {
      throw new CliError(
        `The service answered an export of ${chunk.length} chosen submissions with a job, not the CSV, so they cannot be exported by id.`,
        ExitCode.error,
        'Rerun with --debug and report the response.',
      );
    }
    o.budget.observe(res.response.headers);
    // The sandbox and a service that ignores `submissionIds` write numeric ids: only the rows asked
    // for pass. The deployed service writes a Hashids code of each id (OpnForm
    // FormExportService.php:55): its rows are the ids asked for, which their count must bear out.
    const wanted = new Set(chunk.map(String));
    let coded = 0;
    const rows: RowFilterResult = { kept: [], dropped: 0 };
    const keep = (cell: string) => {
      if (/^\d+$/.test(cell)) return wanted.delete(cell);
      coded++;
      return true;
    };
    yield* filterCsvRows(res.response.body as AsyncIterable<Uint8Array>, keep, rows, { withHeader: o.result.header === undefined });
    if (coded > 0 && rows.kept.length !== chunk.length) {
      throw new CliError(
        `The export of ${chunk.length} chosen submissions of form ${o.formId} came back with ${rows.kept.length} rows; nothing was saved.`,
        ExitCode.error,
        'Run the command again; if it keeps happening, rerun with --debug and report the response.',
      );
    }
    o.result.header ??= rows.header;
    o.result.exported.push(...(coded > 0 ? chunk : rows.kept.map(Number)));
    o.onChunk?.(i / CHUNK_IDS + 1, total, o.result.exported.length);
  }
}
