// Team work on a fresh sandbox, from the built binary, on both flavours: the seeded colleague can be
// added (an existing account), promoted, seen from her own token, and removed; an invited address
// becomes an account through the sandbox-only POST /sandbox/users.
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

describe.each(FLAVORS)('team work on a fresh %s sandbox (built binary)', (flavor) => {
  const fx = useSandboxFixture({ flavor });

  it('add the seeded colleague, set her role, see it from her token, remove her; an invite accepted through /sandbox/users', async () => {
    const ws = String(fx.sb.workspaceId);
    const bea = fx.sb.users.find((u) => u.email === 'bea@example.com')!;
    const as = (env: NodeJS.ProcessEnv) => ({ env: { ...fx.home.env, ...env, FORMCTL_WORKSPACE: ws } });
    const run = (args: string[], env = fx.sb.env) => runFormctl(args, as(env));

    const added = await run(['member', 'add', 'bea@example.com', '--role', 'user', '--json']);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout).outcome).toBe('added');
    const promoted = await run(['member', 'set-role', 'bea@example.com', 'admin']);
    expect(promoted.code, promoted.stderr).toBe(0);
    const seen = await run(['member', 'list', '--json', 'email,role'], fx.sb.envFor(bea));
    expect(seen.code, seen.stderr).toBe(0);
    expect(JSON.parse(seen.stdout)).toEqual([
      { email: 'admin@example.com', role: 'admin' },
      { email: 'bea@example.com', role: 'admin' },
    ]);
    const removed = await run(['member', 'remove', 'bea@example.com', '--yes']);
    expect(removed.code, removed.stderr).toBe(0);

    const invited = await run(['member', 'add', 'carol@example.com', '--role', 'readonly', '--json']);
    expect(JSON.parse(invited.stdout).outcome).toBe('invited');
    const created = await run(['api', '/sandbox/users', '-f', 'email=carol@example.com']);
    expect(created.code, created.stderr).toBe(0);
    const carol = JSON.parse(created.stdout);
    expect(carol.workspaces_joined).toEqual([fx.sb.workspaceId]);
    const list = await run(['member', 'list', '--json', 'email,role']);
    expect(JSON.parse(list.stdout)).toEqual([
      { email: 'admin@example.com', role: 'admin' },
      { email: 'carol@example.com', role: 'readonly' },
    ]);
  });
});
