import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// A bulk --from without a line of work (empty stdin, an empty file, only blank lines) is refused the
// same way by update and delete: exit 2, an error and a hint saying what a line holds, no request
// (docs/submission-update.md, "Empty input").
describe('bulk --from with no lines, from the built binary', () => {
  const fx = useSandboxFixture({ seed: 10 });

  it('submission update and submission delete refuse it (exit 2) with a hint, before any request', async () => {
    const empty = join(fx.work, 'empty.ndjson');
    writeFileSync(empty, '');
    const blank = join(fx.work, 'blank.ndjson');
    writeFileSync(blank, '\n  \n');
    const form = String(fx.sb.formId);
    const updateHint = 'hint: One JSON object per line, {"submission_id": 12, "<field>": value}, or lines of `submission list --ndjson`.\n';
    const deleteHint =
      'hint: One numeric id per line (the ID column of `submission list`), or lines of `submission list --ndjson`; blank lines and # comments are skipped.\n';
    for (const [arg, input, name] of [
      ['-', '', '-'],
      [empty, undefined, empty],
      [blank, undefined, blank],
    ] as const) {
      const update = await runFormctl(['--debug', 'submission', 'update', form, '--from', arg, '--yes'], { env: fx.env, input });
      expect(update.code).toBe(2);
      expect(update.stdout).toBe('');
      expect(update.stderr).not.toContain('[debug] >');
      expect(update.stderr).toContain(`error: --from ${name} has no lines: nothing to update.\n${updateHint}`);

      const del = await runFormctl(['--debug', 'submission', 'delete', form, '--from', arg, '--yes'], { env: fx.env, input, cwd: fx.work });
      expect(del.code).toBe(2);
      expect(del.stdout).toBe('');
      expect(del.stderr).not.toContain('[debug] >');
      expect(del.stderr).toContain(`error: --from ${name} names no submission: it is empty.\n${deleteHint}`);
    }
    const comments = await runFormctl(['submission', 'delete', form, '--from', '-', '--yes'], { env: fx.env, input: '# none today\n' });
    expect(comments).toMatchObject({ code: 2, stderr: `error: --from - names no submission.\n${deleteHint}` });
  });
});
