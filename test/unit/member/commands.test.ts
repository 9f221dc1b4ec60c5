import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { memberAddRun } from '../../../src/commands/member/add.js';
import { memberRemoveRun } from '../../../src/commands/member/remove.js';
import { CancelledError } from '../../../src/errors.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { fakeIO } from '../../helpers/io.js';
import { runCli } from '../../helpers/run-cli.js';
import { type Reply, type Route, useStubService } from '../../helpers/stub-service.js';

const USERS = '/open/workspaces/7/users';
// One member in the spec's shape, one in the deployed shape (role under pivot).
const MEMBERS = [
  { id: 1, name: 'Ada Admin', email: 'admin@example.com', role: 'admin' },
  { id: 5, name: 'Bob Builder', email: 'Bob@Example.com', pivot: { workspace_id: 7, user_id: 5, role: 'readonly' }, email_verified_at: null },
];

const serve = useStubService();

describe('member list', () => {
  it('prints a table on a TTY, with the role read from pivot.role too', async () => {
    const s = await serve([[`GET ${USERS}`, [200, MEMBERS]]]);
    const r = await runCli(['member', 'list', '-w', '7'], { url: s.url, tty: true });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      ['ID  NAME         EMAIL              ROLE', '1   Ada Admin    admin@example.com  admin', '5   Bob Builder  Bob@Example.com    readonly', ''].join('\n'),
    );
    expect(s.requests[0]!.headers.authorization).toBe('Bearer test-token');
  });

  it('prints tab-separated rows when piped', async () => {
    const s = await serve([[`GET ${USERS}`, [200, MEMBERS]]]);
    const r = await runCli(['member', 'list', '-w', '7'], { url: s.url });
    expect(r.out).toBe('1\tAda Admin\tadmin@example.com\tadmin\n5\tBob Builder\tBob@Example.com\treadonly\n');
  });

  it('prints chosen JSON fields', async () => {
    const s = await serve([[`GET ${USERS}`, [200, MEMBERS]]]);
    const r = await runCli(['member', 'list', '-w', '7', '--json', 'email,role'], { url: s.url });
    expect(JSON.parse(r.out)).toEqual([
      { email: 'admin@example.com', role: 'admin' },
      { email: 'Bob@Example.com', role: 'readonly' },
    ]);
  });

  it('takes the workspace from FORMCTL_WORKSPACE', async () => {
    const s = await serve([[`GET ${USERS}`, [200, []]]]);
    const r = await runCli(['member', 'list', '--json'], { url: s.url, env: { FORMCTL_WORKSPACE: '7' } });
    expect(r.code).toBe(0);
    expect(r.out).toBe('[]\n');
  });

  it('explains a 403 for a token without workspace-users-read', async () => {
    const s = await serve([[`GET ${USERS}`, [403, { message: 'This action requires the workspace-users-read ability, which this token does not have.' }]]]);
    const r = await runCli(['member', 'list', '-w', '7'], { url: s.url });
    expect(r.code).toBe(5);
    expect(r.err).toBe(
      'error: This action requires the workspace-users-read ability, which this token does not have. (HTTP 403, GET /open/workspaces/7/users)\n' +
        'hint: Your token lacks the `workspace-users-read` ability (OpnForm servers check `workspaces-read`), which listing members needs. Create a token with it and run `formctl auth login`.\n',
    );
  });
});

