import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { inviteCancelRun } from '../../../src/commands/invite/cancel.js';
import { CancelledError, CliError } from '../../../src/errors.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { fakeIO } from '../../helpers/io.js';
import { runCli } from '../../helpers/run-cli.js';
import { useStubService } from '../../helpers/stub-service.js';

const INVITES = '/open/workspaces/7/invites';
const FUTURE = '2999-01-01T00:00:00.000Z';
const PAST = '2000-01-01T00:00:00.000Z';
const ROWS = [
  { id: 3, workspace_id: 7, email: 'carol@example.com', role: 'user', status: 'pending', valid_until: FUTURE, token: 'SECRET-INVITE-TOKEN' },
  { id: 4, workspace_id: 7, email: 'dan@example.com', role: 'admin', status: 'accepted', valid_until: FUTURE },
  { id: 5, workspace_id: 7, email: 'eve@example.com', role: 'readonly', status: 'pending', valid_until: PAST },
];

const serve = useStubService();

describe('invite list', () => {
  it('prints tab-separated rows when piped, never the invite token', async () => {
    const s = await serve([[`GET ${INVITES}`, [200, ROWS]]]);
    const r = await runCli(['invite', 'list', '-w', '7'], { url: s.url });
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        `3\tcarol@example.com\tuser\tpending\t${FUTURE}`,
        `4\tdan@example.com\tadmin\taccepted\t${FUTURE}`,
        `5\teve@example.com\treadonly\tpending\t${PAST}`,
        '',
      ].join('\n'),
    );
    expect(s.requests[0]!.url).toBe(INVITES);
  });

  it('filters by --status on the client, and --json keeps every field but the token', async () => {
    const s = await serve([[`GET ${INVITES}`, [200, ROWS]]]);
    const r = await runCli(['invite', 'list', '-w', '7', '--status', 'pending', '--json'], { url: s.url });
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('SECRET');
    expect(JSON.parse(r.out)).toEqual([
      { id: 3, workspace_id: 7, email: 'carol@example.com', role: 'user', status: 'pending', valid_until: FUTURE },
      { id: 5, workspace_id: 7, email: 'eve@example.com', role: 'readonly', status: 'pending', valid_until: PAST },
    ]);
  });

  it('marks expired pending invites in the table', async () => {
    const s = await serve([[`GET ${INVITES}`, [200, ROWS]]]);
    const r = await runCli(['invite', 'list', '-w', '7', '--status', 'pending'], { url: s.url, tty: true });
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+EMAIL\s+ROLE\s+STATUS\s+VALID UNTIL$/);
    expect(lines[1]).toMatch(/^3\s+carol@example\.com\s+user\s+pending\s+in \d+ years$/);
    expect(lines[2]).toMatch(/^5\s+eve@example\.com\s+readonly\s+pending \(expired\)\s+\d+ years ago$/);
  });

  it('says so when nothing matches (stderr on a TTY)', async () => {
    const s = await serve([[`GET ${INVITES}`, [200, []]]]);
    const r = await runCli(['invite', 'list', '-w', '7', '--status', 'accepted'], { url: s.url, tty: true });
    expect(r).toEqual({ code: 0, out: '', err: 'No accepted invites in workspace 7.\n' });
  });

  it('rejects an unknown --status before any request', async () => {
    const s = await serve([]);
    const r = await runCli(['invite', 'list', '-w', '7', '--status', 'expired'], { url: s.url });
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: Unknown invite status "expired".\nhint: Accepted statuses: pending, accepted.\n');
    expect(s.requests).toEqual([]);
  });

  it('explains a 403 for a token without workspaces-write', async () => {
    const s = await serve([[`GET ${INVITES}`, [403, { message: 'This action requires the workspaces-write ability, which this token does not have.' }]]]);
    const r = await runCli(['invite', 'list', '-w', '7'], { url: s.url });
    expect(r.code).toBe(5);
    expect(r.err.split('\n')[1]).toBe(
      'hint: Your token lacks the `workspaces-write` ability, which listing invites needs. Create a token with it and run `formctl auth login`.',
    );
  });
});

