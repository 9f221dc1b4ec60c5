import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandboxFixture } from '../../helpers/fixture.js';
import { runInProcess } from '../../helpers/run-cli.js';

// A pulled file that carries a retention, applied to a form without one: the same warning and
// confirmation as `form update` (docs/forms.md, "Retention").
describe('form apply of a document that sets a retention', () => {
  const fx = useSandboxFixture({ seed: 3 });

  it('off a terminal: exit 2 and nothing sent without --yes; --dry-run warns; --yes applies it', async () => {
    const file = join(fx.work, 'form.json');
    const pull = await runInProcess(['form', 'pull', String(fx.sb.formId), '-o', file], { env: fx.env });
    expect(pull.code, pull.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...doc, submission_retention_value: 2, submission_retention_unit: 'week' }, null, 2));
    const refused = await runInProcess(['form', 'apply', '-f', file], { env: fx.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^error: Form \d+ \(".*"\) will keep submissions for 2 weeks \(until now: for ever\): .*: refusing without confirmation; nothing was sent\.\n/,
    );
    const dry = await runInProcess(['form', 'apply', '-f', file, '--dry-run'], { env: fx.env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('will keep submissions for 2 weeks');
    const get = async () =>
      JSON.parse((await runInProcess(['form', 'get', String(fx.sb.formId), '--json', 'submission_retention_unit'], { env: fx.env })).stdout) as unknown;
    expect(await get()).toEqual({ submission_retention_unit: null });
    const ok = await runInProcess(['form', 'apply', '-f', file, '--yes'], { env: fx.env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(await get()).toEqual({ submission_retention_unit: 'week' });
  });
});
