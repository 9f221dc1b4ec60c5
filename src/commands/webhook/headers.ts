// `--header Name:Value` flags: parsing them, and merging them into a header object.
import { UsageError } from '../../errors.js';

/** Collects repeated `--header Name:Value` flags. */
export function collectHeader(value: string, previous: Array<[string, string]> = []): Array<[string, string]> {
  const i = value.indexOf(':');
  if (i <= 0) throw new UsageError(`--header must be Name:Value, got "${value}".`, 'Example: --header "X-Api-Key: abc123"');
  return [...previous, [value.slice(0, i).trim(), value.slice(i + 1).trim()]];
}

/** Header pairs as an object; the same name twice (in any case) is a mistake, not an override. */
export function headerObject(pairs: Array<[string, string]>, base: Record<string, string> = {}): Record<string, string> {
  const out = { ...base };
  const seen = new Set<string>();
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    if (seen.has(lower)) throw new UsageError(`Header "${name}" is given twice.`, 'Pass each --header name once.');
    seen.add(lower);
    for (const k of Object.keys(out)) if (k.toLowerCase() === lower) delete out[k];
    out[name] = value;
  }
  return out;
}
