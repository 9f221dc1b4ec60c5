import { describe, expect, it } from 'vitest';
import { useSandboxFixture } from '../../helpers/fixture.js';
import { runInProcess } from '../../helpers/run-cli.js';

// The deployed server tells an admin whose token lacks workspaces-write "You need to be an admin"
// (WorkspacePolicy.php:96-100,129-133,163-176), and guards leave with workspaces-read (WorkspacePolicy.php:37-46).
describe('403 hints against the deployed flavour', () => {
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 1 });
  const as = (token: string) => ({ env: { ...fx.home.env, FORMCTL_BASE_URL: fx.sb.url, FORMCTL_TOKEN: token } });

  it('an admin without workspaces-write: the hint names the missing ability, not the role', async () => {
    const token = fx.sb.admin.createToken('admin@example.com', ['workspaces-read', 'forms-read']);
    const other = await runInProcess(['workspace', 'create', '--name', 'Second'], as(fx.sb.tokens.all));
    expect(other.code, other.stderr).toBe(0);
    const del = await runInProcess(['workspace', 'delete', String(fx.sb.workspaceId), '--yes'], as(token));
    expect(del.code).toBe(5);
    expect(del.stderr).toContain('error: You need to be an admin of this workspace to do this.');
    expect(del.stderr).toContain(
      'hint: OpnForm servers say this also to an admin whose token lacks the `workspaces-write` ability. If you are an admin of the workspace (`formctl member list`), create a token with `workspaces-write`',
    );
    const add = await runInProcess(['member', 'add', 'bea@example.com', '--role', 'user', '-w', String(fx.sb.workspaceId)], as(token));
    expect(add.code).toBe(5);
    expect(add.stderr).toContain('a token with the `workspace-users-write` ability (OpnForm servers check `workspaces-write`)');
    expect(add.stderr).toContain('If you are an admin of workspace');
  });

  it('workspace leave without workspaces-read: the hint names workspaces-read, not workspace-users-write alone', async () => {
    const token = fx.sb.admin.createToken('admin@example.com', ['forms-read']);
    const r = await runInProcess(['workspace', 'leave', String(fx.sb.workspaceId), '--yes', '--force'], as(token));
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('the `workspace-users-write` ability (OpnForm servers check `workspaces-read`)');
  });
});