describe('invite resend', () => {
  it('an expired invite is not resent (the service would mail a link it refuses): exit 2, the way out, no POST', async () => {
    const s = await serve([[`GET ${INVITES}`, [200, ROWS]]]);
    const r = await runCli(['invite', 'resend', '5', '-w', '7'], { url: s.url });
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `error: Invite 5 (eve@example.com) expired at ${PAST}: resending it would mail a link the service refuses, and does not extend it.\n` +
        'hint: Cancel it and invite again: formctl invite cancel 5 -w 7 && formctl member add eve@example.com --role readonly -w 7\n',
    );
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${INVITES}`]);
  });

  it('an address from the service holding a line break or tab is shown escaped in the error and the hint', async () => {
    const s = await serve([[`GET ${INVITES}`, [200, [{ ...ROWS[2]!, email: 'eve@example.com\nerror: forged\t' }]]]]);
    const r = await runCli(['invite', 'resend', '5', '-w', '7'], { url: s.url });
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `error: Invite 5 (eve@example.com\\x0aerror: forged\\x09) expired at ${PAST}: resending it would mail a link the service refuses, and does not extend it.\n` +
        "hint: Cancel it and invite again: formctl invite cancel 5 -w 7 && formctl member add 'eve@example.com\\x0aerror: forged\\x09' --role readonly -w 7\n",
    );
  });

  it('a live invite is read, then resent', async () => {
    const s = await serve([
      [`GET ${INVITES}`, [200, ROWS]],
      [`POST ${INVITES}/3/resend`, [200, { message: 'Invite email resent successfully.' }]],
    ]);
    const r = await runCli(['invite', 'resend', '3', '-w', '7'], { url: s.url });
    expect(r.code).toBe(0);
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${INVITES}`, `POST ${INVITES}/3/resend`]);
  });

  it('posts to the resend path', async () => {
    const s = await serve([
      [`GET ${INVITES}`, [200, ROWS]],
      [`POST ${INVITES}/3/resend`, [200, { type: 'success', message: 'Invite email resent successfully.' }]],
    ]);
    const r = await runCli(['invite', 'resend', '3', '-w', '7'], { url: s.url, tty: true });
    expect(r.code).toBe(0);
    expect(r.out).toBe('✓ Resent invite 3 in workspace 7.\n');
    expect(s.requests[0]!.body).toBe('');
  });

  it('prints JSON', async () => {
    const s = await serve([
      [`GET ${INVITES}`, [200, ROWS]],
      [`POST ${INVITES}/3/resend`, [200, { message: 'Invite email resent successfully.' }]],
    ]);
    const r = await runCli(['invite', 'resend', '3', '-w', '7', '--json'], { url: s.url });
    expect(JSON.parse(r.out)).toEqual({ workspace_id: 7, invite_id: 3, message: 'Invite email resent successfully.' });
  });

  it('maps "Invite not found" (400) to exit 6', async () => {
    const s = await serve([
      [`GET ${INVITES}`, [200, ROWS]],
      [`POST ${INVITES}/99/resend`, [400, { type: 'error', success: false, message: 'Invite not found for this workspace.' }]],
    ]);
    const r = await runCli(['invite', 'resend', '99', '-w', '7'], { url: s.url });
    expect(r.code).toBe(6);
    expect(r.err).toBe(
      'error: Invite not found for this workspace. (HTTP 400, POST /open/workspaces/7/invites/99/resend)\n' +
        'hint: Invite 99 is not an invite of workspace 7. See the invites of workspace 7 with `formctl invite list -w 7`.\n',
    );
  });

  it('explains an accepted invite (exit 7)', async () => {
    const s = await serve([
      [`GET ${INVITES}`, [200, ROWS]],
      [`POST ${INVITES}/4/resend`, [400, { message: 'Invite already accepted.' }]],
    ]);
    const r = await runCli(['invite', 'resend', '4', '-w', '7'], { url: s.url });
    expect(r.code).toBe(7);
    expect(r.err.split('\n')[1]).toBe('hint: Invite 4 was accepted: that person is a member now (`formctl member list -w 7`).');
  });

  it('rejects a non-numeric id before any request', async () => {
    const s = await serve([]);
    const r = await runCli(['invite', 'resend', 'abc', '-w', '7'], { url: s.url });
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'error: invite id must be a whole number from 1 to 9007199254740991, got "abc".\nhint: An invite is named by its id, not its address: `formctl invite list` shows the ids.\n',
    );
    expect(s.requests).toEqual([]);
  });
});

