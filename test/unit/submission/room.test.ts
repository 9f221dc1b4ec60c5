// The submission subject has one room, src/submissions/ (docs/submission-update.md, "Where the code
// lives"): whatever reads the submission list, page by page, lives there, so a reader finds the
// list's traps (newest first, ties, a list that shifts while it is read) handled in one place.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the submissions room', () => {
  it('only src/submissions/ reads the submission list page by page (listSubmissionsPage)', () => {
    const readers = sourceFiles(join(ROOT, 'src'))
      .map((file) => relative(ROOT, file).split('\\').join('/'))
      .filter((file) => !file.startsWith('src/submissions/') && file !== 'src/api/submissions.ts')
      .filter((file) => /\blistSubmissionsPage\b/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(readers).toEqual([]);
  });
});
