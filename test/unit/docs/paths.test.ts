// The docs send a newcomer to files by name (`src/commands/webhook/shared.ts`). When a file moves or
// splits, the docs must follow, or the pointer leads nowhere: every project path the docs and the
// README name must exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

/** Paths under the project's own directories, as written in a Markdown file (a trailing "/" names a directory). */
function namedPaths(text: string): string[] {
  const found = text.match(/(?<![\w./~-])(?:src|test|scripts|bench|completions|docs)\/[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*\/?/g) ?? [];
  // A sentence may end right after a path ("see src/io/files.ts.").
  return [...new Set(found.map((p) => p.replace(/\.+$/, '')))];
}

describe('docs', () => {
  it('every src/, test/, scripts/, bench/, completions/ and docs/ path named in docs/*.md and README.md exists', () => {
    const files = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const missing = files.flatMap((file) =>
      namedPaths(readFileSync(join(ROOT, file), 'utf8'))
        .filter((p) => !p.includes('*') && !existsSync(join(ROOT, p)))
        .map((p) => `${file}: ${p}`),
    );
    expect(missing).toEqual([]);
  });
});