describe('member add', () => {
  const ADD = `POST ${USERS}/add`;

  it.each([
    ['added', 'User has been successfully added to workspace.', '✓ Added carol@example.com to workspace 7 as user.\n', ''],
    [
      'invited',
      'Registration invitation email sent to user.',
      '✓ Invited carol@example.com to workspace 7 as user: no account exists yet, so an invitation email was sent.\n',
      '',
    ],
    [
      'already_member',
      'User is already in workspace.',
      '✓ bob@example.com is already a member of workspace 7; nothing changed.\n',
      'note: their role (readonly) was not changed; to make it user, run `formctl member set-role -w 7 bob@example.com user`.\n',
    ],
  ])('reports "%s" on a TTY', async (outcome, message, out, err) => {
    const email = outcome === 'already_member' ? 'bob@example.com' : 'carol@example.com';
    const list: Route[] = outcome === 'already_member' ? [[`GET ${USERS}`, [200, MEMBERS]]] : [];
    const s = await serve([[ADD, [200, { type: 'success', message }]], ...list]);
    const r = await runCli(['member', 'add', email, '--role', 'user', '-w', '7'], { url: s.url, tty: true });
    expect(r.code).toBe(0);
    expect(r.out).toBe(out);
    expect(r.err).toBe(err);
    expect(JSON.parse(s.requests[0]!.body)).toEqual({ email, role: 'user' });
    expect(s.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it.each([
    ['User has been successfully added to workspace.', 'added'],
    ['Registration invitation email sent to user.', 'invited'],
    ['User is already in workspace.', 'already_member'],
  ])('prints {outcome, message} with --json for %j', async (message, outcome) => {
    const s = await serve([[ADD, [200, { type: 'success', message }]]]);
    const r = await runCli(['member', 'add', 'carol@example.com', '--role', 'admin', '-w', '7', '--json'], { url: s.url });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ outcome, message });
  });

  it('piped: nothing on stdout, and one line on stderr saying which of the three outcomes happened', async () => {
    const s = await serve([[ADD, [200, { message: 'User has been successfully added to workspace.' }]]]);
    const r = await runCli(['member', 'add', 'carol@example.com', '--role', 'readonly', '-w', '7'], { url: s.url });
    expect(r).toEqual({ code: 0, out: '', err: 'Added carol@example.com to workspace 7 as readonly.\n' });
    const invited = await serve([[ADD, [200, { message: 'Registration invitation email sent to user.' }]]]);
    const i = await runCli(['member', 'add', 'dan@example.com', '--role', 'user', '-w', '7'], { url: invited.url });
    expect(i.err).toBe('Invited dan@example.com to workspace 7 as user: no account exists yet, so an invitation email was sent.\n');
    const member = await serve([
      [ADD, [200, { message: 'User is already in workspace.' }]],
      [`GET ${USERS}`, [500, { message: 'down' }]],
    ]);
    const m = await runCli(['member', 'add', 'ada@example.com', '--role', 'admin', '-w', '7'], { url: member.url });
    // The member list could not be read: the role is not known, so the advice stays.
    expect(m.err).toBe(
      'ada@example.com is already a member of workspace 7; nothing changed: their role was not changed; to make it admin, run `formctl member set-role -w 7 ada@example.com admin`.\n',
    );
    const same = await serve([
      [ADD, [200, { message: 'User is already in workspace.' }]],
      [`GET ${USERS}`, [200, MEMBERS]],
    ]);
    const a = await runCli(['member', 'add', 'BOB@example.com', '--role', 'readonly', '-w', '7'], { url: same.url });
    expect(a).toEqual({ code: 0, out: '', err: 'BOB@example.com is already a member of workspace 7, as readonly; nothing changed.\n' });
  });

  it('settles an unrecognised success text from the member list', async () => {
    const s = await serve([
      [ADD, [200, { message: 'OK' }]],
      [`GET ${USERS}`, [200, MEMBERS]],
    ]);
    const r = await runCli(['member', 'add', 'bob@example.com', '--role', 'user', '-w', '7', '--json'], { url: s.url });
    expect(JSON.parse(r.out)).toEqual({ outcome: 'added', message: 'OK' });
  });

  it('exits 1 without guessing when the answer is unreadable and the member list fails', async () => {
    const s = await serve([
      [ADD, [200, { message: 'OK' }]],
      [`GET ${USERS}`, [403, { message: 'This action is unauthorized.' }]],
    ]);
    const r = await runCli(['member', 'add', 'zoe@example.com', '--role', 'user', '-w', '7', '--json'], { url: s.url });
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      'error: The server accepted the request but its answer ("OK") does not say whether zoe@example.com was added or invited.\n' +
        'hint: Check with `formctl member list -w 7` and `formctl invite list -w 7`; do not retry blindly.\n',
    );
  });

  it.each([
    [
      ['member', 'add', 'not-an-email', '--role', 'user', '-w', '7'],
      'error: Invalid email address "not-an-email".\nhint: Pass an address such as alice@example.com.\n',
    ],
    [
      ['member', 'add', 'carol@example', '--role', 'user', '-w', '7'],
      'error: Invalid email address "carol@example".\nhint: Pass an address such as alice@example.com.\n',
    ],
    [['member', 'add', 'carol@example.com', '--role', 'owner', '-w', '7'], 'error: Unknown role "owner".\nhint: Accepted roles: admin, user, readonly.\n'],
    [
      ['member', 'add', 'carol@example.com', '-w', '7'],
      'error: Missing --role.\nhint: Pass --role admin|user|readonly (prompts are off: not a terminal, CI, or --no-input).\n',
    ],
    [
      ['member', 'add', '--role', 'user', '-w', '7'],
      'error: Missing <email> argument.\nhint: Pass the email address of the person to add as <email> (prompts are off: not a terminal, CI, or --no-input).\n',
    ],
    // The missing argument is named before any workspace is looked for.
    [
      ['member', 'add'],
      'error: Missing <email> argument.\nhint: Pass the email address of the person to add as <email> (prompts are off: not a terminal, CI, or --no-input).\n',
    ],
    [['member', 'set-role', '5', 'owner', '-w', '7'], 'error: Unknown role "owner".\nhint: Accepted roles: admin, user, readonly.\n'],
    [
      ['member', 'set-role', 'bob', 'user', '-w', '7'],
      'error: Expected a numeric user id or an email address, got "bob".\nhint: See ids and emails with `formctl member list`.\n',
    ],
    [
      ['member', 'remove', 'bob@example', '-w', '7', '--yes'],
      'error: Invalid email address "bob@example".\nhint: Pass an address such as alice@example.com.\n',
    ],
  ])('rejects bad input before any request: %j', async (args, err) => {
    const s = await serve([]);
    const r = await runCli(args, { url: s.url });
    expect(r.code).toBe(2);
    expect(r.err).toBe(err);
    expect(r.out).toBe('');
    expect(s.requests).toEqual([]);
  });

  it('explains the Community seat limit (exit 5)', async () => {
    const msg =
      'This Community instance has reached its 2-user limit (Community limit: 2 users in total across the instance). Adding or inviting more users requires an Enterprise licence.';
    const s = await serve([[ADD, [403, { message: msg }]]]);
    const r = await runCli(['member', 'add', 'carol@example.com', '--role', 'user', '-w', '7'], { url: s.url });
    expect(r.code).toBe(5);
    const [error, hint] = r.err.split('\n');
    expect(error).toBe(`error: ${msg} (HTTP 403, POST /open/workspaces/7/users/add)`);
    expect(hint).toMatch(
      /^hint: This self-hosted Community instance allows 2 users in total, and that limit is reached; adding or inviting a new person needs an Enterprise licence\./,
    );
  });

  it('run bare on a terminal asks for the email (re-asking until it is valid), then the role and the workspace', async () => {
    const s = await serve([[ADD, [200, { type: 'success', message: 'Registration invitation email sent to user.' }]]]);
    const fio = fakeIO({ tty: true, canPrompt: true });
    const asked: string[] = [];
    const rejected: Array<string | true> = [];
    const prompter = {
      async input(o: { message: string; flag: string; validate: (v: string) => string | true }) {
        asked.push(`${o.message} [${o.flag}]`);
        rejected.push(o.validate('carol@example'));
        expect(o.validate(' carol@example.com ')).toBe(true);
        return ' carol@example.com ';
      },
      async select(o: { message: string; flag: string; choices: Array<{ value: string }> }) {
        asked.push(`${o.message} [${o.flag}]: ${o.choices.map((c) => c.value).join('|')}`);
        return 'readonly';
      },
    } as unknown as Prompter;
    const client = new ApiClient({ baseUrl: s.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      await memberAddRun({
        io: fio.io,
        api: async () => client,
        prompter: () => prompter,
        resolveWorkspace: async (w) => (asked.push(`workspace ${w}`), 7),
      });
    } finally {
      await client.close();
    }
    expect(asked).toEqual(['Email address [<email>]', 'Role in the workspace [--role]: user|readonly|admin', 'workspace undefined']);
    expect(rejected).toEqual(['Enter an address such as alice@example.com.']);
    expect(JSON.parse(s.requests[0]!.body)).toEqual({ email: 'carol@example.com', role: 'readonly' });
    expect(fio.out()).toBe('✓ Invited carol@example.com to workspace 7 as readonly: no account exists yet, so an invitation email was sent.\n');
  });

  it("explains a non-admin's 403", async () => {
    const s = await serve([[ADD, [403, { message: 'You need to be an admin of this workspace to do this.' }]]]);
    const r = await runCli(['member', 'add', 'carol@example.com', '--role', 'user', '-w', '7'], { url: s.url });
    expect(r.code).toBe(5);
    expect(r.err).toBe(
      'error: You need to be an admin of this workspace to do this. (HTTP 403, POST /open/workspaces/7/users/add)\n' +
        'hint: Adding members needs the admin role in workspace 7 and a token with the `workspace-users-write` ability (OpnForm servers check `workspaces-write`). OpnForm servers say this also to an admin whose token lacks the `workspaces-write` ability. If you are an admin of workspace 7 (`formctl member list`), create a token with `workspaces-write` and run `formctl auth login`; otherwise ask an admin to do it, or to make you one.\n',
    );
  });

  it("lists every cause when the server's 403 text says nothing", async () => {
    const s = await serve([[ADD, [403, { message: 'This action is unauthorized.' }]]]);
    const r = await runCli(['member', 'add', 'carol@example.com', '--role', 'user', '-w', '7'], { url: s.url });
    expect(r.code).toBe(5);
    expect(r.err).toContain(
      'hint: Adding members needs a token with the `workspace-users-write` ability (OpnForm servers check `workspaces-write`) and the admin role in workspace 7; on a self-hosted Community instance it is also refused once 2 users exist.',
    );
  });

  it('points to the exact invite resend command when an invite is already pending (deployed 400)', async () => {
    const s = await serve([
      [ADD, [400, { type: 'error', message: 'User has already been invited.' }]],
      [
        'GET /open/workspaces/7/invites',
        [
          200,
          [
            { id: 2, email: 'carol@example.com', role: 'user', status: 'accepted', valid_until: null },
            { id: 3, email: 'dan@example.com', role: 'user', status: 'pending', valid_until: null },
            // An expired invite to the same address comes first: the live one is named.
            { id: 1, email: 'carol@example.com', role: 'user', status: 'pending', valid_until: '2000-01-01T00:00:00.000Z' },
            { id: 4, email: 'Carol@Example.com', role: 'user', status: 'pending', valid_until: '2999-01-01T00:00:00.000Z' },
          ],
        ],
      ],
    ]);
    const r = await runCli(['member', 'add', 'carol@example.com', '--role', 'user', '-w', '7'], { url: s.url });
    expect(r.code).toBe(7);
    expect(r.err).toBe(
      'error: User has already been invited. (HTTP 400, POST /open/workspaces/7/users/add)\n' +
        'hint: An invite to carol@example.com is already pending. Resend it with `formctl invite resend -w 7 4`.\n',
    );
  });

  it('keeps the <invite-id> placeholder when the invite list cannot be read', async () => {
    const s = await serve([
      [ADD, [400, { type: 'error', message: 'User has already been invited.' }]],
      ['GET /open/workspaces/7/invites', [403, { message: 'This action is unauthorized.' }]],
    ]);
    const r = await runCli(['member', 'add', 'carol@example.com', '--role', 'user', '-w', '7'], { url: s.url });
    expect(r.code).toBe(7);
    expect(r.err).toBe(
      'error: User has already been invited. (HTTP 400, POST /open/workspaces/7/users/add)\n' +
        'hint: An invite to carol@example.com is already pending. Resend it with `formctl invite resend -w 7 <invite-id>` (ids: `formctl invite list -w 7`).\n',
    );
  });
});

describe('member remove', () => {
  const WS = ['GET /open/workspaces', [200, [{ id: 7, name: 'Ops', icon: '' }]]] as [string, Reply];

  it('reads the member list, resolves an email (case-insensitive), then removes by id, naming person and workspace', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, MEMBERS]],
      WS,
      [`DELETE ${USERS}/5/remove`, [200, { type: 'success', message: 'User removed from workspace successfully.' }]],
    ]);
    const r = await runCli(['member', 'remove', 'bob@example.com', '-w', '7', '--yes'], { url: s.url, tty: true });
    expect(r.code).toBe(0);
    expect(r.out).toBe('✓ Removed Bob Builder (Bob@Example.com) from "Ops".\n');
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${USERS}`, 'GET /open/workspaces', `DELETE ${USERS}/5/remove`]);
  });

  it('removes by id once the list shows a member, and accepts a 204', async () => {
    const s = await serve([[`GET ${USERS}`, [200, MEMBERS]], WS, [`DELETE ${USERS}/5/remove`, [204]]]);
    const r = await runCli(['member', 'rm', '5', '-w', '7', '--yes', '--json'], { url: s.url });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ workspace_id: 7, user_id: 5, email: 'Bob@Example.com', message: 'User removed from workspace.' });
  });

  it('fails with exit 6 for an email or an id that is not a member, before any delete', async () => {
    // An unknown email is told from the member list alone; the workspace's name is read for an unknown id's message.
    const s = await serve([[`GET ${USERS}`, [200, MEMBERS]], [`GET ${USERS}`, [200, MEMBERS]], WS]);
    const r = await runCli(['member', 'remove', 'carol@example.com', '-w', '7', '--yes'], { url: s.url });
    expect(r.code).toBe(6);
    expect(r.err).toBe(
      'error: No member with email carol@example.com in workspace 7.\n' +
        'hint: See `formctl member list -w 7`; people invited but not registered yet are in `formctl invite list -w 7`.\n',
    );
    const byId = await runCli(['member', 'remove', '9', '-w', '7', '--yes'], { url: s.url });
    expect(byId.code).toBe(6);
    expect(byId.err).toBe('error: User 9 is not a member of "Ops".\nhint: See its members with `formctl member list -w 7`.\n');
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${USERS}`, `GET ${USERS}`, 'GET /open/workspaces']);
  });

  it('refuses without --yes when it cannot prompt, before any request', async () => {
    const s = await serve([]);
    const r = await runCli(['member', 'remove', 'bob@example.com', '-w', '7'], { url: s.url });
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: Remove bob@example.com from workspace 7: refusing without confirmation.\nhint: Pass --yes to confirm.\n');
    expect(s.requests).toEqual([]);
  });

  it('asks on a terminal, naming the person and the workspace, and stops on "no"', async () => {
    const s = await serve([[`GET ${USERS}`, [200, MEMBERS]], WS, ['GET /external/zapier/validate', [200, { name: 'Ada', email: 'ada@example.com' }]]]);
    const { io } = fakeIO({ tty: true, canPrompt: true });
    const asked: string[] = [];
    const prompter = { confirm: async (o: { message: string }) => (asked.push(o.message), false) } as unknown as Prompter;
    const client = new ApiClient({ baseUrl: s.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      await expect(
        memberRemoveRun({ io, api: async () => client, prompter: () => prompter, resolveWorkspace: async (w) => w!, workspace: 7, member: 'bob@example.com' }),
      ).rejects.toBeInstanceOf(CancelledError);
    } finally {
      await client.close();
    }
    expect(asked).toEqual(['Remove Bob Builder (Bob@Example.com) from "Ops"?']);
    expect(s.requests.map((q) => q.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it("a non-admin's refused removal of themselves names `workspace leave` (who they are read only then)", async () => {
    const refused: Reply = [403, { message: 'This action is unauthorized.' }];
    const s = await serve([
      [`GET ${USERS}`, [200, MEMBERS]],
      WS,
      [`DELETE ${USERS}/5/remove`, refused],
      ['GET /external/zapier/validate', [200, { name: 'Bob', email: 'bob@example.com' }]],
    ]);
    const r = await runCli(['member', 'remove', '5', '-w', '7', '--yes'], { url: s.url });
    expect(r.code).toBe(5);
    expect(r.err).toBe(
      'error: This action is unauthorized. (HTTP 403, DELETE /open/workspaces/7/users/5/remove)\n' +
        'hint: Only an admin of workspace 7 removes members, and you are not one there; to leave it yourself, run `formctl workspace leave 7`.\n',
    );
    // Someone else's removal, or an admin's own (the token's abilities are the cause then): the usual hint.
    const twoAdmins = [MEMBERS[0]!, { ...MEMBERS[1]!, pivot: { role: 'admin' } }];
    for (const [who, target] of [
      ['admin@example.com', '5'],
      ['admin@example.com', '1'],
    ]) {
      const other = await serve([
        [`GET ${USERS}`, [200, twoAdmins]],
        WS,
        [`DELETE ${USERS}/${target}/remove`, refused],
        ['GET /external/zapier/validate', [200, { name: 'X', email: who }]],
      ]);
      const o = await runCli(['member', 'remove', target!, '-w', '7', '--yes'], { url: other.url });
      expect(o.code).toBe(5);
      expect(o.err).not.toContain('workspace leave');
      expect(o.err).toContain('hint: Removing members needs a token with');
    }
  });

  it('names the member list on a 404', async () => {
    const s = await serve([[`GET ${USERS}`, [200, MEMBERS]], WS, [`DELETE ${USERS}/5/remove`, [404, { message: '' }]]]);
    const r = await runCli(['member', 'remove', '5', '-w', '7', '--yes'], { url: s.url });
    expect(r.code).toBe(6);
    expect(r.err).toBe(
      'error: Not found. (HTTP 404, DELETE /open/workspaces/7/users/5/remove)\n' +
        'hint: User 5 is not a member of workspace 7, or the workspace does not exist. See `formctl member list -w 7`.\n',
    );
  });
});

describe('member set-role', () => {
  it('names the member list on a 404, as remove does', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, MEMBERS]],
      [`PUT ${USERS}/5/update-role`, [404, { message: '' }]],
    ]);
    const r = await runCli(['member', 'set-role', '5', 'admin', '-w', '7'], { url: s.url });
    expect(r.err).toBe(
      'error: Not found. (HTTP 404, PUT /open/workspaces/7/users/5/update-role)\n' +
        'hint: User 5 is not a member of workspace 7, or the workspace does not exist. See `formctl member list -w 7`.\n',
    );
    expect(r.code).toBe(6);
  });

  it('changes a role by email, naming the member in sentence case', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, MEMBERS]],
      ['GET /open/workspaces', [200, [{ id: 7, name: 'Ops' }]]],
      [`PUT ${USERS}/5/update-role`, [200, { type: 'success', message: 'User role changed successfully.' }]],
    ]);
    const r = await runCli(['member', 'set-role', 'bob@example.com', 'USER', '-w', '7'], { url: s.url, tty: true });
    expect(r.code).toBe(0);
    expect(r.out).toBe('✓ Bob Builder (Bob@Example.com) is now user in "Ops".\n');
    expect(r.err).toBe('');
    expect(JSON.parse(s.requests[2]!.body)).toEqual({ role: 'user' });
  });

  it('changes a role by id, with --json: the member list fills in the email and whether it changed', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, MEMBERS]],
      [`PUT ${USERS}/5/update-role`, [200, { message: 'User role changed successfully.' }]],
    ]);
    const r = await runCli(['member', 'set-role', '5', 'admin', '-w', '7', '--json'], { url: s.url });
    expect(JSON.parse(r.out)).toEqual({
      workspace_id: 7,
      user_id: 5,
      email: 'Bob@Example.com',
      role: 'admin',
      changed: true,
      message: 'User role changed successfully.',
    });
    expect(JSON.parse(s.requests[1]!.body)).toEqual({ role: 'admin' });
  });

  it('says "nothing changed" when the member already had the role (the service answers "changed" regardless)', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, MEMBERS]],
      [`PUT ${USERS}/1/update-role`, [200, { message: 'User role changed successfully.' }]],
    ]);
    const r = await runCli(['member', 'set-role', 'admin@example.com', 'admin', '-w', '7'], { url: s.url, tty: true });
    expect(r).toEqual({ code: 0, out: '', err: 'note: Ada Admin (admin@example.com) is already admin in workspace 7; nothing changed.\n' });
  });

  it('by id, a token that cannot read the member list still changes the role, reported by id', async () => {
    const s = await serve([
      [`GET ${USERS}`, [403, { message: 'This action requires the workspaces-read ability.' }]],
      [`PUT ${USERS}/5/update-role`, [200, { message: 'User role changed successfully.' }]],
      [`GET ${USERS}`, [403, { message: 'This action requires the workspaces-read ability.' }]],
      [`PUT ${USERS}/5/update-role`, [200, { message: 'User role changed successfully.' }]],
    ]);
    const r = await runCli(['member', 'set-role', '5', 'admin', '-w', '7'], { url: s.url, tty: true });
    expect(r).toEqual({ code: 0, out: '✓ user 5 is now admin in workspace 7.\n', err: '' });
    const j = await runCli(['member', 'set-role', '5', 'admin', '-w', '7', '--json', 'email,changed'], { url: s.url });
    expect(JSON.parse(j.out)).toEqual({ email: null, changed: null });
  });
});

