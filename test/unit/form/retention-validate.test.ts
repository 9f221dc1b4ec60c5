import { describe, expect, it } from 'vitest';
import { formProblems } from '../../../src/forms/validate.js';
import { useSandboxFixture } from '../../helpers/fixture.js';
import { runInProcess } from '../../helpers/run-cli.js';

// A retention the service would refuse (docs/forms.md, "Retention": 1..3650, day/week/month/year,
// each required with the other) is a local problem, exit 2, and no PUT; what the service already
// holds is sent back unchecked.
describe('form update: retention values are checked before anything is sent', () => {
  const fx = useSandboxFixture({ seed: 1 });

  const update = (...set: string[]) =>
    runInProcess(['--debug', 'form', 'update', String(fx.sb.formId), ...set.flatMap((s) => ['--set', s]), '--yes'], { env: fx.env });

  it.each([
    [['submission_retention_value=0', 'submission_retention_unit=day'], 'submission_retention_value: 0 is not a whole number from 1 to 3650'],
    [['submission_retention_value=3651', 'submission_retention_unit=day'], 'submission_retention_value: 3651 is not a whole number from 1 to 3650'],
    [['submission_retention_value=1.5', 'submission_retention_unit=day'], 'submission_retention_value: 1.5 is not a whole number from 1 to 3650'],
    [['submission_retention_value=2', 'submission_retention_unit=fortnight'], 'submission_retention_unit: "fortnight" is not one of day, week, month, year'],
    [['submission_retention_value=2'], 'submission_retention_unit: is required with submission_retention_value (one of day, week, month, year)'],
    [['submission_retention_unit=week'], 'submission_retention_value: is required with submission_retention_unit (a whole number from 1 to 3650)'],
  ])('%j: exit 2, no PUT', async (set, problem) => {
    const r = await update(...set);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`error: The form is not valid (1 problem); nothing was sent:\n  ${problem}\n`);
    expect(r.stderr).not.toMatch(/> PUT /);
  });

  it('a valid pair, and clearing it, are sent', async () => {
    const set = await update('submission_retention_value=3650', 'submission_retention_unit=year');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toMatch(/> PUT /);
    const cleared = await update('submission_retention_value=null', 'submission_retention_unit=null');
    expect(cleared.code, cleared.stderr).toBe(0);
  });

  it('unchanged values are not checked; a digit string counts as a whole number, as the service reads it', () => {
    const held = { submission_retention_value: 0, submission_retention_unit: 'fortnight' };
    expect(formProblems({ title: 'T', ...held }, 'update', { title: 'T', ...held }).filter((p) => p.includes('retention'))).toEqual([]);
    expect(formProblems({ submission_retention_value: '30', submission_retention_unit: 'day' }, 'update').filter((p) => p.includes('retention'))).toEqual([]);
  });
});
