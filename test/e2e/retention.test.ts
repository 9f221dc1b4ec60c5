import { beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

const DAY = 86_400_000;

// A change that sets or shortens retention says what the service will delete, and needs a
// confirmation (docs/forms.md, "Retention"); the deployed sandbox's purge proves the count true.
describe('retention against the deployed flavour (built binary)', () => {
  // The seeded answers are three days old by the time formctl looks at them.
  const clock = { t: Date.now() - 3 * DAY };
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 5, now: () => clock.t });
  beforeAll(() => {
    clock.t = Date.now();
  });

  const form = () => String(fx.sb.formId);
  const set = ['--set', 'submission_retention_value=1', '--set', 'submission_retention_unit=day'];
  const stored = async () => {
    const r = await runFormctl(['form', 'get', form(), '--json', 'submission_retention_value,submission_retention_unit'], { env: fx.env });
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };

  it('off a terminal without --yes: refused (exit 2), nothing sent; --dry-run shows the warning', async () => {
    const r = await runFormctl(['form', 'update', form(), ...set], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error: Form ${form()} ("Customer feedback (demo)") will keep submissions for 1 day (until now: for ever): the service deletes submissions older than 1 day (by their last update) for good, with their files, up to 5 of them today (counted by submission date; one updated since is kept), within the hour: refusing without confirmation; nothing was sent.\n`,
    );
    expect(r.stderr).toContain('hint: Pass --yes to confirm, or --dry-run to see the change');
    expect(await stored()).toEqual({ submission_retention_value: null, submission_retention_unit: null });
    const dry = await runFormctl(['form', 'update', form(), ...set, '--dry-run'], { env: fx.env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('warning: form');
    expect(dry.stderr).toContain('up to 5 of them today');
    expect(await stored()).toEqual({ submission_retention_value: null, submission_retention_unit: null });
  });

  it('form create with a retention: refused off a terminal without --yes (exit 2, no form created); created with it', async () => {
    const count = async () =>
      JSON.parse((await runFormctl(['form', 'list', '-w', String(fx.sb.workspaceId), '--json', 'id'], { env: fx.env })).stdout).length as number;
    const before = await count();
    const args = [
      'form',
      'create',
      '-w',
      String(fx.sb.workspaceId),
      '--title',
      'Kept a week',
      '--set',
      'submission_retention_value=1',
      '--set',
      'submission_retention_unit=week',
    ];
    const r = await runFormctl(args, { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error: The new form ("Kept a week") will keep submissions for 1 week (until now: for ever): the service deletes submissions older than 1 week (by their last update) for good, with their files, none of them today, within the hour: refusing without confirmation; nothing was sent.',
    );
    expect(await count()).toBe(before);
    const ok = await runFormctl([...args, '--yes'], { env: fx.env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(await count()).toBe(before + 1);
  });

  it('with --yes: said, sent; form get shows it; list and export say so once; the purge deletes what was announced', async () => {
    // One answer updated now: its clock restarts, so it is kept.
    const upd = await runFormctl(['submission', 'update', form(), '1', '--set', 'Rating=5'], { env: fx.env });
    expect(upd.code, upd.stderr).toBe(0);
    const r = await runFormctl(['form', 'update', form(), ...set, '--yes'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: form \d+ \("Customer feedback \(demo\)"\) will keep submissions for 1 day .* up to 5 of them today/);
    expect(await stored()).toEqual({ submission_retention_value: 1, submission_retention_unit: 'day' });
    const get = await runFormctl(['form', 'get', form()], { env: fx.env });
    expect(get.stdout).toContain('retention\t1 day (older submissions, by last update, are deleted every hour)');
    const list = await runFormctl(['submission', 'list', form(), '--json', 'id'], { env: fx.env });
    expect(list.stderr.match(/note: form \d+ keeps submissions for 1 day/g)).toHaveLength(1);
    const exp = await runFormctl(['submission', 'export', form(), '-o', '-'], { env: fx.env });
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stderr.match(/note: form \d+ keeps submissions for 1 day/g)).toHaveLength(1);
    // Lengthening it deletes less than before: no warning, no confirmation.
    const longer = await runFormctl(['form', 'update', form(), '--set', 'submission_retention_value=2'], { env: fx.env });
    expect(longer.code, longer.stderr).toBe(0);
    expect(longer.stderr).not.toContain('will keep submissions');
    const purge = await fetch(`${fx.sb.url}/sandbox/run-retention`, { method: 'POST', headers: { authorization: `Bearer ${fx.sb.tokens.all}` } });
    expect(await purge.json()).toEqual({ deleted: 4, forms: 2 }); // the demo form and the one created above
    const left = await runFormctl(['submission', 'list', form(), '--json', 'id'], { env: fx.env });
    expect(JSON.parse(left.stdout)).toEqual([{ id: 1 }]);
  });
});
