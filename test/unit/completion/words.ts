import type { ValueRequest } from '../../../src/completion/resolve.js';

/** The words a shell hands over for a line with the cursor at its end (a trailing space: an empty word). */
export function wordsOf(line: string): string[] {
  const words: string[] = line.match(/"[^"]*"|[^\s"]+/g) ?? [];
  if (/\s$/.test(line) || words.length === 0) words.push('');
  return words.slice(1);
}

/** A request as a short string, e.g. "form --workspace 12". */
export function describeRequest(r: ValueRequest): string {
  return [
    r.kind,
    ...(r.workspace ? ['--workspace', r.workspace] : []),
    ...(r.form ? ['--form', r.form] : []),
    ...(r.profile ? ['--profile', r.profile] : []),
  ].join(' ');
}