describe('invite cancel', () => {
  it('deletes with --yes', async () => {
    const s = await serve([[`DELETE ${INVITES}/3/cancel`, [200, { type: 'success', message: 'Invite deleted successfully.' }]]]);
    const r = await runCli(['invite', 'cancel', '3', '-w', '7', '--yes'], { url: s.url, tty: true });
    expect(r.code).toBe(0);
    expect(r.out).toBe('✓ Cancelled invite 3 in workspace 7.\n');
  });

  it('on a terminal asks naming the invited address and the workspace, never only an id', async () => {
    const s = await serve([
      [`GET ${INVITES}`, [200, ROWS]],
      ['GET /open/workspaces', [200, [{ id: 7, name: 'Ops' }]]],
    ]);
    const { io } = fakeIO({ tty: true, canPrompt: true });
    const asked: string[] = [];
    const prompter = { confirm: async (o: { message: string }) => (asked.push(o.message), false) } as unknown as Prompter;
    const client = new ApiClient({ baseUrl: s.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const err = await inviteCancelRun({
        io,
        api: async () => client,
        prompter: () => prompter,
        resolveWorkspace: async (w) => w!,
        workspace: 7,
        id: 3,
      }).catch((e) => e);
      expect(err).toBeInstanceOf(CancelledError);
    } finally {
      await client.close();
    }
    expect(asked).toEqual(['Cancel the invite of carol@example.com to "Ops"?']);
    expect(s.requests.map((q) => q.method)).toEqual(['GET', 'GET']);
  });

  it('an id the invite list does not hold fails with exit 6 before anyone is asked, and nothing is cancelled', async () => {
    const s = await serve([
      [`GET ${INVITES}`, [200, ROWS]],
      ['GET /open/workspaces', [200, [{ id: 7, name: 'Ops' }]]],
    ]);
    const { io } = fakeIO({ tty: true, canPrompt: true });
    const asked: string[] = [];
    const prompter = { confirm: async (o: { message: string }) => (asked.push(o.message), true) } as unknown as Prompter;
    const client = new ApiClient({ baseUrl: s.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const err = await inviteCancelRun({
        io,
        api: async () => client,
        prompter: () => prompter,
        resolveWorkspace: async (w) => w!,
        workspace: 7,
        id: 9,
      }).catch((e) => e);
      expect(err).toBeInstanceOf(CliError);
      expect(err.exitCode).toBe(6);
      expect(err.message).toBe('"Ops" (workspace 7) has no invite 9.');
      expect(err.hint).toBe('Check the invite id: formctl invite list -w 7');
    } finally {
      await client.close();
    }
    expect(asked).toEqual([]);
    expect(s.requests.map((q) => q.method)).toEqual(['GET', 'GET']);
  });

  it('an invite list it may not read (403) still leaves the prompt, with the bare id', async () => {
    const s = await serve([
      [`GET ${INVITES}`, [403, { message: 'Forbidden.' }]],
      ['GET /open/workspaces', [200, [{ id: 7, name: 'Ops' }]]],
    ]);
    const { io } = fakeIO({ tty: true, canPrompt: true });
    const asked: string[] = [];
    const prompter = { confirm: async (o: { message: string }) => (asked.push(o.message), false) } as unknown as Prompter;
    const client = new ApiClient({ baseUrl: s.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      expect(
        await inviteCancelRun({ io, api: async () => client, prompter: () => prompter, resolveWorkspace: async (w) => w!, workspace: 7, id: 9 }).catch(
          (e) => e,
        ),
      ).toBeInstanceOf(CancelledError);
    } finally {
      await client.close();
    }
    expect(asked).toEqual(['Cancel invite 9 to "Ops"?']);
  });

  it('refuses without --yes when it cannot prompt, with no request', async () => {
    const s = await serve([]);
    const r = await runCli(['invite', 'cancel', '3', '-w', '7'], { url: s.url });
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: Cancel invite 3 in workspace 7: refusing without confirmation.\nhint: Pass --yes to confirm.\n');
    expect(s.requests).toEqual([]);
  });

  it("explains a non-admin's 403", async () => {
    const s = await serve([[`DELETE ${INVITES}/3/cancel`, [403, { message: 'Only workspace admins can cancel invites.' }]]]);
    const r = await runCli(['invite', 'cancel', '3', '-w', '7', '--yes'], { url: s.url });
    expect(r.code).toBe(5);
    expect(r.err).toBe(
      'error: Only workspace admins can cancel invites. (HTTP 403, DELETE /open/workspaces/7/invites/3/cancel)\n' +
        'hint: Cancelling invites needs the admin role in workspace 7, and your role there is not admin. Ask an admin to do it, or to make you one with `formctl member set-role`.\n',
    );
  });
});
