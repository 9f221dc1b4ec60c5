import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPLETION_FILES, SHELLS, completionScript } from '../../../src/completion/scripts.js';
import { ROOT } from '../../helpers/cli.js';

describe('checked-in completion scripts', () => {
  it.each(SHELLS)('completions/ matches what `formctl completion %s` generates', (shell) => {
    const file = `completions/${COMPLETION_FILES[shell]}`;
    let checkedIn = '';
    try {
      checkedIn = readFileSync(join(ROOT, file), 'utf8');
    } catch {
      // Reported below as stale.
    }
    const generated = completionScript(shell);
    if (checkedIn !== generated) {
      const a = checkedIn.split('\n');
      const b = generated.split('\n');
      const i = b.findIndex((line, n) => line !== a[n]);
      const where = i < 0 ? `${a.length - b.length} extra line(s) at the end` : `first difference at line ${i + 1}: ${JSON.stringify(b[i])}`;
      expect.fail(`${file} is stale (the script changed; ${where}). Regenerate it: npm run build && node scripts/gen-completions.mjs`);
    }
  });
});
