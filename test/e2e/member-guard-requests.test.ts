// `member remove` and `member set-role` from the built binary on both sandbox flavours (the deployed
// one gives a member's role in `pivot.role`), behind a counting proxy: the last-admin guard refuses
// after the member list alone, as `workspace leave` refuses after its own reads (leave-requests.test.ts);
// a change that goes ahead reads the workspace list (and, with --force, the form count) as before.
import { describe, expect, it } from 'vitest';
import { countedSandbox } from '../helpers/counted-sandbox.js';
import { FLAVORS } from '../helpers/sandbox.js';

describe.each(FLAVORS)('member remove and set-role on the %s flavour: the requests they make', (flavor) => {
  const t = countedSandbox(flavor);
  const { counted } = t;

  const ADA = 'Ada Admin \\(admin@example\\.com\\)';
  const hint = (w: number) => `hint: Make another member admin first \\(\`formctl member set-role <user> admin -w ${w}\`\\); --force goes ahead anyway\\.\n$`;

  it('remove: refused for the only member and for the only admin after 1 request; another member is removed as before; --force reads the name and form count', async () => {
    const w = t.sb.workspaceId;
    const users = `GET /open/workspaces/${w}/users`;
    const only = await counted(['member', 'remove', 'admin@example.com', '-w', String(w), '--yes']);
    expect(only.code).toBe(2);
    expect(only.stderr).toMatch(
      new RegExp(
        `^error: Refusing to remove ${ADA} from workspace ${w}: ${ADA} is the only member of workspace ${w}, so workspace ${w} and its forms would be left with nobody at all\\.\n`,
      ),
    );
    expect(only.requests).toEqual([users]);

    expect((await counted(['member', 'add', 'bea@example.com', '--role', 'user', '-w', String(w)])).code).toBe(0);
    const admin = await counted(['member', 'remove', '1', '-w', String(w), '--yes']);
    expect(admin.code).toBe(2);
    expect(admin.stderr).toMatch(
      new RegExp(
        `^error: Refusing to remove ${ADA} from workspace ${w}: ${ADA} is the only admin of workspace ${w}, so nobody could manage its members, settings or deletion, and its forms would have no admin\\.\n${hint(w)}`,
      ),
    );
    expect(admin.requests).toEqual([users]);

    // The guard passes: Bea goes, with the requests and the output of before.
    const bea = t.sb.users.find((u) => u.email === 'bea@example.com')!;
    const removed = await counted(['member', 'remove', 'bea@example.com', '-w', String(w), '--yes', '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toBe('');
    expect(JSON.parse(removed.stdout)).toEqual({
      workspace_id: w,
      user_id: bea.id,
      email: 'bea@example.com',
      message: 'User removed from workspace successfully.',
    });
    expect(removed.requests).toEqual([users, 'GET /open/workspaces', `DELETE /open/workspaces/${w}/users/${bea.id}/remove`]);

    const forced = await counted(['member', 'remove', '1', '-w', String(w), '--yes', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toBe(
      `warning: --force: Ada Admin (admin@example.com) is the only member of "Ada's Workspace", so "Ada's Workspace" and its one form would be left with nobody at all.\n`,
    );
    expect(forced.requests).toEqual([
      users,
      'GET /open/workspaces',
      `GET /open/workspaces/${w}/forms?page=1&per_page=100`,
      `DELETE /open/workspaces/${w}/users/1/remove`,
    ]);
  });

  it('set-role: demoting the only admin is refused after 1 request, with or without company; another member changes as before; --force reads the name and form count', async () => {
    const w = t.sb.workspaceId;
    const users = `GET /open/workspaces/${w}/users`;
    const alone = await counted(['member', 'set-role', 'admin@example.com', 'user', '-w', String(w)]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(
      new RegExp(
        `^error: Refusing to make ${ADA} user in workspace ${w}: ${ADA} is the only admin of workspace ${w}, so nobody could manage its members, settings or deletion, and its forms would have no admin\\.\n${hint(w)}`,
      ),
    );
    expect(alone.requests).toEqual([users]);

    expect((await counted(['member', 'add', 'bea@example.com', '--role', 'user', '-w', String(w)])).code).toBe(0);
    const admin = await counted(['member', 'set-role', '1', 'readonly', '-w', String(w), '--yes']);
    expect(admin.code).toBe(2);
    expect(admin.stderr).toMatch(new RegExp(`^error: Refusing to make ${ADA} readonly in workspace ${w}: ${ADA} is the only admin of workspace ${w}, `));
    expect(admin.requests).toEqual([users]);

    // The guard passes: Bea's role changes, with the requests and the output of before.
    const bea = t.sb.users.find((u) => u.email === 'bea@example.com')!;
    const changed = await counted(['member', 'set-role', 'bea@example.com', 'readonly', '-w', String(w), '--json']);
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(changed.stdout)).toEqual({
      workspace_id: w,
      user_id: bea.id,
      email: 'bea@example.com',
      role: 'readonly',
      changed: true,
      message: 'User role changed successfully.',
    });
    expect(changed.requests).toEqual([users, 'GET /open/workspaces', `PUT /open/workspaces/${w}/users/${bea.id}/update-role`]);
    const same = await counted(['member', 'set-role', String(bea.id), 'readonly', '-w', String(w)]);
    expect(same).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `note: Bea Builder (bea@example.com) is already readonly in "Ada's Workspace"; nothing changed.\n`,
    });

    const forced = await counted(['member', 'set-role', '1', 'user', '-w', String(w), '--yes', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toBe(
      `warning: --force: Ada Admin (admin@example.com) is the only admin of "Ada's Workspace", so nobody could manage its members, settings or deletion, and its one form would have no admin.\n`,
    );
    expect(forced.requests).toEqual([
      users,
      'GET /open/workspaces',
      `GET /open/workspaces/${w}/forms?page=1&per_page=100`,
      `PUT /open/workspaces/${w}/users/1/update-role`,
    ]);
  });
});
