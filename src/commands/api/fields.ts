import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { cannotRead, readHint } from '../../io/files.js';
import { HEADER_NAME, HEADER_VALUE_CONTROL } from '../../service/webhooks.js';

/** One `-f` (raw string) or `-F` (typed) field; `at` is its place among all of them on the command line. */
export interface FieldFlag {
  key: string;
  raw: string;
  at: number;
}

/** The -f and -F fields as one list in command-line order, each marked typed when it came from -F. */
export function orderedFields(raw: FieldFlag[] = [], typed: FieldFlag[] = []): Array<FieldFlag & { typed: boolean }> {
  return [...raw.map((f) => ({ ...f, typed: false })), ...typed.map((f) => ({ ...f, typed: true }))].sort((a, b) => a.at - b.at);
}

/** Reads files for `-F key=@file`; injectable for tests. `-` is stdin, read by the caller. */
export type FileReader = (path: string) => string;

/** Converts a `-F` value: true/false/null, JSON numbers, `@file` contents; anything else stays a string. */
export function typedValue(raw: string, readFile: FileReader = (p) => readFileSync(p, 'utf8')): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  if (raw.startsWith('@')) {
    const path = raw.slice(1);
    try {
      return readFile(path);
    } catch (err) {
      throw cannotRead(path, err, `${readHint(err)} -F key=@FILE sends a file's text; to send text that starts with @, use -f.`);
    }
  }
  return raw;
}

/** Splits `a[b][]` into ["a", "b", ""]; a key without brackets is one segment. */
export function keyPath(key: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) throw new UsageError(`Invalid field name "${key}".`, 'Use name, name[sub] or name[] (array).');
  const rest = [...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!);
  const path = [m[1]!, ...rest];
  // These names would reach Object.prototype through the nesting below, not a JSON key.
  const bad = path.find((seg) => seg === '__proto__' || seg === 'constructor' || seg === 'prototype');
  if (bad !== undefined) throw new UsageError(`Field name "${key}" uses the reserved name "${bad}".`, 'Pass such a body with --input instead.');
  return path;
}

/** Builds a JSON body from fields; `a[b]=1` nests objects and `a[]=1` appends to arrays, like `gh api`. */
export function buildBody(fields: Array<{ key: string; value: unknown }>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const { key, value } of fields) {
    const path = keyPath(key);
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i]!;
      const last = i === path.length - 1;
      const nextIsArray = !last && path[i + 1] === '';
      if (Array.isArray(node)) {
        if (seg !== '') throw new UsageError(`Field "${key}" mixes an array with an object key.`);
        if (last) {
          node.push(value);
        } else {
          const child: Record<string, unknown> | unknown[] = nextIsArray ? [] : {};
          node.push(child);
          node = child;
        }
        continue;
      }
      if (seg === '') throw new UsageError(`Field "${key}" uses [] where an object key was expected.`);
      if (last) {
        node[seg] = value;
        continue;
      }
      const existing = node[seg];
      if (existing === undefined) {
        node[seg] = nextIsArray ? [] : {};
      } else if (existing === null || typeof existing !== 'object' || Array.isArray(existing) !== nextIsArray) {
        throw new UsageError(`Field "${key}" conflicts with an earlier field of a different shape.`);
      }
      node = node[seg] as Record<string, unknown> | unknown[];
    }
  }
  return root;
}

/** Query-string pairs for GET: keys are kept verbatim (Laravel reads `a[b]=1` itself); null becomes "". */
export function queryPairs(fields: Array<{ key: string; value: unknown }>): Array<[string, string]> {
  return fields.map(({ key, value }) => [key, value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)]);
}

/**
 * Whether a word from an -H or -f/-F flag may be shown in an error: one that reads as a header or
 * field name. Anything else (a long mix of letters and digits, dots, slashes) may be a token pasted
 * without its name (`-H "$TOKEN"`), and stays unshown, as header values always do.
 */
export function showableName(word: string): boolean {
  return /^[A-Za-z][\w.[\]-]{0,39}$/.test(word) && !(word.length >= 16 && /\d/.test(word));
}

/**
 * An -H that is not `Name: value`, naming it by its name part when that reads as a name (never
 * what follows, which may be a secret: `-H 'X-Api-Key abc123'` lacks only the colon), else by its place.
 */
function badHeader(h: string, colon: number, name: string, n: number, count: number): UsageError {
  const place = count > 1 ? `-H number ${n + 1}` : '-H';
  if (colon < 0) {
    const [first = ''] = h.trim().split(/\s+/);
    const named = showableName(first) && HEADER_NAME.test(first);
    const which = named ? `-H "${first}${h.trim().length > first.length ? ' …' : ''}"` : `${place} (not shown, in case it is a secret)`;
    return new UsageError(
      `${which} is not a valid header: it has no ':' between the name and the value.`,
      `Write it as -H '${named ? first : 'Name'}: value'.`,
    );
  }
  if (!name) return new UsageError(`${place} is not a valid header: it has no name before the ':'.`, "Write it as -H 'Name: value'.");
  const which = showableName(name) ? `-H "${name}: …"` : place;
  return new UsageError(
    `${which} is not a valid header: its name has a character header names cannot have.`,
    "Write it as -H 'Name: value'; a name is letters, digits and - (no spaces).",
  );
}

/**
 * Parses `Name: value` header flags; names are lower-cased so ours and the user's never both go out.
 * A value Node would refuse to send (a line break, another control character, a character beyond
 * Latin-1) is refused here, before any request, naming the header but never quoting the value (it
 * may be a secret, as webhook header checks never quote one either); a flag without a valid name is
 * named by its name part (badHeader), for the same reason.
 */
export function parseHeaders(flags: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  flags.forEach((h, n) => {
    const i = h.indexOf(':');
    const name = i > 0 ? h.slice(0, i).trim() : '';
    if (!name || !HEADER_NAME.test(name)) throw badHeader(h, i, name, n, flags.length);
    const lower = name.toLowerCase();
    if (lower === 'authorization')
      throw new UsageError('formctl sets the Authorization header itself.', 'Use `formctl auth login` or FORMCTL_TOKEN for a different token.');
    const value = h.slice(i + 1).trim();
    const bad = /[\r\n]/.test(value)
      ? 'a line break'
      : HEADER_VALUE_CONTROL.test(value)
        ? 'a control character'
        : /[^\t\x20-\x7e\x80-\xff]/.test(value)
          ? 'a character HTTP headers cannot carry (beyond Latin-1)'
          : undefined;
    if (bad)
      throw new UsageError(
        `Header value for '${name}' contains ${bad}; nothing was sent.`,
        'A header value is one line of plain text; send data in a body with -f, -F or --input.',
      );
    out[lower] = value;
  });
  return out;
}
