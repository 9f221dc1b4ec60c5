import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunResult, runFormctl, tempHome } from '../helpers/cli.js';
import { startStubServer } from '../helpers/http.js';
import { type SandboxFixture, useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

// The built binary against the in-process sandbox (spec behaviour), one sandbox per scenario group.

let home: ReturnType<typeof tempHome>;
beforeAll(() => {
  home = tempHome();
});
afterAll(() => home.cleanup());

function cli(fx: SandboxFixture, args: string[], token?: string): Promise<RunResult> {
  return runFormctl(args, { env: { ...fx.env, ...(token ? { FORMCTL_TOKEN: token } : {}) } });
}

async function members(fx: SandboxFixture): Promise<Array<{ id: number; email: string; role: string }>> {
  const r = await cli(fx, ['member', 'list', '-w', String(fx.sb.workspaceId), '--json', 'id,email,role']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('members against the sandbox', () => {
  const fx = useSandboxFixture();
  let ws: string;
  let bobId: number;
  beforeAll(() => {
    ws = String(fx.sb.workspaceId);
    bobId = fx.sb.admin.createUser({ email: 'bob@example.com', name: 'Bob Builder' }).id;
  });

  it('lists the seeded admin (piped: tab-separated)', async () => {
    const r = await cli(fx, ['member', 'list', '-w', ws]);
    expect(r).toEqual({ code: 0, stdout: '1\tAda Admin\tadmin@example.com\tadmin\n', stderr: '' });
  });

  it('reports the three add outcomes with --json', async () => {
    const added = await cli(fx, ['member', 'add', 'bob@example.com', '--role', 'user', '-w', ws, '--json']);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({ outcome: 'added', message: 'User has been successfully added to workspace.' });

    const again = await cli(fx, ['member', 'add', 'BOB@example.com', '--role', 'admin', '-w', ws, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ outcome: 'already_member', message: 'User is already in workspace.' });
    expect(again.stderr).toBe('');

    const invited = await cli(fx, ['member', 'add', 'carol@example.com', '--role', 'readonly', '-w', ws, '--json']);
    expect(invited.code).toBe(0);
    expect(JSON.parse(invited.stdout)).toEqual({ outcome: 'invited', message: 'Registration invitation email sent to user.' });
    expect(invited.stdout).not.toMatch(/token/i);

    expect(await members(fx)).toEqual([
      { id: 1, email: 'admin@example.com', role: 'admin' },
      { id: bobId, email: 'bob@example.com', role: 'user' },
    ]);
  });

  it('notes on stderr that an existing member keeps their role (piped: stdout empty)', async () => {
    const r = await cli(fx, ['member', 'add', 'bob@example.com', '--role', 'admin', '-w', ws]);
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: `bob@example.com is already a member of workspace ${ws}; nothing changed: their role (user) was not changed; to make it admin, run \`formctl member set-role -w ${ws} bob@example.com admin\`.\n`,
    });
  });

  it('changes a role by email and by id', async () => {
    const byEmail = await cli(fx, ['member', 'set-role', 'bob@example.com', 'readonly', '-w', ws]);
    expect(byEmail).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await members(fx)).find((m) => m.id === bobId)?.role).toBe('readonly');

    const byId = await cli(fx, ['member', 'set-role', String(bobId), 'user', '-w', ws, '--json']);
    expect(JSON.parse(byId.stdout)).toEqual({
      workspace_id: fx.sb.workspaceId,
      user_id: bobId,
      email: 'bob@example.com',
      role: 'user',
      changed: true,
      message: 'User role changed successfully.',
    });
    expect((await members(fx)).find((m) => m.id === bobId)?.role).toBe('user');

    // The service answers "changed" for the role a member already has; formctl says what happened.
    const same = await cli(fx, ['member', 'set-role', String(bobId), 'user', '-w', ws]);
    expect(same.code).toBe(0);
    expect(same.stdout).toBe('');
    expect(same.stderr).toMatch(/^note: Bob Builder \(bob@example\.com\) is already user in ".+"; nothing changed\.\n$/);
  });

  it("explains a non-admin member's 403 (exit 5)", async () => {
    const token = fx.sb.admin.createToken('bob@example.com', ['workspace-users-read', 'workspace-users-write', 'workspaces-read', 'workspaces-write']);
    const r = await cli(fx, ['member', 'add', 'dave@example.com', '--role', 'user', '-w', ws], token);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      `error: Only workspace admins can add users to this workspace. (HTTP 403, POST /open/workspaces/${ws}/users/add)\n` +
        `hint: Adding members needs the admin role in workspace ${ws}, and your role there is not admin. Ask an admin to do it, or to make you one with \`formctl member set-role\`.\n`,
    );
  });

  it('explains a token without the ability (exit 5)', async () => {
    const r = await cli(fx, ['member', 'add', 'dave@example.com', '--role', 'user', '-w', ws], fx.sb.tokens.readonly);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      `error: This action requires the workspace-users-write ability, which this token does not have. (HTTP 403, POST /open/workspaces/${ws}/users/add)\n` +
        'hint: Your token lacks the `workspace-users-write` ability (OpnForm servers check `workspaces-write`), which adding members needs. Create a token with it and run `formctl auth login`.\n',
    );
    const forms = await cli(fx, ['member', 'list', '-w', ws], fx.sb.tokens.forms);
    expect(forms.code).toBe(5);
    expect(forms.stderr).toContain('hint: Your token lacks the `workspace-users-read` ability');
  });

  it('explains a 403 for a workspace the caller does not belong to', async () => {
    const other = fx.sb.admin.createUser({ email: 'outsider@example.com' });
    const token = fx.sb.admin.createToken(other.email, ['workspace-users-read']);
    const r = await cli(fx, ['member', 'list', '-w', ws], token);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      `error: You are not a member of this workspace. (HTTP 403, GET /open/workspaces/${ws}/users)\n` +
        `hint: You are not a member of workspace ${ws}. Check the id with \`formctl workspace list\`.\n`,
    );
  });

  it('removes by email after --yes, and refuses without it', async () => {
    const refused = await cli(fx, ['member', 'remove', 'bob@example.com', '-w', ws]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`error: Remove bob@example.com from workspace ${ws}: refusing without confirmation.\nhint: Pass --yes to confirm.\n`);
    expect((await members(fx)).map((m) => m.email)).toContain('bob@example.com');

    const removed = await cli(fx, ['member', 'remove', 'bob@example.com', '-w', ws, '--yes', '--json']);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({
      workspace_id: fx.sb.workspaceId,
      user_id: bobId,
      email: 'bob@example.com',
      message: 'User removed from workspace successfully.',
    });
    expect((await members(fx)).map((m) => m.email)).toEqual(['admin@example.com']);

    const gone = await cli(fx, ['member', 'remove', 'bob@example.com', '-w', ws, '--yes']);
    expect(gone.code).toBe(6);
    expect(gone.stderr).toMatch(/^error: No member with email bob@example.com in workspace \d+\.\n/);

    const byId = await cli(fx, ['member', 'remove', String(bobId), '-w', ws, '--yes']);
    expect(byId.code).toBe(6);
    expect(byId.stderr).toMatch(
      new RegExp(`^error: User ${bobId} is not a member of ".+"\\.\\nhint: See its members with \`formctl member list -w ${ws}\`\\.\\n$`),
    );
  });
});

