// The CSV of chosen submissions: `submissionIds` chunks of at most 1,000, each answered with the CSV
// at once (docs/service.md, Export), joined into one file with one header. Every chunk goes through
// the export in chunks' one checked path (checkedChunk, src/export/chunked.ts) in its `chosen` mode:
// an HTML page or a chunk without exactly its rows is asked for again, 3 times in all, then the export
// fails and nothing is saved; a service that ignores `submissionIds` (the spec does not list it) and
// sends every row still yields only the chosen ones. A chunk answered with an export job (a service
// whose async threshold is below 1,000) is waited for, and the job's file is checked as the CSV is.
import type { ApiClient } from '../api/client.js';
import { CHUNK_IDS, type ChunkJobWait, CsvJoiner, type IdColumn, type WindowBudget, checkedChunk } from './chunked.js';

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
  /** Told when a chunk's answer is refused and the chunk is asked for again. */
  onRetry?: (text: string) => void;
  /** How a chunk answered with an export job is waited for (a service with a low async threshold). */
  jobs: ChunkJobWait;
}

/** The chosen submissions' CSV (header first); yields nothing for no ids. Fills `o.result` as it goes. */
export async function* csvForIds(o: ByIdsOptions): AsyncGenerator<Buffer> {
  const total = Math.ceil(o.ids.length / CHUNK_IDS);
  const joiner = new CsvJoiner();
  const idColumn: IdColumn = {};
  const request = { ...o, onRequest: () => void o.result.requests++ };
  for (let i = 0; i < o.ids.length; i += CHUNK_IDS) {
    const got = await checkedChunk(request, o.ids.slice(i, i + CHUNK_IDS), { index: i / CHUNK_IDS + 1, rows: 'chosen', idColumn });
    o.result.gone.push(...got.gone);
    if (got.ids.length === 0) continue;
    o.result.header ??= got.header;
    joiner.next();
    for (const piece of got.pieces) {
      const out = joiner.take(piece);
      if (out.length > 0) yield Buffer.isBuffer(out) ? out : Buffer.from(out.buffer, out.byteOffset, out.length);
    }
    o.result.exported.push(...got.ids);
    o.onChunk?.(i / CHUNK_IDS + 1, total, o.result.exported.length);
  }
}
