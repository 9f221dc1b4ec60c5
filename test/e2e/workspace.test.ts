import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

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

describe.each(FLAVORS)('a token without workspaces-read, against the %s sandbox', (flavor) => {
  const sx = useSandboxFixture({ flavor, homePerTest: true });

  it('the missing-workspace hint names `config set workspace`, which works where `workspace use` is refused (403)', async () => {
    const env = sx.home.env;
    const login = await runFormctl(['--profile', 'forms-only', 'auth', 'login', '--base-url', sx.sb.url, '--with-token'], { env, input: sx.sb.tokens.forms });
    expect(login.code).toBe(0);
    const missing = await runFormctl(['--profile', 'forms-only', 'form', 'list'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'error: Missing --workspace.\nhint: Pass --workspace <id> (prompts are off: not a terminal, CI, or --no-input). Or set a default: formctl --profile forms-only config set workspace <id> (see formctl --profile forms-only workspace list).\n',
    );
    // What the hint used to name fails with this token.
    expect((await runFormctl(['--profile', 'forms-only', 'workspace', 'use', String(sx.sb.workspaceId)], { env })).code).toBe(5);
    const set = await runFormctl(['--profile', 'forms-only', 'config', 'set', 'workspace', String(sx.sb.workspaceId)], { env });
    expect(set.code).toBe(0);
    const list = await runFormctl(['--profile', 'forms-only', 'form', 'list'], { env });
    expect(list.code).toBe(0);
  });
});

describe.each(FLAVORS)('workspace names with control characters, against the %s sandbox', (flavor) => {
  const sx = useSandboxFixture({ flavor });

  it('workspace use: the hint listing the workspaces stays one line (tab, newline and ESC shown escaped)', async () => {
    const made = await runFormctl(['api', '/open/workspaces/create', '-f', 'name=Tab\tName\nNL\x1b[31mX'], { env: sx.env });
    expect(made.code).toBe(0);
    const r = await runFormctl(['workspace', 'use', '424242'], { env: sx.env });
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('error: Workspace 424242 is not one of yours.');
    expect(lines[1]).toMatch(/^hint: Your workspaces: .*\(Tab\\x09Name\\x0aNL\\x1b\[31mX\)/);
    expect(lines[2]).toBe('');
  });
});