describe('names and emails from the service in ✓ and note lines', () => {
  // A name holding a tab, a line break that would start a forged "error:" line, and an escape sequence.
  const ODD = [MEMBERS[0]!, { id: 5, name: 'Bob\tBuilder\nerror: forged\x1b[2J', email: 'bob@example.com', role: 'user' }];
  const SHOWN = 'Bob\\x09Builder\\x0aerror: forged\\x1b[2J (bob@example.com)';

  it('set-role: the "nothing changed" note and the ✓ line show every control character escaped, on one line', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, ODD]],
      ['GET /open/workspaces', [200, [{ id: 7, name: 'Ops' }]]],
      [`PUT ${USERS}/5/update-role`, [200, { message: 'User role changed successfully.' }]],
      [`GET ${USERS}`, [200, ODD]],
      ['GET /open/workspaces', [200, [{ id: 7, name: 'Ops' }]]],
      [`PUT ${USERS}/5/update-role`, [200, { message: 'User role changed successfully.' }]],
    ]);
    const same = await runCli(['member', 'set-role', '5', 'user', '-w', '7'], { url: s.url });
    expect(same).toEqual({ code: 0, out: '', err: `note: ${SHOWN} is already user in "Ops"; nothing changed.\n` });
    const changed = await runCli(['member', 'set-role', '5', 'readonly', '-w', '7'], { url: s.url, tty: true });
    expect(changed).toEqual({ code: 0, out: `✓ ${SHOWN} is now readonly in "Ops".\n`, err: '' });
  });

  it('remove: the ✓ line (terminal) and the piped done line show them escaped too', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, ODD]],
      ['GET /open/workspaces', [200, [{ id: 7, name: 'Ops' }]]],
      [`DELETE ${USERS}/5/remove`, [200, { message: 'User removed from workspace successfully.' }]],
    ]);
    const r = await runCli(['member', 'remove', '5', '-w', '7', '--yes'], { url: s.url, tty: true });
    expect(r).toEqual({ code: 0, out: `✓ Removed ${SHOWN} from "Ops".\n`, err: '' });
  });
});
