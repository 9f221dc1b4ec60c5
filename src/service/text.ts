/** Length in characters (Unicode code points, PHP's mb_strlen), as the service counts `min:` and `max:` of a string; not UTF-16 units. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}

/** The service's `email` rule, approximately: something@something.tld, no spaces, at most 254 characters. */
export function isEmail(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);
}

/** The text with its first letter in upper case, to start a sentence with a phrase. */
export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
