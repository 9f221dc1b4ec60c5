import { beforeAll, describe, expect, it } from 'vitest';
import { type RunResult, runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// The built binary against the in-process sandbox: invites made by `member add`, then listed,
// resent, accepted and cancelled.

const fx = useSandboxFixture();
let ws: string;
beforeAll(() => {
  ws = String(fx.sb.workspaceId);
});

function cli(args: string[], token?: string): Promise<RunResult> {
  return runFormctl(args, { env: { ...fx.env, ...(token ? { FORMCTL_TOKEN: token } : {}) } });
}

async function invites(status?: string): Promise<Array<Record<string, unknown>>> {
  const r = await cli(['invite', 'list', '-w', ws, '--json', ...(status ? ['--status', status] : [])]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('invites against the sandbox', () => {
  it('lists, resends, accepts and cancels invites', async () => {
    for (const email of ['carol@example.com', 'dan@example.com']) {
      const r = await cli(['member', 'add', email, '--role', 'user', '-w', ws, '--json']);
      expect(JSON.parse(r.stdout).outcome).toBe('invited');
    }
    const all = await invites();
    expect(all.map((i) => [i.email, i.role, i.status])).toEqual([
      ['carol@example.com', 'user', 'pending'],
      ['dan@example.com', 'user', 'pending'],
    ]);
    expect(Object.keys(all[0]!)).not.toContain('token');
    const [carol, dan] = all.map((i) => i.id as number);

    const piped = await cli(['invite', 'list', '-w', ws, '--status', 'pending']);
    expect(piped.stdout.split('\n').map((l) => l.split('\t').slice(0, 4).join(' '))).toEqual([
      `${carol} carol@example.com user pending`,
      `${dan} dan@example.com user pending`,
      '',
    ]);

    // Adding her again names the pending invite, so the hint is a command to copy, not a placeholder.
    const again = await cli(['member', 'add', 'carol@example.com', '--role', 'user', '-w', ws]);
    expect(again.code).toBe(7);
    expect(again.stderr).toContain(`hint: An invite to carol@example.com is already pending. Resend it with \`formctl invite resend -w ${ws} ${carol}\`.\n`);

    const resent = await cli(['invite', 'resend', String(carol), '-w', ws, '--json']);
    expect(resent.code).toBe(0);
    expect(JSON.parse(resent.stdout)).toEqual({ workspace_id: fx.sb.workspaceId, invite_id: carol, message: 'Invite email resent successfully.' });

    fx.sb.admin.acceptInvite('dan@example.com');
    expect((await invites('accepted')).map((i) => i.email)).toEqual(['dan@example.com']);
    const acceptedResend = await cli(['invite', 'resend', String(dan), '-w', ws]);
    expect(acceptedResend.code).toBe(7);
    expect(acceptedResend.stderr).toBe(
      `error: Invite already accepted. (HTTP 400, POST /open/workspaces/${ws}/invites/${dan}/resend)\n` +
        `hint: Invite ${dan} was accepted: that person is a member now (\`formctl member list -w ${ws}\`).\n`,
    );

    const refused = await cli(['invite', 'cancel', String(carol), '-w', ws]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`error: Cancel invite ${carol} in workspace ${ws}: refusing without confirmation.\nhint: Pass --yes to confirm.\n`);

    const cancelled = await cli(['invite', 'cancel', String(carol), '-w', ws, '--yes']);
    expect(cancelled).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await invites('pending')).map((i) => i.email)).toEqual([]);

    const missing = await cli(['invite', 'cancel', String(carol), '-w', ws, '--yes']);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toBe(
      `error: Invite not found for this workspace. (HTTP 400, DELETE /open/workspaces/${ws}/invites/${carol}/cancel)\n` +
        `hint: Invite ${carol} is not an invite of workspace ${ws}. See the invites of workspace ${ws} with \`formctl invite list -w ${ws}\`.\n`,
    );
  });

  it('explains a 403 for a token without workspaces-write (exit 5)', async () => {
    const r = await cli(['invite', 'list', '-w', ws], fx.sb.tokens.readonly);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      `error: This action requires the workspaces-write ability, which this token does not have. (HTTP 403, GET /open/workspaces/${ws}/invites)\n` +
        'hint: Your token lacks the `workspaces-write` ability, which listing invites needs. Create a token with it and run `formctl auth login`.\n',
    );
  });

  it("explains a non-admin's 403 on resend (exit 5)", async () => {
    const eve = fx.sb.admin.createUser({ email: 'eve@example.com' });
    const add = await cli(['member', 'add', eve.email, '--role', 'user', '-w', ws, '--json']);
    expect(JSON.parse(add.stdout).outcome).toBe('added');
    const token = fx.sb.admin.createToken(eve.email, ['workspaces-read', 'workspaces-write', 'workspace-users-read', 'workspace-users-write']);
    const r = await cli(['invite', 'resend', '1', '-w', ws], token);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      `error: Only workspace admins can resend invites. (HTTP 403, POST /open/workspaces/${ws}/invites/1/resend)\n` +
        `hint: Resending invites needs the admin role in workspace ${ws}, and your role there is not admin. Ask an admin to do it, or to make you one with \`formctl member set-role\`.\n`,
    );
  });
});
