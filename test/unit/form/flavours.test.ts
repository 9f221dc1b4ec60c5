import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandboxFixture } from '../../helpers/fixture.js';
import { runInProcess } from '../../helpers/run-cli.js';
import { FLAVORS } from '../../helpers/sandbox.js';

// In-process (src/main.ts `run`); test/e2e/flavours.test.ts runs the built binary on both flavours.
describe.each(FLAVORS)('form changes against the %s sandbox', (flavor) => {
  const fx = useSandboxFixture({ flavor, env: (sb) => ({ FORMCTL_WORKSPACE: String(sb.workspaceId) }) });

  async function create(args: string[]): Promise<number> {
    const r = await runInProcess(['form', 'create', '--field', 'Name', '--field', 'Email:email', ...args], { env: fx.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return Number(r.stdout.split('\t')[0]);
  }

  /** The whole form; `form get --json` leaves a set password out, so it is asked for by name too. */
  async function get(id: number): Promise<Record<string, unknown>> {
    const r = await runInProcess(['form', 'get', String(id), '--json'], { env: fx.env });
    expect(r.code).toBe(0);
    const secret = await runInProcess(['form', 'get', String(id), '--json', 'password'], { env: fx.env });
    expect(secret.code).toBe(0);
    return { ...JSON.parse(r.stdout), ...JSON.parse(secret.stdout) };
  }

  it('form update changes what it is asked and keeps the rest', async () => {
    const id = await create(['--title', 'Flavours', '--set', 'description=Kept', '--set', 'password=pw-1']);
    const r = await runInProcess(['form', 'update', String(id), '--visibility', 'public', '--json', 'id,visibility,description'], { env: fx.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id, visibility: 'public', description: 'Kept' });
    expect(await get(id)).toMatchObject({ title: 'Flavours', visibility: 'public', description: 'Kept', password: 'pw-1' });
  });

  it('pull leaves the password out; apply of the pulled file keeps it; dry runs mask it', async () => {
    const id = await create(['--title', 'Secret form', '--set', 'password=pw-2']);
    const file = join(fx.home.dir, `form-${id}.json`);
    const pull = await runInProcess(['form', 'pull', String(id), '-o', file], { env: fx.env });
    expect(pull.code).toBe(0);
    expect(pull.stderr).toContain('note: left "password" out of the document (a secret)');
    expect(readFileSync(file, 'utf8')).not.toContain('pw-2');

    const doc = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...doc, title: 'Secret form v2' }, null, 2));
    const apply = await runInProcess(['form', 'apply', '-f', file], { env: fx.env });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(await get(id)).toMatchObject({ title: 'Secret form v2', password: 'pw-2' });
    const again = await runInProcess(['form', 'apply', '-f', file], { env: fx.env });
    expect(again.stderr).toBe('note: no changes: form "Secret form v2" (id ' + id + ') already matches; nothing was sent.\n');

    const dry = await runInProcess(['form', 'update', String(id), '--set', 'password=pw-3', '--dry-run'], { env: fx.env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('+  "password": "******** (changed)",');
    expect(dry.stdout + dry.stderr).not.toMatch(/pw-2|pw-3/);

    const full = await runInProcess(['form', 'pull', String(id), '--include-secrets'], { env: fx.env });
    expect(JSON.parse(full.stdout).password).toBe('pw-2');
  });

  it('pull -o into a missing directory and a 11 MiB create are refused in house words (exit 2)', async () => {
    const id = await create(['--title', 'Files']);
    const target = join(fx.home.dir, 'missing-dir', 'f.json');
    const pull = await runInProcess(['form', 'pull', String(id), '-o', target], { env: fx.env });
    expect(pull).toEqual({ code: 2, stdout: '', stderr: `error: Cannot write ${target}: no such directory.\n` });
    expect(existsSync(join(fx.home.dir, 'missing-dir'))).toBe(false);

    mkdirSync(join(fx.home.dir, 'big'), { recursive: true });
    const big = join(fx.home.dir, 'big', 'form.json');
    writeFileSync(big, JSON.stringify({ title: 'Big', description: 'x'.repeat(11 * 1024 * 1024), properties: [{ id: 'a', type: 'text', name: 'A' }] }));
    const r = await runInProcess(['form', 'create', '--file', big], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: The form is 11.0 MiB as JSON; the service takes at most 10 MiB: nothing was sent.');
  });

  it('ids past 2^53 and 1e23 are refused before any request (exit 2)', async () => {
    for (const ref of ['9007199254740993', '1e23']) {
      const r = await runInProcess(['form', 'update', ref, '--visibility', 'draft'], { env: fx.env });
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`error: <form> "${ref}" is not a form id or slug: form ids are whole numbers from 1 to 9007199254740991.`);
    }
  });

  if (flavor === 'deployed') {
    it('a form with a 70-character title (legal on the deployed server) updates; a new 70-character title is refused', async () => {
      const title = 'T'.repeat(70);
      const id = await create(['--title', title, '--no-validate']);
      const r = await runInProcess(['form', 'update', String(id), '--visibility', 'public'], { env: fx.env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(await get(id)).toMatchObject({ title, visibility: 'public' });

      const edit = await runInProcess(['form', 'update', String(id), '--set', 'description=Still long'], { env: fx.env });
      expect(edit.code).toBe(0);

      const file = join(fx.home.dir, `long-${id}.json`);
      expect((await runInProcess(['form', 'pull', String(id), '-o', file], { env: fx.env })).code).toBe(0);
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), visibility: 'closed' }));
      const apply = await runInProcess(['form', 'apply', '-f', file], { env: fx.env });
      expect(apply.stderr).toBe('');
      expect(apply.code).toBe(0);
      expect(await get(id)).toMatchObject({ title, visibility: 'closed', description: 'Still long' });

      const renamed = await runInProcess(['form', 'update', String(id), '--title', 'U'.repeat(70)], { env: fx.env });
      expect(renamed.code).toBe(2);
      expect(renamed.stderr).toContain('title: is 70 characters; the maximum is 60');
    });
  } else {
    it('the spec service refuses a 70-character title; formctl refuses it first', async () => {
      const r = await runInProcess(['form', 'create', '--title', 'T'.repeat(70)], { env: fx.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('title: is 70 characters; the maximum is 60');
    });
  }
});
