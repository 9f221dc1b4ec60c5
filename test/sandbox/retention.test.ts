import { describe, expect, it } from 'vitest';
import { FLAVORS } from '../helpers/sandbox.js';
import { boot, call } from './helpers.js';

const DAY = 86_400_000;

// Submission retention (docs/service.md, "Retention"): OpnForm UserFormRequest.php:163-174 for the
// rules, SubmissionRetentionService.php:17-63 and Kernel.php:27 for the hourly purge.
describe.each(FLAVORS)('retention attributes (%s flavour)', (flavor) => {
  it("accepts the two fields with the server's rules, and returns them", async () => {
    const sb = await boot({ flavor, seed: 1 });
    const path = `/open/forms/${sb.formId}`;
    const form = (await call(sb, 'GET', path)).json;
    const base = form.form ?? form;
    expect([base.submission_retention_value, base.submission_retention_unit]).toEqual([null, null]);
    const put = (extra: Record<string, unknown>) => call(sb, 'PUT', path, { ...base, ...extra });
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [
        { submission_retention_value: 0, submission_retention_unit: 'day' },
        { submission_retention_value: ['The submission retention value field must be at least 1.'] },
      ],
      [
        { submission_retention_value: 3651, submission_retention_unit: 'day' },
        { submission_retention_value: ['The submission retention value field must not be greater than 3650.'] },
      ],
      [
        { submission_retention_value: 1.5, submission_retention_unit: 'day' },
        { submission_retention_value: ['The submission retention value field must be an integer.'] },
      ],
      [
        { submission_retention_value: 2, submission_retention_unit: 'hour' },
        { submission_retention_unit: ['The selected submission retention unit is invalid.'] },
      ],
      [
        { submission_retention_value: 2, submission_retention_unit: null },
        { submission_retention_unit: ['The submission retention unit field is required when submission retention value is present.'] },
      ],
      [
        { submission_retention_value: null, submission_retention_unit: 'week' },
        { submission_retention_value: ['The submission retention value field is required when submission retention unit is present.'] },
      ],
    ];
    for (const [extra, errors] of cases) {
      const res = await put(extra);
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(res.json.errors).toEqual(errors);
    }
    const ok = await put({ submission_retention_value: 3650, submission_retention_unit: 'day' });
    expect(ok.status).toBe(200);
    const got = (await call(sb, 'GET', path)).json;
    expect([got.submission_retention_value, got.submission_retention_unit]).toEqual([3650, 'day']);
    // Absent keys keep what is stored; null clears both.
    const { submission_retention_value: _v, submission_retention_unit: _u, ...without } = got;
    expect((await call(sb, 'PUT', path, without)).status).toBe(200);
    expect((await call(sb, 'GET', path)).json.submission_retention_unit).toBe('day');
    expect((await put({ submission_retention_value: null, submission_retention_unit: null })).status).toBe(200);
    expect((await call(sb, 'GET', path)).json.submission_retention_value).toBeNull();
  });
});

describe('the hourly purge (deployed flavour, sandbox-only route)', () => {
  it('deletes for good each submission last updated before the cutoff; an update restarts its clock', async () => {
    const clock = { t: Date.UTC(2026, 0, 10, 12) };
    const sb = await boot({ flavor: 'deployed', seed: 4, now: () => clock.t });
    clock.t += 3 * DAY;
    const path = `/open/forms/${sb.formId}`;
    const form = (await call(sb, 'GET', path)).json;
    const list = async () => (await call(sb, 'GET', `${path}/submissions`)).json.data.map((s: { id: number }) => s.id);
    const ids: number[] = await list();
    expect(ids).toHaveLength(4);
    // An update moves updated_at: this one is kept.
    const put = await call(sb, 'PUT', `${path}/submissions/${ids[0]}`, { name: 'Changed', data: { name: 'Changed' } });
    expect(put.status, put.text).toBe(200);
    // No retention yet: nothing is deleted.
    expect((await call(sb, 'POST', '/sandbox/run-retention')).json).toEqual({ deleted: 0, forms: 0 });
    expect((await call(sb, 'PUT', path, { ...form, submission_retention_value: 2, submission_retention_unit: 'day' })).status).toBe(200);
    expect((await call(sb, 'POST', '/sandbox/run-retention')).json).toEqual({ deleted: 3, forms: 1 });
    expect(await list()).toEqual([ids[0]]);
  });

  it('is no route on the spec flavour', async () => {
    const sb = await boot({ seed: 1 });
    expect((await call(sb, 'POST', '/sandbox/run-retention')).status).toBe(404);
  });
});
