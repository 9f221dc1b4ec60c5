import { mkdir } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { fsReason } from '../fs-reason.js';

// Where the client's file messages take their wording from (src/fs-reason.ts, shared with the sandbox).
export { fsReason };

/** `Cannot read FILE: no such file.` as a usage error (exit 2), with the caller's hint or one for the reason. */
export function cannotRead(file: string, err: unknown, hint?: string): UsageError {
  return new UsageError(`Cannot read ${file}: ${fsReason(err, 'read')}.`, hint ?? readHint(err));
}

/** What to do when a file cannot be read, by the reason (cannotRead's hint when its caller has none). */
export function readHint(err: unknown): string {
  switch ((err as NodeJS.ErrnoException | undefined)?.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'Check the path: a relative one starts in the directory formctl runs in.';
    case 'EACCES':
    case 'EPERM':
      return 'Check the permissions: formctl needs to read the file (and to enter its directories).';
    case 'EISDIR':
      return 'Name a file, not a directory.';
    default:
      return 'Check the path, and that the file can be read.';
  }
}

/** `Cannot write FILE: permission denied.` as a usage error (exit 2). */
export function cannotWrite(file: string, err: unknown, hint?: string): UsageError {
  return new UsageError(`Cannot write ${file}: ${fsReason(err, 'write')}.`, hint);
}

/**
 * `Cannot use DIR as a directory: it is a file.` as a usage error (exit 2), for a directory formctl
 * creates when missing: mkdir's EEXIST there means a file stands where the directory should be.
 */
export function cannotMakeDir(dir: string, err: unknown, hint?: string): UsageError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const reason = code === 'EEXIST' ? 'it is a file' : code === 'ENOTDIR' ? 'a part of the path is a file, not a directory' : fsReason(err, 'write');
  return new UsageError(`Cannot use ${dir} as a directory: ${reason}.`, hint);
}

/** Creates a directory (and its parents) with `mkdir -p` semantics; failures in house wording (exit 2). */
export async function makeDir(dir: string, o: { mode?: number; hint?: string } = {}): Promise<string | undefined> {
  try {
    return await mkdir(dir, { recursive: true, mode: o.mode });
  } catch (err) {
    throw cannotMakeDir(dir, err, o.hint);
  }
}

/**
 * The text without a leading byte order mark (U+FEFF). Windows editors (Notepad, Excel's "UTF-8
 * CSV", PowerShell's Out-File) write one at the start of a UTF-8 file; it is invisible in them, and
 * JSON.parse refuses it ("Unexpected token '\uFEFF'"). Every JSON file formctl reads goes through here.
 */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Whether a JSON value starts at `at` in the text: `{`, `[`, a string, a number, or a literal word. */
