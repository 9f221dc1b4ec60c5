import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

const fx = useSandboxFixture();

describe('workspace commands end to end', () => {
  it('login, create, use, list, update, delete', async () => {
    const env = fx.home.env;
    expect((await runFormctl(['auth', 'login', '--base-url', fx.sb.url, '--with-token'], { env, input: fx.sb.tokens.all })).code).toBe(0);
    const created = await runFormctl(['workspace', 'create', '--name', 'E2E'], { env });
    expect(created.code).toBe(0);
    const id = Number(created.stdout.trim());
    expect(created.stdout).toBe(`${id}\n`);

    expect((await runFormctl(['workspace', 'use', String(id)], { env })).code).toBe(0);
    const list = await runFormctl(['ws', 'ls'], { env });
    // The icon has its own column (3): `cut -f2` is the bare name.
    expect(
      list.stdout
        .split('\n')
        .map((l) => l.split('\t'))
        .find((c) => c[0] === String(id)),
    ).toEqual([String(id), 'E2E', expect.any(String), 'no', '*']);

    const upd = await runFormctl(['workspace', 'update', String(id), '--emoji', '🧪', '--json', 'name,icon'], { env });
    expect(JSON.parse(upd.stdout)).toEqual({ name: 'E2E', icon: '🧪' });

    const noYes = await runFormctl(['workspace', 'delete', String(id)], { env });
    expect(noYes.code).toBe(2);
    expect((await runFormctl(['workspace', 'rm', String(id), '--yes'], { env })).code).toBe(0);
    const gone = await runFormctl(['workspace', 'list', '--ndjson'], { env });
    expect(
      gone.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).not.toContain(id);

    const bad = await runFormctl(['workspace', 'list', '--json', 'id,nmae'], { env });
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'error: Unknown JSON field: nmae.\nhint: Available fields: id, name, icon, settings, max_file_size, is_readonly, default\n',
    ]);
  });
});
