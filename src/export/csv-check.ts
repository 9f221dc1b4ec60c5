// What formctl checks about an export's answer before any of it is saved (docs/security.md, "A broken
// server cannot fool formctl"): a 200 can carry a proxy's HTML error page, an empty body or a CSV
// without its rows, and each must fail instead of becoming a file under the name asked for.
import { CliError, ExitCode } from '../errors.js';

/** The export CSV's first bytes: a UTF-8 byte order mark (OpnForm's FormExportService.php:121, and Laravel Excel's `use_bom`). */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** How much of an answer is read to find its header line before it is judged not to be an export. */
export const HEAD_LIMIT = 64 * 1024;

/** The hint of every refused answer: the usual cause is a base URL that points at a web page, or a proxy in the way. */
export const NOT_CSV_HINT =
  "Check the base URL (formctl auth status): it must point at the form service's API, and no proxy or login page may stand in between. Rerun with --debug to see the exchange.";

/** An answer that is not the export's CSV (exit 1): nothing of it is saved under the final name. */
export class NotCsvError extends CliError {
  constructor(what: string, detail: string) {
    super(`${what}: ${detail}; nothing was saved.`, ExitCode.error, NOT_CSV_HINT, { hintChecksBaseUrl: true });
  }
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string {
  const v = headers[name];
  return (Array.isArray(v) ? v.join(', ') : (v ?? '')).toLowerCase();
}

/** A content type that announces a web page: such an answer is refused before a byte is read. */
export function htmlContentType(headers: Record<string, string | string[] | undefined>): boolean {
  return /^\s*(text\/html|application\/xhtml\+xml)\b/.test(headerValue(headers, 'content-type'));
}

/** Whether `head` (the answer's first bytes) is markup: after a BOM and white space it opens a tag (`<!DOCTYPE`, `<html`, `<?xml`). */
export function looksLikeMarkup(head: Uint8Array): boolean {
  let i = startsWithBom(head) ? BOM.length : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  return i < head.length && head[i] === 0x3c;
}

function startsWithBom(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === BOM[0] && b[1] === BOM[1] && b[2] === BOM[2];
}

/** The index just past the first line break outside double quotes, or -1 when `b` holds none. */
export function headerEnd(b: Uint8Array): number {
  let quoted = false;
  for (let i = 0; i < b.length; i++) {
    if (b[i] === 0x22) quoted = !quoted;
    else if (b[i] === 0x0a && !quoted) return i + 1;
  }
  return -1;
}

type SyncParse = typeof import('csv-parse/sync').parse;
let syncParse: SyncParse | undefined;

/** Loads csv-parse on the first export that needs it (a command that exports nothing never does). */
export async function loadCsvParse(): Promise<SyncParse> {
  syncParse ??= (await import('csv-parse/sync')).parse;
  return syncParse;
}

/** The cells of the header line, by csv-parse (quoted cells, doubled quotes, line breaks inside quotes). */
function headerCells(parse: SyncParse, line: string): string[] | undefined {
  try {
    const rows = parse(line, { relax_column_count: true, relax_quotes: true, to: 1 }) as string[][];
    return rows[0];
  } catch {
    return undefined;
  }
}

/** The cells of a CSV's header line (a byte order mark before it left out); undefined when it is not one. */
export async function csvHeaderCells(header: Uint8Array): Promise<string[] | undefined> {
  const text = Buffer.from(header)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return headerCells(await loadCsvParse(), text);
}

/**
 * Judges an answer's head (its first bytes, up to the end of its first line or HEAD_LIMIT): an HTML
 * page, or a first line that is not the export's header (its first cell is `id`, FormExportService.php:55),
 * throws NotCsvError. An answer with no line at all (empty, or a BOM alone) passes: it is how the
 * service exports a form without submissions (Laravel Excel writes no heading for no rows,
 * FormSubmissionExport.php), and a chunk checks its row count on its own.
 */
export function checkCsvHead(parse: SyncParse, head: Uint8Array, what: string, complete = false): void {
  if (looksLikeMarkup(head)) throw new NotCsvError(what, 'the service sent an HTML page, not the CSV');
  const end = headerEnd(head);
  if (end < 0 && !complete) {
    throw new NotCsvError(what, `the service sent ${head.length.toLocaleString('en-US')} bytes without a line break, which is not the export's CSV`);
  }
  const text = Buffer.from(head.subarray(startsWithBom(head) ? BOM.length : 0, end < 0 ? head.length : end)).toString('utf8');
  if (text.trim() === '') return;
  const cells = headerCells(parse, text)?.map((c) => c.trim()) ?? [];
  if (cells[0] !== 'id') {
    throw new NotCsvError(what, "the service sent something other than the export's CSV (its first line does not start with the id column)");
  }
}

/**
 * Passes `body` on unchanged once its head is judged by checkCsvHead: nothing reaches the file (or
 * stdout) before the first line is known to be the export's header. A refused answer throws from
 * the iteration, so the caller's `.part` is removed and nothing appears under the final name.
 */
export async function* guardCsv(body: AsyncIterable<Uint8Array>, what: string): AsyncGenerator<Buffer> {
  const parse = await loadCsvParse();
  const held: Buffer[] = [];
  let size = 0;
  let judged = false;
  for await (const piece of body) {
    const buf = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (judged) {
      yield buf;
      continue;
    }
    held.push(buf);
    size += buf.length;
    const head = held.length === 1 ? buf : Buffer.concat(held, size);
    if (headerEnd(head) < 0 && size < HEAD_LIMIT && !looksLikeMarkup(head)) continue;
    checkCsvHead(parse, head, what);
    judged = true;
    held.length = 0;
    yield head;
  }
  if (!judged) {
    const head = Buffer.concat(held, size);
    checkCsvHead(parse, head, what, true);
    if (head.length > 0) yield head;
  }
}