describe('the Community instance limit', () => {
  const fx = useSandboxFixture({ community: true });

  it('invites a second person, then refuses a third with the seat-limit explanation (exit 5)', async () => {
    const ws = String(fx.sb.workspaceId);
    const second = await cli(fx, ['member', 'add', 'second@example.com', '--role', 'user', '-w', ws, '--json']);
    expect(JSON.parse(second.stdout)).toEqual({ outcome: 'invited', message: 'Registration invitation email sent to user.' });

    const third = await cli(fx, ['member', 'add', 'third@example.com', '--role', 'user', '-w', ws]);
    expect(third.code).toBe(5);
    expect(third.stdout).toBe('');
    const [error, hint, rest] = third.stderr.split('\n');
    expect(error).toMatch(/^error: This Community instance has reached its 2-user limit .*\(HTTP 403, POST \/open\/workspaces\/\d+\/users\/add\)$/);
    expect(hint).toBe(
      'hint: This self-hosted Community instance allows 2 users in total, and that limit is reached; adding or inviting a new person needs an Enterprise licence. ' +
        'People who already have an account here do not use another seat, and cancelling an unused invite (`formctl invite list`, `formctl invite cancel`) may free one.',
    );
    expect(rest).toBe('');
  });
});

describe('bad input is caught before any request', () => {
  it.each([
    [
      ['member', 'add', 'not-an-email', '--role', 'user', '-w', '1'],
      'error: Invalid email address "not-an-email".\nhint: Pass an address such as alice@example.com.\n',
    ],
    [['member', 'add', 'a@b.co', '--role', 'owner', '-w', '1'], 'error: Unknown role "owner".\nhint: Accepted roles: admin, user, readonly.\n'],
    [['member', 'set-role', 'a@b.co', 'superuser', '-w', '1'], 'error: Unknown role "superuser".\nhint: Accepted roles: admin, user, readonly.\n'],
    [['member', 'remove', 'a@b', '-w', '1', '--yes'], 'error: Invalid email address "a@b".\nhint: Pass an address such as alice@example.com.\n'],
    [['invite', 'list', '--status', 'expired', '-w', '1'], 'error: Unknown invite status "expired".\nhint: Accepted statuses: pending, accepted.\n'],
  ])('%j → exit 2, nothing sent', async (args, stderr) => {
    const stub = await startStubServer((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    try {
      const r = await runFormctl(args, { env: { ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: 'tok' } });
      expect(r).toEqual({ code: 2, stdout: '', stderr });
      expect(stub.requests).toEqual([]);
    } finally {
      await stub.close();
    }
  });
});

describe.each(FLAVORS)('member add for an existing member, against the %s sandbox', (flavor) => {
  const fx = useSandboxFixture({ flavor });

  it('with the role they already have: says so, with no advice to set it; another role gets the set-role advice', async () => {
    const ws = String(fx.sb.workspaceId);
    expect((await cli(fx, ['member', 'add', 'bea@example.com', '--role', 'user', '-w', ws])).code).toBe(0);
    const same = await cli(fx, ['member', 'add', 'BEA@Example.com', '--role', 'user', '-w', ws]);
    expect(same).toEqual({ code: 0, stdout: '', stderr: `BEA@Example.com is already a member of workspace ${ws}, as user; nothing changed.\n` });
    const other = await cli(fx, ['member', 'add', 'BEA@Example.com', '--role', 'readonly', '-w', ws]);
    expect(other).toEqual({
      code: 0,
      stdout: '',
      stderr: `BEA@Example.com is already a member of workspace ${ws}; nothing changed: their role (user) was not changed; to make it readonly, run \`formctl member set-role -w ${ws} BEA@Example.com readonly\`.\n`,
    });
  });
});
