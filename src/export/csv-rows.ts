// Picking rows out of an export's CSV by their `id` (the first column of every export, both
// services: docs/service.md, Export), with each kept record's bytes passed on exactly as they came.
// csv-parse reads the records (quoted fields may hold commas and line breaks); its byte offsets say
// where each record ends, so the record is cut from the input itself and never re-written.
import { finished } from 'node:stream/promises';
import type { Parser } from 'csv-parse';
import { CliError } from '../errors.js';

/** An export's CSV that csv-parse cannot read (exit 1): nothing of it is saved. */
export class CsvUnreadableError extends CliError {
  constructor(readonly detail: string) {
    super(`The export's CSV could not be read (${detail}); nothing was saved.`);
  }
}

const unreadable = (err: Error) => new CsvUnreadableError(err.message.split('\n')[0] ?? '');

export interface RowFilterResult {
  /** The header record's bytes (with a BOM when the CSV has one), or undefined for an empty body. */
  header?: Buffer;
  /** The id cells of the rows kept, in the order they came. */
  kept: string[];
  /** Rows dropped. */
  dropped: number;
}

/**
 * The CSV `body` with the header record (unless `withHeader` is false) and only the rows whose id
 * cell `keep` accepts. Fills `result` as it goes.
 */
export async function* filterCsvRows(
  body: AsyncIterable<Uint8Array>,
  keep: (idCell: string) => boolean,
  result: RowFilterResult,
  o: { withHeader?: boolean } = {},
): AsyncGenerator<Buffer> {
  const { parse } = await import('csv-parse');
  const parser: Parser = parse({ info: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false });
  let pending = Buffer.alloc(0);
  /** The input offset of `pending`'s first byte. */
  let base = 0;
  let index = 0;
  const take = function* (): Generator<Buffer> {
    for (;;) {
      const r = parser.read() as { record: string[]; info: { bytes: number } } | null;
      if (r === null) return;
      const end = r.info.bytes - base;
      const raw = pending.subarray(0, end);
      pending = pending.subarray(end);
      base = r.info.bytes;
      if (index++ === 0) {
        result.header = Buffer.from(raw);
        if (o.withHeader !== false) yield Buffer.from(raw);
        continue;
      }
      const id = (r.record[0] ?? '').trim();
      if (keep(id)) {
        result.kept.push(id);
        yield Buffer.from(raw);
      } else result.dropped++;
    }
  };
  let failed: Error | undefined;
  parser.on('error', (err: Error) => (failed = err));
  for await (const piece of body) {
    const buf = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    pending = pending.length ? Buffer.concat([pending, buf]) : Buffer.from(buf);
    parser.write(buf);
    if (failed) throw unreadable(failed);
    yield* take();
  }
  parser.end();
  // An error found at the end (a quote left open) is told after end() returns: waited for.
  await finished(parser, { readable: false }).catch(() => undefined);
  if (failed) throw unreadable(failed);
  yield* take();
}
