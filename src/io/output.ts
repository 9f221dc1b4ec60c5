import { UsageError } from '../errors.js';
import type { IOStreams } from './iostreams.js';
import { write } from './iostreams.js';
import { collectWithSpinner } from './spinner.js';

/** How a command's result is rendered; decided once from flags and the terminal. */
export type OutputFormat =
  { kind: 'table' } | { kind: 'tsv' } | { kind: 'json'; fields?: string[]; jq?: string } | { kind: 'ndjson'; fields?: string[]; jq?: string };

/** The JSON formats (`--json`, `--ndjson`). */
export type JsonFormat = Extract<OutputFormat, { kind: 'json' | 'ndjson' }>;

/** One column of a human table / TSV row. */
export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Render as a time: relative on a TTY, ISO when piped. */
  time?: boolean;
  /** An identifier people copy (slug, URL, email): narrowed only when the other columns cannot give more room. */
  keep?: boolean;
  /** Colour to use for this column on a TTY. */
  style?: 'dim' | 'bold' | 'cyan' | 'green' | 'yellow' | 'red';
}

/**
 * The parsed output flags of a command (`addOutputOptions` in src/commands/shared.ts): `--json` is
 * `true` for every field, or the field names asked for, already checked against the command's list
 * by the option's parser (`parseJsonFields`), so the command names its fields once.
 */
export interface OutputFlags {
  json?: true | string[];
  ndjson?: true;
  /** `--jq EXPR`: implies `--json` (every field unless a list is given); checked before the run (program.ts). */
  jq?: string;
}

/** Decides the format from `--json [fields]` / `--ndjson` and the terminal. */
export function resolveFormat(io: IOStreams, flags: OutputFlags): OutputFormat {
  const json = flags.json !== undefined;
  if (json && flags.ndjson) throw new UsageError('Use either --json or --ndjson, not both.');
  const jq = flags.jq !== undefined ? { jq: flags.jq } : {};
  // With --ndjson the expression runs on each object as it streams, as `jq` does on NDJSON input.
  if (flags.ndjson) return { kind: 'ndjson', ...jq };
  if (json || flags.jq !== undefined) return Array.isArray(flags.json) ? { kind: 'json', fields: flags.json, ...jq } : { kind: 'json', ...jq };
  return io.stdoutIsTTY ? { kind: 'table' } : { kind: 'tsv' };
}

/** The format of a command whose only output is JSON or a message: JSON with `--json`, else none. */
export function jsonFormat(flags: OutputFlags): JsonFormat | undefined {
  const format = resolveFormat({ stdoutIsTTY: true } as IOStreams, flags);
  return format.kind === 'json' || format.kind === 'ndjson' ? format : undefined;
}

/** A comma-separated list (a flag's value): items trimmed, empty ones left out. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Parses the value of `--json <fields>`, checking each name against `available` when given (exit 2). */
export function parseJsonFields(spec: string, available?: readonly string[]): string[] {
  const fields = splitList(spec);
  if (fields.length === 0) throw new UsageError('--json needs a comma-separated field list, or no value for all fields.');
  if (available) checkJsonFields(fields, available);
  return fields;
}