function startsJsonValue(text: string, at: number): boolean {
  return /^(?:[{["\d-]|(?:true|false|null)(?!\w))/.test(text.slice(at, at + 6));
}

/** Where JSON text (a value never starts otherwise) starts with something no JSON value does, the index of that character. */
function notJsonAtAll(text: string): number | undefined {
  // JSON's white space only: \s would also skip a second byte order mark or a no-break space.
  const at = text.search(/[^ \t\n\r]/);
  return at < 0 || startsJsonValue(text, at) ? undefined : at;
}

/** One character of the input, for an error: as it is when printable ASCII, else its code point (U+FEFF). */
function shownChar(ch: string): string {
  return /^[\x21-\x7e]$/.test(ch) ? `'${ch}'` : `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Where an index of JSON text is, for an error: `line L, column C` (both from 1) for a whole file,
 * on every Node line and for text of one line too; `column C` alone for `oneLine` text, one line
 * of an input whose source already names the line (`--from FILE, line N`).
 */
function placeIn(text: string, index: number, oneLine = false): string {
  const before = text.slice(0, index);
  const column = index - before.lastIndexOf('\n');
  return oneLine ? `column ${column}` : `line ${before.split('\n').length}, column ${column}`;
}

/** A parsed JSON value in words, for an error: "a list", "null", "a string". */
function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** How JSON text is read and its errors worded (parseJsonText, parseJsonObject). */
export interface JsonReadOptions {
  /** The hint of every refusal, instead of the one that fits the error. */
  hint?: string;
  /** The hint when the text holds more than one JSON value (NDJSON, or two documents in a row). */
  severalHint?: string;
  /**
   * The text is one line of an input, and `source` names it with its line (`--from FILE, line N`):
   * every error then starts `SOURCE, column C:` (the column where known).
   */
  oneLine?: boolean;
}

/**
 * Parses JSON text read from `source` (a file name, `stdin`, `--logic-file x.json`, `The config
 * file …`): a syntax error is a usage error (exit 2) reading `SOURCE is not valid JSON: REASON (line
 * L, column C).`, or `SOURCE holds more than one JSON value: …` for NDJSON and values in a row; so is
 * text nested deeper than MAX_JSON_DEPTH, and a number JSON.parse would change (`SOURCE, line L,
 * column C: the number … would be read as …`, docs/forms.md "Numbers in JSON files"). With
 * `oneLine`, each starts `SOURCE, column C:`.
 */
export function parseJsonText(text: string, source: string, options: string | JsonReadOptions = {}): unknown {
  const o: JsonReadOptions = typeof options === 'string' ? { hint: options } : options;
  let value: unknown;
  text = stripBom(text);
  try {
    value = JSON.parse(text);
  } catch (err) {
    const f = jsonFailure(err, text);
    const where = f.index === undefined ? undefined : placeIn(text, f.index, o.oneLine);
    const hint =
      o.hint ??
      (f.kind === 'several'
        ? (o.severalHint ?? 'formctl reads one JSON value here: NDJSON (a value per line) or values in a row are not read.')
        : f.kind === 'notJson'
          ? 'Check that it is the file you meant: formctl reads JSON here (a CSV, YAML or HTML file is not).'
          : 'Fix the JSON there: a missing comma or quote, or a comma before } or ], is the usual cause.');
    if (f.kind === 'several')
      throw new UsageError(
        o.oneLine
          ? `${source}, ${where}: a second JSON value starts here; a line holds one.`
          : `${source} holds more than one JSON value: a second one starts at ${where}.`,
        hint,
      );
    if (o.oneLine) throw new UsageError(`${source}${where ? `, ${where}` : ''}: not valid JSON: ${f.reason}${f.tail ?? ''}.`, hint);
    throw new UsageError(`${source} is not valid JSON: ${f.reason}${where ? ` (${where})` : ''}${f.tail ?? ''}.`, hint);
  }
  if (jsonDepth(value) > MAX_JSON_DEPTH) {
    throw new UsageError(
      `${source} nests deeper than ${MAX_JSON_DEPTH} levels of objects and lists.`,
      'No form, answer or setting needs that much; check that it is the file you meant.',
    );
  }
  assertExactNumbers(text, source, o.oneLine);
  return value;
}

/**
 * Where a lossy number literal may start: after what may precede a value (the text's start, white
 * space, `:`, `,`, `[`), digits with 16 digits or dots in a row, or an exponent. Ids inside strings
 * (`4e5a…` in a UUID) follow a letter or a digit and are not taken for one.
 */
const MAYBE_INEXACT = /(?:^|[\s:,[])-?\d(?:[\d.]{15}|[\d.]*[eE])/;
/** The next string or number literal of JSON text (outside a string, `-` and digits only start numbers). */
const TOKEN_START = /["\d-]/g;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Refuses (exit 2) a number literal of already-parsed JSON text that JSON.parse changed
 * (`inexactNumber`), naming the source, the line (for text of several lines) and the column.
 */
function assertExactNumbers(text: string, source: string, oneLine?: boolean): void {
  const found = inexactNumber(text);
  if (!found) return;
  const where = placeIn(text, found.index, oneLine);
  throw new UsageError(
    `${source}, ${where}: ${inexactReason(found.literal)}.`,
    found.literal.length > 40
      ? 'To keep every digit, write it as a string (in double quotes).'
      : `To keep every digit, write it as a string: "${found.literal}".`,
  );
}

/**
 * The first number literal of JSON text (text JSON.parse accepted) that JSON.parse changes: a
 * number is read as a double, so an integer beyond 2^53 or a decimal with more digits than a
 * double holds (about 15 significant ones) comes out as another number, and formctl would send
 * that one (12345678901234567890 becomes 12345678901234567000). Node 20's JSON.parse cannot hand
 * its reviver the source text of a number, and a JSON parser in JavaScript (such as lossless-json)
 * reads a form ten times slower than JSON.parse, so the literals are found in the text instead:
 * outside strings (skipped whole) every `-` or digit starts a number. Each is compared by value
 * with the double printed back (`1.0` and `1e3` are exact; `-0` counts as 0). A literal of at most
 * 15 digits and no exponent is always exact: text without a longer one or an exponent is not scanned.
 */
export function inexactNumber(text: string): { literal: string; index: number } | undefined {
  if (!MAYBE_INEXACT.test(text)) return undefined;
  // Copies: a regular expression with the g or y flag keeps where it stopped.
  const starts = new RegExp(TOKEN_START);
  const number = new RegExp(NUMBER);
  for (let m = starts.exec(text); m !== null; m = starts.exec(text)) {
    const at = m.index;
    if (text.charCodeAt(at) === 34 /* " */) {
      starts.lastIndex = stringEnd(text, at);
      continue;
    }
    number.lastIndex = at;
    const literal = number.exec(text)![0];
    starts.lastIndex = at + literal.length;
    const n = Number(literal);
    if (!Number.isFinite(n) || !sameDecimal(literal, String(n))) return { literal, index: at };
  }
  return undefined;
}

/** "the number 1e400 is beyond …": what JSON.parse makes of an inexact literal, for an error. */
export function inexactReason(literal: string): string {
  const n = Number(literal);
  const shown = literal.length > 40 ? `${literal.slice(0, 32)}… (${literal.length} characters)` : literal;
  const becomes = !Number.isFinite(n)
    ? `is beyond the largest number JSON holds here (about 1.8e308) and would be read as ${n < 0 ? 'minus ' : ''}infinity`
    : n === 0
      ? 'is closer to 0 than any number JSON holds here and would be read as 0'
      : `would be read as ${String(n)}: a JSON number keeps about 15 significant digits`;
  return `the number ${shown} ${becomes}`;
}

/** The index after the closing quote of the string literal opening at `open` (a quote after an even run of backslashes). */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  for (;;) {
    if (close < 0) return text.length; // not JSON.parse's text: stop rather than loop
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === 92 /* \ */) slashes++;
    if (slashes % 2 === 0) return close + 1;
    close = text.indexOf('"', close + 1);
  }
}

/** True when two decimal numerals (sign, digits, optional fraction and exponent) name the same number. */
function sameDecimal(a: string, b: string): boolean {
  const x = decimalParts(a);
  const y = decimalParts(b);
  return x.digits === y.digits && x.exponent === y.exponent && (x.digits === '' || x.negative === y.negative);
}

/** A numeral as sign, significant digits (no leading or trailing zeros) and the power of ten of the last one. */
function decimalParts(numeral: string): { negative: boolean; digits: string; exponent: number } {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(numeral)!;
  const fraction = m[3] ?? '';
  let digits = (m[2]! + fraction).replace(/^0+/, '');
  let exponent = Number(m[4] ?? 0) - fraction.length;
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return { negative: m[1] === '-', digits, exponent: digits === '' ? 0 : exponent };
}

/**
 * The deepest nesting a JSON document given to formctl may have. The code that walks a document
 * (merging, checking, comparing, printing) recurses, so a document thousands of levels deep would
 * overflow the stack; forms and their logic need a handful of levels.
 */
export const MAX_JSON_DEPTH = 100;

/** How deeply objects and lists nest in a parsed value (a scalar: 0), counted without recursion. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const d = depth + 1;
    if (d > max) max = d;
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d]);
  }
  return max;
}

/** Why JSON.parse refused text, in words that hold no piece of it, and where (an index) when known. */
interface JsonFailure {
  reason: string;
  /** Said after the place: `; a JSON text starts with …`. */
  tail?: string;
  index?: number;
  /** notJson: the text does not start as JSON does (a CSV, an HTML page); several: a second value follows a complete one. */
  kind?: 'notJson' | 'several';
}

/**
 * JSON.parse's reason without the piece of the input V8 quotes in some messages
 * (`Unexpected token 's', "secret-tok"... is not valid JSON`): the text may be a config file that
 * holds a token, and a secret must never reach an error message (docs/security.md).
 */
function jsonFailure(err: unknown, text: string): JsonFailure {
  const message = err instanceof Error ? err.message : String(err);
  const reason =
    message
      .replace(/,\s*(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)?\s+is not valid JSON$/, '')
      .replace(/^(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)?\s+is not valid JSON$/, 'not JSON')
      .replace(/\.$/, '') || 'not JSON';
  // V8 gives an index (Node 20) or an index with its line and column (Node 22 and later) for most
  // errors: the place is computed here from the index, the same way on every Node line. An
  // unexpected first character comes without one: text that is not JSON at all is placed there.
  const position = /\s+(in|after) JSON at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(reason);
  if (position) {
    const index = Number(position[2]);
    // Text after a complete value that starts another (NDJSON, two documents in a row): said as such,
    // not as a syntax error whose usual cause (a missing comma) would mislead.
    if (position[1] === 'after' && startsJsonValue(text, index)) return { reason: 'more than one JSON value', index, kind: 'several' };
    return { reason: `${reason.slice(0, position.index)}${position[1] === 'after' ? ' after the JSON value' : ''}`, index };
  }
  const start = notJsonAtAll(text);
  if (start !== undefined)
    return {
      reason: `it starts with ${shownChar(String.fromCodePoint(text.codePointAt(start)!))}`,
      tail: '; a JSON text starts with {, [ or a value',
      index: start,
      kind: 'notJson',
    };
  return { reason };
}

/** JSON.parse's reason (see jsonFailure), with its place in `text` when given and known. */
export function jsonReason(err: unknown, text?: string): string {
  const f = jsonFailure(err, text ?? '');
  return `${f.reason}${text !== undefined && f.index !== undefined ? ` (${placeIn(text, f.index)})` : ''}${f.tail ?? ''}`;
}

/** `SOURCE must hold EXPECTED, not a list.` as a usage error (exit 2), for JSON of the wrong shape. */
export function notJsonObject(source: string, value: unknown, expected = 'a JSON object', hint?: string): UsageError {
  return new UsageError(`${source} must hold ${expected}, not ${jsonKind(value)}.`, hint);
}

/**
 * Parses JSON text that must hold one object (not a list, a string or null); both errors name the
 * source, in the wording of parseJsonText and notJsonObject (`SOURCE, column C: a JSON object is
 * needed, not a list.` with `oneLine`, C the column where the value starts). `expected` describes
 * the object for the reader (`a JSON object of field values, e.g. …`).
 */
export function parseJsonObject(text: string, source: string, o: JsonReadOptions & { expected?: string } = {}): Record<string, unknown> {
  const value = parseJsonText(text, source, o);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (!o.oneLine) throw notJsonObject(source, value, o.expected, o.hint);
    const read = stripBom(text);
    throw new UsageError(
      `${source}, ${placeIn(read, read.search(/[^ \t\n\r]/), true)}: ${o.expected ?? 'a JSON object'} is needed, not ${jsonKind(value)}.`,
      o.hint,
    );
  }
  return value as Record<string, unknown>;
}
