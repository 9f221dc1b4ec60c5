import { loadChalk } from '../io/output.js';
import { documentText } from './document.js';
import { maskedPair } from './secrets.js';

/**
 * A unified diff of two forms as normalised documents (server-computed keys left out, stable key
 * order), so only real changes show; secret attributes are masked. Empty string when nothing
 * differs (a changed secret still shows, masked). `diff` is loaded lazily.
 */
export async function formDiff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  o: { from?: string; to?: string; color?: boolean; context?: number } = {},
): Promise<string> {
  // Secrets are masked here, so no caller can print one in a diff (src/forms/secrets.ts).
  const [maskedBefore, maskedAfter] = maskedPair(before, after);
  const a = documentText(maskedBefore);
  const b = documentText(maskedAfter);
  if (a === b) return '';
  const { createTwoFilesPatch } = await import('diff');
  const patch = createTwoFilesPatch(o.from ?? 'current', o.to ?? 'new', a, b, undefined, undefined, { context: o.context ?? 3 });
  const lines = patch
    .split('\n')
    .filter((l) => !/^=+$/.test(l))
    .map((l) => l.replace(/\t$/, ''));
  if (lines[lines.length - 1] === '') lines.pop();
  const chalk = await loadChalk(o.color ?? false);
  return (
    lines
      .map((l) => {
        if (l.startsWith('+++') || l.startsWith('---')) return chalk.bold(l);
        if (l.startsWith('@@')) return chalk.cyan(l);
        if (l.startsWith('+')) return chalk.green(l);
        if (l.startsWith('-')) return chalk.red(l);
        return l;
      })
      .join('\n') + '\n'
  );
}
