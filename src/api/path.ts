import { UsageError } from '../errors.js';

/**
 * Tagged template that percent-encodes every interpolated path segment: apiPath`/open/forms/${slug}`.
 * A value that is empty, `.` or `..` is refused (exit 2): URL parsing would drop or climb such a
 * segment (WHATWG treats `%2e` as a dot too), so `form get ..` could reach a different endpoint.
 */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const s = String(v);
    if (s === '' || s === '.' || s === '..') {
      throw new UsageError(`Invalid id or slug ${JSON.stringify(s)}.`, 'Pass the id, slug or UUID shown by the list command.');
    }
    out += encodeURIComponent(s) + strings[i + 1]!;
  });
  return out;
}