/** Refuses field names outside `available` (exit 2, listing them). */
export function checkJsonFields(fields: readonly string[], available: readonly string[]): void {
  const unknown = fields.filter((f) => !available.includes(f));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown JSON field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`, `Available fields: ${available.join(', ')}`);
  }
}

/** Keeps only the selected top-level fields, in the order asked for. */
export function pickFields(obj: unknown, fields?: string[]): unknown {
  if (!fields || obj === null || typeof obj !== 'object') return obj;
  const src = obj as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = src[f] ?? null;
  return out;
}

/** Writes a list (array or async stream of pages) in the chosen format; NDJSON and TSV stream as they go. */
export async function writeList<T>(
  io: IOStreams,
  format: OutputFormat,
  rows: Iterable<T> | AsyncIterable<T>,
  columns: Column<T>[],
  opts: { now?: Date; empty?: string; loading?: string } = {},
): Promise<number> {
  let count = 0;
  if ((format.kind === 'json' || format.kind === 'ndjson') && format.jq !== undefined) {
    const picked: unknown[] = [];
    for await (const row of rows) {
      count++;
      if (format.kind === 'ndjson') await writeJq(io, format.jq, pickFields(row, format.fields));
      else picked.push(pickFields(row, format.fields));
    }
    if (format.kind === 'json') await writeJq(io, format.jq, picked);
    return count;
  }
  switch (format.kind) {
    case 'ndjson': {
      const paint = await jsonPainter(io);
      for await (const row of rows) {
        count++;
        await write(io.stdout, paint(JSON.stringify(pickFields(row, format.fields))) + '\n');
      }
      return count;
    }
    case 'json': {
      const paint = await jsonPainter(io);
      // A JSON array is written incrementally so large lists never sit in memory as one string.
      await write(io.stdout, '[');
      for await (const row of rows) {
        await write(io.stdout, (count === 0 ? '\n  ' : ',\n  ') + paint(JSON.stringify(pickFields(row, format.fields))));
        count++;
      }
      await write(io.stdout, count === 0 ? ']\n' : '\n]\n');
      return count;
    }
    case 'tsv':
      for await (const row of rows) {
        count++;
        await write(io.stdout, columns.map((c) => tsvCell(c.value(row), c.time)).join('\t') + '\n');
      }
      return count;
    case 'table': {
      // Rows still to be fetched page by page: a spinner covers the wait (after 150 ms, terminals only).
      const all: T[] = Symbol.asyncIterator in rows ? await collectWithSpinner(io, opts.loading ?? 'Loading…', rows) : [...rows];
      if (all.length === 0) {
        if (opts.empty) await write(io.stderr, opts.empty + '\n');
        return 0;
      }
      const text = await renderTable(io, all, columns, opts.now ?? new Date());
      // A table longer than the terminal goes through the pager (src/io/pager.ts), loaded only then.
      if (io.pager) await (await import('./pager.js')).writePaged(io, text);
      else await write(io.stdout, text);
      return all.length;
    }
  }
}

/**
 * Writes one object: JSON as-is (or picked), a key/value table on a TTY, TSV key/value pairs when
 * piped. `compact` keeps `--json` on one line, for commands whose JSON answer is one line (a contract).
 */
export async function writeObject<T>(
  io: IOStreams,
  format: OutputFormat,
  obj: T,
  columns: Column<T>[],
  opts: { now?: Date; compact?: boolean } = {},
): Promise<void> {
  if (format.kind === 'json' || format.kind === 'ndjson') {
    if (format.jq !== undefined) return writeJq(io, format.jq, pickFields(obj, format.fields));
    const text = JSON.stringify(pickFields(obj, format.fields), null, format.kind === 'json' && !opts.compact ? 2 : undefined);
    await write(io.stdout, (await jsonPainter(io))(text) + '\n');
    return;
  }
  if (format.kind === 'tsv') {
    for (const c of columns) await write(io.stdout, `${c.header.toLowerCase()}\t${tsvCell(c.value(obj), c.time)}\n`);
    return;
  }
  const chalk = await loadChalk(io.colorStdout);
  const width = Math.max(...columns.map((c) => c.header.length));
  const now = opts.now ?? new Date();
  let out = '';
  for (const c of columns) {
    const v = c.value(obj);
    out += `${chalk.bold(c.header.padEnd(width))}  ${c.time ? humanTime(v, now) : humanCell(v)}\n`;
  }
  await write(io.stdout, out);
}

/**
 * Writes what `--jq EXPR` makes of `value` (strings raw, as `jq -r`); jq's error after any output it
 * gave, exit 2. `mask` is applied to what jq printed (`formctl api` masks a token the service echoes).
 */
export async function writeJq(io: IOStreams, expr: string, value: unknown, mask: (text: string) => string = (t) => t): Promise<void> {
  const { runJq } = await import('./jq.js');
  try {
    await write(io.stdout, mask(await runJq(expr, value, io.env)));
  } catch (err) {
    const partial = (err as { partial?: string }).partial;
    if (partial) await write(io.stdout, mask(partial));
    throw err;
  }
}

/**
 * Colours JSON text for a person, as gh does: keys blue, strings green, numbers and booleans cyan,
 * null dim. Only when stdout is a terminal with colour on (never piped, even with FORCE_COLOR, so jq
 * and files always get plain JSON; NO_COLOR, --no-color and TERM=dumb turn it off). The text is
 * JSON.stringify output, so every control character inside a string is already escaped.
 */
export async function jsonPainter(io: IOStreams): Promise<(json: string) => string> {
  if (!io.stdoutIsTTY || !io.colorStdout) return (json) => json;
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: 1 });
  return (json) =>
    json.replace(
      /("(?:\\.|[^"\\])*")(\s*:)?|\b(?:true|false)\b|\bnull\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g,
      (m, str: string | undefined, colon: string | undefined) => {
        if (str !== undefined) return colon !== undefined ? c.blue(str) + colon : c.green(str);
        if (m === 'null') return c.dim(m);
        return c.cyan(m);
      },
    );
}

// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_TAB_NEWLINE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_TAB = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x1f\x7f-\x9f]/g;

/**
 * Text from the service (titles, names, messages) shown to a person: C0 control characters except
 * tab (and newline when `newlines`), DEL and C1 become visible `\xNN`, so an ANSI/OSC sequence or a
 * carriage return cannot clear the screen, retitle the window, forge a hyperlink or overwrite a line.
 * `all` escapes the tab and newline too: for a value set inside a line of formctl's own words (a
 * name in a ✓ line or a note), which a line break would let pass for a line of its own (`error: …`).
 * For human output only; JSON is escaped by JSON.stringify and TSV is data.
 */
export function escapeControls(text: string, o: { newlines?: boolean; all?: boolean } = {}): string {
  const controls = o.all ? CONTROLS : o.newlines ? CONTROLS_BUT_TAB_NEWLINE : CONTROLS_BUT_TAB;
  return text.replace(controls, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function tsvCell(v: unknown, time?: boolean): string {
  if (v === null || v === undefined) return '';
  if (time && typeof v === 'string') return v;
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return s.replace(/[\t\r\n]+/g, ' ');
}

function humanCell(v: unknown): string {
  if (v === null || v === undefined || v === '') return '-';
  if (Array.isArray(v)) return v.length === 0 ? '-' : escapeControls(v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', '));
  if (typeof v === 'object') return escapeControls(JSON.stringify(v));
  return escapeControls(String(v).replace(/[\t\r\n]+/g, ' '));
}

/** "3 minutes ago", "in 2 days", or the raw value when it is not a date. */
export function humanTime(v: unknown, now: Date): string {
  if (v === null || v === undefined || v === '') return '-';
  const t = Date.parse(String(v));
  if (Number.isNaN(t)) return escapeControls(String(v));
  const diff = (t - now.getTime()) / 1000;
  const abs = Math.abs(diff);
  const units: Array<[number, string]> = [
    [60, 'second'],
    [60, 'minute'],
    [24, 'hour'],
    [30, 'day'],
    [12, 'month'],
    [Number.POSITIVE_INFINITY, 'year'],
  ];
  if (abs < 10) return 'just now';
  let value = abs;
  for (const [size, unit] of units) {
    // Rounded, not floored: an invite valid for 7 days reads "in 7 days" a moment after it is sent.
    const n = Math.round(value);
    if (n < size) {
      const label = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return diff < 0 ? `${label} ago` : `in ${label}`;
    }
    value /= size;
  }
  return escapeControls(String(v));
}

type ChalkLike = Record<'bold' | 'dim' | 'cyan' | 'green' | 'yellow' | 'red', (s: string) => string>;

/** chalk is loaded only when something is actually rendered for a person. */
export async function loadChalk(enabled: boolean): Promise<ChalkLike> {
  const { Chalk } = await import('chalk');
  return new Chalk({ level: enabled ? 1 : 0 });
}

async function renderTable<T>(io: IOStreams, rows: T[], columns: Column<T>[], now: Date): Promise<string> {
  const [{ default: Table }, chalk] = await Promise.all([import('cli-table3'), loadChalk(io.colorStdout)]);
  const cells = rows.map((r) => columns.map((c) => (c.time ? humanTime(c.value(r), now) : humanCell(c.value(r)))));
  const widths = fitWidths(
    columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i]!.length))),
    io.columns,
    columns.map((c) => c.keep === true),
  );
  const table = new Table({
    head: columns.map((c) => chalk.bold(c.header.toUpperCase())),
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    colWidths: widths,
    wordWrap: false,
  });
  for (const row of cells) {
    table.push(
      row.map((cell, i) => {
        const style = columns[i]!.style;
        return style ? chalk[style](cell) : cell;
      }),
    );
  }
  return (
    table
      .toString()
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n') + '\n'
  );
}

/** Shrinks the widest columns until the row fits the terminal (cli-table3 truncates with "…"), free text before identifiers. */
export function fitWidths(natural: number[], total: number, keep: boolean[] = []): number[] {
  const widths = [...natural];
  const gap = 2 * (widths.length - 1);
  const tooWide = () => widths.reduce((a, b) => a + b, 0) + gap > total;
  // Free text gives way first; identifiers (keep) only when nothing else can.
  for (const mayShrink of [(i: number) => !keep[i], () => true]) {
    while (tooWide()) {
      let widest = -1;
      widths.forEach((w, i) => {
        if (mayShrink(i) && w > 8 && (widest < 0 || w > widths[widest]!)) widest = i;
      });
      if (widest < 0) break;
      widths[widest]!--;
    }
  }
  return widths;
}

/** A ✓ line on a TTY for a finished mutation; nothing when piped (scripts read stdout). */
export async function success(io: IOStreams, message: string): Promise<void> {
  if (!io.stdoutIsTTY) return;
  const chalk = await loadChalk(io.colorStdout);
  await write(io.stdout, `${chalk.green('✓')} ${escapeControls(message, { newlines: true })}\n`);
}

/**
 * A finished change said once: the ✓ line on a terminal; piped, the same words as one line on stderr,
 * so a CI log says what happened while stdout stays for data.
 */
export async function done(io: IOStreams, message: string): Promise<void> {
  if (io.stdoutIsTTY) return success(io, message);
  await write(io.stderr, `${escapeControls(message, { newlines: true })}\n`);
}

/** A finished change's answer: the object with --json / --ndjson, else the ✓ line (nothing when piped). */
export async function writeDone<T>(io: IOStreams, format: OutputFormat, obj: T, message: string): Promise<void> {
  if (format.kind === 'json' || format.kind === 'ndjson') await writeObject(io, format, obj, []);
  else await success(io, message);
}

/** A warning or note for a person, always on stderr. */
export async function notice(io: IOStreams, message: string, level: 'note' | 'warning' = 'note'): Promise<void> {
  const chalk = await loadChalk(io.colorStderr);
  const tag = level === 'warning' ? chalk.yellow('warning:') : chalk.dim('note:');
  await write(io.stderr, `${tag} ${escapeControls(message, { newlines: true })}\n`);
}
