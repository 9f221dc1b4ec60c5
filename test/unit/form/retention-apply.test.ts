import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/run-cli.js';
import { type TestSandbox, startTestSandbox } from '../../helpers/sandbox.js';

// A pulled file that carries a retention, applied to a form without one: the same warning and
// confirmation as `form update` (docs/forms.md, "Retention").
describe('form apply of a document that sets a retention', () => {
  let sb: TestSandbox;
  let home: ReturnType<typeof tempHome>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: 3 });
    home = tempHome();
    dir = mkdtempSync(join(tmpdir(), 'formctl-retention-'));
    env = { ...home.env, ...sb.env };
  });
  afterAll(async () => {
    await sb.close();
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('off a terminal: exit 2 and nothing sent without --yes; --dry-run warns; --yes applies it', async () => {
    const file = join(dir, 'form.json');
    const pull = await runInProcess(['form', 'pull', String(sb.formId), '-o', file], { env });
    expect(pull.code, pull.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...doc, submission_retention_value: 2, submission_retention_unit: 'week' }, null, 2));
    const refused = await runInProcess(['form', 'apply', '-f', file], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^error: Form \d+ \(".*"\) will keep submissions for 2 weeks \(until now: for ever\): .*: refusing without confirmation; nothing was sent\.\n/,
    );
    const dry = await runInProcess(['form', 'apply', '-f', file, '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('will keep submissions for 2 weeks');
    const get = async () =>
      JSON.parse((await runInProcess(['form', 'get', String(sb.formId), '--json', 'submission_retention_unit'], { env })).stdout) as unknown;
    expect(await get()).toEqual({ submission_retention_unit: null });
    const ok = await runInProcess(['form', 'apply', '-f', file, '--yes'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(await get()).toEqual({ submission_retention_unit: 'week' });
  });
});
