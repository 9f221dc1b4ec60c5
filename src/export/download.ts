import type { StreamResponse } from '../api/client.js';
import type { IOStreams } from '../io/iostreams.js';
import { dispositionFilename } from './filename.js';
import { notice } from '../io/output.js';
import { createStatusLine } from '../io/status-line.js';
import { formatBytes } from './progress.js';
import { discard, precheckTarget, writeFileAtomically, writeToStream } from './sink.js';
import { NotCsvError, guardCsv, htmlContentType } from './csv-check.js';
import { Readable } from 'node:stream';

export interface SaveOptions {
  io: IOStreams;
  res: StreamResponse;
  /** `-o` value: a path, `-` for stdout, or undefined for the server's file name. */
  output?: string;
  /** Used when the response names no file. */
  fallbackName: string;
  clobber?: boolean;
  signal?: AbortSignal;
  now: () => number;
  /** What is downloaded, for an error ("The export of form 42"). */
  what?: string;
}

/**
 * Streams a CSV response to its target, bytes untouched (docs/service-details.md, Export), with a byte
 * counter on a TTY. An answer that is not the export's CSV (an HTML page, a first line without the id
 * column) is refused before a byte is written: exit 1, nothing under the final name (csv-check.ts).
 */
export async function saveExport(o: SaveOptions): Promise<{ file: string; bytes: number }> {
  const what = o.what ?? 'The export';
  if (htmlContentType(o.res.headers)) {
    discard(o.res.body);
    throw new NotCsvError(what, `the service sent an HTML page (Content-Type ${String(o.res.headers['content-type'])}), not the CSV`);
  }
  // Where the CSV goes: -o (a path, or - for stdout), else the name the service gives.
  const file = o.output ?? dispositionFilename(o.res.headers['content-disposition']) ?? o.fallbackName;
  try {
    await precheckTarget(file, o.clobber, o.now);
  } catch (err) {
    discard(o.res.body);
    throw err;
  }
  const body = Readable.from(guardCsv(o.res.body, what));
  const line = createStatusLine(o.io, o.now);
  // With -o - the CSV may be on this very terminal: no byte counter beside it.
  const onBytes = o.io.stderrIsTTY && file !== '-' ? (n: number) => line.update(`Downloading ${file}: ${formatBytes(n)}`) : undefined;
  let bytes: number;
  try {
    bytes =
      file === '-'
        ? await writeToStream(body, o.io.stdout, { signal: o.signal, onBytes })
        : await writeFileAtomically(body, file, { signal: o.signal, onBytes, clobber: o.clobber });
  } finally {
    line.done();
  }
  if (o.res.untilClose) {
    await notice(
      o.io,
      `the server did not say how long the CSV is (no Content-Length, not chunked), so a download cut short cannot be told from a complete one; check the row count of ${file === '-' ? 'the CSV' : file}.`,
      'warning',
    );
  }
  return { file, bytes };
}
