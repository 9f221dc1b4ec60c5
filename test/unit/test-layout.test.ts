// `npm run test:unit` (test/unit and test/sandbox) is documented as needing no build: a test there
// that runs the built binary must skip when dist/ is missing, or live in test/e2e.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the fast test run', () => {
  it('no unit or sandbox test needs the built binary unless it skips without dist/', () => {
    const needBuild = [...testFiles(join(ROOT, 'test', 'unit')), ...testFiles(join(ROOT, 'test', 'sandbox'))]
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return /\bimport\s*\{[^}]*\bBIN\b[^}]*\}\s*from\s*'[./]*helpers\/cli\.js'/.test(text) && !/skipIf\(!existsSync\(join\(ROOT, 'dist'/.test(text);
      })
      .map((file) => relative(ROOT, file));
    expect(needBuild).toEqual([]);
  });
});
