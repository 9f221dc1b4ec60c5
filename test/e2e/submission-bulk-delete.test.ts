import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frozenClockEnv, runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS, csvRowIds } from '../helpers/sandbox.js';

describe.each(FLAVORS)('submission delete --where from the built binary (%s sandbox)', (flavor) => {
  const fx = useSandboxFixture({ flavor, seed: 10 });

  const list = async () =>
    JSON.parse((await runFormctl(['submission', 'list', String(fx.sb.formId), '--all', '--json', 'id,data'], { env: fx.env })).stdout) as {
      id: number;
      data: Record<string, unknown>;
    }[];

  it('previews, refuses without --yes off a terminal, then backs up exactly the rows it deletes', async () => {
    const before = await list();
    const matching = before.filter((s) => String(s.data.rating) === '3').map((s) => s.id);
    expect(matching.length).toBeGreaterThan(0);
    const backup = join(fx.home.dir, `rating3-${flavor}.csv`);
    const refused = await runFormctl(['submission', 'delete', String(fx.sb.formId), '--where', 'Rating=3', '--backup', backup], { env: fx.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `${matching.length} submission${matching.length === 1 ? '' : 's'} of form "Customer feedback (demo)" (id ${fx.sb.formId}) match`,
    );
    expect(refused.stderr).toContain('hint: Pass --yes to confirm.');
    expect((await list()).length).toBe(before.length);

    const r = await runFormctl(['submission', 'delete', String(fx.sb.formId), '--where', 'Rating=3', '--backup', backup, '--yes', '--json'], { env: fx.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ selected: matching.length, deleted: matching.length, gone: 0, failed: 0, backup });
    const after = (await list()).map((s) => s.id);
    const deleted = before.map((s) => s.id).filter((id) => !after.includes(id));
    expect(deleted).toEqual(matching);
    expect(csvRowIds(readFileSync(backup, 'utf8'), flavor)).toEqual(matching);

    const bad = await runFormctl(['submission', 'delete', String(fx.sb.formId), '--before', 'sometime'], { env: fx.env });
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    const both = await runFormctl(['submission', 'delete', String(fx.sb.formId), '3', '--where', 'Rating=3'], { env: fx.env });
    expect(both).toMatchObject({ code: 2, stderr: 'error: Give a submission id or --from/--before/--where/--resume, not both.\n' });
  });

  it('--from - reads the ids from stdin, and then needs --yes (stdin cannot answer), refused before any request', async () => {
    const before = await list();
    const ids = [before[0]!.id, before[2]!.id];
    const input = `${ids[0]}\n# a comment\n${JSON.stringify({ id: ids[1] })}\n`;
    const refused = await runFormctl(['--debug', 'submission', 'delete', String(fx.sb.formId), '--from', '-'], { env: fx.env, input });
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n').filter((l) => !l.startsWith('[debug]') && !/^\s+at |^UsageError/.test(l))).toEqual([
      'error: --from - reads the ids from stdin, so the deletion cannot be confirmed there.',
      'hint: Add --yes to delete them (--dry-run to see them first).',
      '',
    ]);
    expect(refused.stderr).not.toContain('[debug] >');
    expect((await list()).length).toBe(before.length);

    const backup = join(fx.home.dir, `stdin-${flavor}.csv`);
    const r = await runFormctl(['submission', 'delete', String(fx.sb.formId), '--from', '-', '--backup', backup, '--yes', '--json'], { env: fx.env, input });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ selected: 2, deleted: 2, gone: 0, failed: 0, backup });
    const after = (await list()).map((s) => s.id);
    expect(before.map((s) => s.id).filter((id) => !after.includes(id))).toEqual(ids);
    expect(csvRowIds(readFileSync(backup, 'utf8'), flavor)).toEqual(ids);

    const bad = await runFormctl(['submission', 'delete', String(fx.sb.formId), '--from', '-', '--yes'], { env: fx.env, input: '12\nabc\n' });
    expect(bad).toMatchObject({
      code: 2,
      stderr:
        'error: --from -, line 2: not a submission id.\nhint: One numeric id per line (the ID column of `submission list`), or lines of `submission list --ndjson`.\n',
    });
  });

  it('--no-backup still logs to a file (resumable), so --json prints one object on stdout', async () => {
    const before = await list();
    const matching = before.filter((s) => String(s.data.rating) === '4').map((s) => s.id);
    expect(matching.length).toBeGreaterThan(0);
    const r = await runFormctl(['submission', 'delete', String(fx.sb.formId), '--where', 'Rating=4', '--no-backup', '--yes', '--json'], {
      env: fx.env,
      cwd: fx.home.dir,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: no backup (--no-backup)');
    const out = JSON.parse(r.stdout) as { deleted: number; backup: string | null; results: string };
    expect(out).toMatchObject({ selected: matching.length, deleted: matching.length, backup: null });
    expect(out.results).toMatch(/^customer-feedback-demo-[a-z0-9]+-deleted-.*Z\.log\.ndjson$/);
    const log = readFileSync(join(fx.home.dir, out.results), 'utf8').trim().split('\n');
    expect(JSON.parse(log[0]!)).toMatchObject({ plan: { form_id: fx.sb.formId, ids: matching, backup: null } });
    expect(log.filter((l) => l.includes('"deleted"'))).toHaveLength(matching.length);
  });

  it('a default backup name already taken (two runs in the same second) gets a free -2 name; an explicit one is refused with hints naming --backup', async () => {
    const before = await list();
    const dir = mkdtempSync(join(fx.home.dir, 'same-second-'));
    // Both runs at the same instant: their default names (to the second) are the same.
    const env = { ...fx.env, ...frozenClockEnv(Date.UTC(2026, 10, 28, 12, 0, 0)) };
    const run = (id: number, more: string[] = []) =>
      runFormctl(['submission', 'delete', String(fx.sb.formId), '--from', '-', '--yes', '--json', ...more], { env, cwd: dir, input: `${id}\n` });
    const first = await run(before[0]!.id);
    expect(first.code).toBe(0);
    const second = await run(before[1]!.id);
    expect(second.code).toBe(0);
    const a = JSON.parse(first.stdout) as { backup: string; results: string };
    const b = JSON.parse(second.stdout) as { backup: string; results: string };
    expect(a.backup).toMatch(/-deleted-2026-11-28T12-00-00Z\.csv$/);
    expect(b.backup).toBe(a.backup.replace(/\.csv$/, '-2.csv'));
    expect(b.results).toBe(`${b.backup}.log.ndjson`);
    expect(csvRowIds(readFileSync(join(dir, a.backup), 'utf8'), flavor)).toEqual([before[0]!.id]);
    expect(csvRowIds(readFileSync(join(dir, b.backup), 'utf8'), flavor)).toEqual([before[1]!.id]);

    // A name the user gave that exists is never replaced, and the hint names delete's own flags (it has no --clobber, no -o).
    const existing = join(dir, 'existing.csv');
    writeFileSync(existing, 'keep me\n');
    const refused = await run(before[2]!.id, ['--backup', existing]);
    expect(refused).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: ${existing} already exists.\nhint: Choose another name with --backup, or remove ${existing} first.\n`,
    });
    expect(readFileSync(existing, 'utf8')).toBe('keep me\n');
    expect(existsSync(`${existing}.log.ndjson`)).toBe(false);
    expect((await list()).map((s) => s.id)).toContain(before[2]!.id);
  });
});
