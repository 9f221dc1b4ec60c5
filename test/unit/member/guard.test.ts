import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { workspaceLeaveRun } from '../../../src/commands/workspace/leave.js';
import { CancelledError, UsageError } from '../../../src/errors.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { fakeIO } from '../../helpers/io.js';
import { runCli } from '../../helpers/run-cli.js';
import { type Reply, type StubService, useStubService } from '../../helpers/stub-service.js';

// Neither service keeps a workspace from losing its last admin or member: formctl reads the member
// list first and refuses (exit 2) unless --force, saying what would be orphaned.
const USERS = '/open/workspaces/7/users';
const ADA = { id: 1, name: 'Ada Admin', email: 'admin@example.com', role: 'admin' };
const BOB = { id: 5, name: 'Bob Builder', email: 'bob@example.com', pivot: { role: 'user' } };
const FORMS: [string, Reply] = [
  'GET /open/workspaces/7/forms?page=1&per_page=100',
  [200, { data: [{ id: 1 }, { id: 2 }, { id: 3 }], meta: { current_page: 1, last_page: 1, total: 3 } }],
];
const INVITES_UNTOLD: [string, Reply] = ['GET /open/workspaces/7/invites', [403, { message: 'This action is unauthorized.' }]];
const ws = (extra: Record<string, unknown> = {}): [string, Reply] => [
  'GET /open/workspaces',
  [
    200,
    [
      { id: 7, name: 'Ops', icon: '', ...extra },
      { id: 8, name: 'Mine', icon: '' },
    ],
  ],
];

const serve = useStubService();
const writes = (s: StubService) => s.requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.url}`);
const WHOAMI = 'GET /external/zapier/validate';
/** An older or non-OpnForm server: no who-am-I route (Laravel's answer to an unknown route). */
const NO_WHOAMI: [string, Reply] = [WHOAMI, [404, { message: 'The route external/zapier/validate could not be found.' }]];
const guardReads = (s: StubService) => s.requests.filter((q) => q.method === 'GET' && /\/users$|\/invites$|^\/external\//.test(q.url)).map((q) => q.url);

/** `member remove 1` from workspace 7 on a terminal, the confirmation declined: the questions asked. */
async function removeDeclinedOnTerminal(s: StubService): Promise<string[]> {
  const { io } = fakeIO({ tty: true, canPrompt: true });
  const asked: string[] = [];
  const prompter = { confirm: async (o: { message: string }) => (asked.push(o.message), false) } as unknown as Prompter;
  const client = new ApiClient({ baseUrl: s.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
  const { memberRemoveRun } = await import('../../../src/commands/member/remove.js');
  try {
    await expect(
      memberRemoveRun({ io, api: async () => client, prompter: () => prompter, resolveWorkspace: async (w) => w!, workspace: 7, member: '1' }),
    ).rejects.toBeInstanceOf(CancelledError);
  } finally {
    await client.close();
  }
  return asked;
}

describe('member remove: the only admin or member', () => {
  it('refuses the only admin (exit 2) from the member list alone: one request, the workspace named by its id; nothing is sent', async () => {
    const s = await serve([[`GET ${USERS}`, [200, [ADA, BOB]]]]);
    const r = await runCli(['member', 'remove', 'admin@example.com', '-w', '7', '--yes'], { url: s.url });
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'error: Refusing to remove Ada Admin (admin@example.com) from workspace 7: Ada Admin (admin@example.com) is the only admin of workspace 7, so nobody could manage its members, settings or deletion, and its forms would have no admin.\n' +
        'hint: Make another member admin first (`formctl member set-role <user> admin -w 7`); --force goes ahead anyway.\n',
    );
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${USERS}`]);
  });

  it('on a terminal, the only admin is refused before who-am-I and the other reads of the prompt', async () => {
    const s = await serve([[`GET ${USERS}`, [200, [ADA, BOB]]]]);
    const { io } = fakeIO({ tty: true, canPrompt: true });
    const client = new ApiClient({ baseUrl: s.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    const { memberRemoveRun } = await import('../../../src/commands/member/remove.js');
    try {
      const err = (await memberRemoveRun({
        io,
        api: async () => client,
        prompter: () => ({}) as Prompter,
        resolveWorkspace: async (w) => w!,
        workspace: 7,
        member: '1',
      }).catch((e: unknown) => e)) as UsageError;
      expect(err).toBeInstanceOf(UsageError);
      expect(err.message).toMatch(/^Refusing to remove Ada Admin \(admin@example\.com\) from workspace 7: /);
    } finally {
      await client.close();
    }
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${USERS}`]);
  });

  it('--force removes anyway, with a warning', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      ws(),
      FORMS,
      [`DELETE ${USERS}/1/remove`, [200, { message: 'User removed from workspace successfully.' }]],
    ]);
    const r = await runCli(['member', 'remove', '1', '-w', '7', '--yes', '--force'], { url: s.url });
    expect(r.code).toBe(0);
    expect(r.err).toContain('warning: --force: Ada Admin (admin@example.com) is the only admin of "Ops"');
    expect(writes(s)).toEqual([`DELETE ${USERS}/1/remove`]);
  });

  it('removing another member of a workspace that keeps an admin goes ahead', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      ws(),
      [`DELETE ${USERS}/5/remove`, [200, { message: 'User removed from workspace successfully.' }]],
    ]);
    const r = await runCli(['member', 'remove', 'bob@example.com', '-w', '7', '--yes'], { url: s.url });
    expect(r.code).toBe(0);
    expect(writes(s)).toEqual([`DELETE ${USERS}/5/remove`]);
  });

  it('on a terminal the prompt names the person, "yourself" when it is the caller, and the workspace', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, [ADA, { ...BOB, role: 'admin' }]]],
      ws(),
      NO_WHOAMI,
      // The caller is the one member of every workspace the token sees: Ada.
      ['GET /open/workspaces/8/users', [200, [ADA]]],
    ]);
    expect(await removeDeclinedOnTerminal(s)).toEqual(['Remove Ada Admin (admin@example.com), yourself, from "Ops"?']);
  });
});

describe('a member list the token cannot read', () => {
  it('stops the check (exit 5, saying --force goes ahead); with --force the change is sent, with a warning', async () => {
    const denied: Reply = [403, { message: 'This action requires the workspaces-read ability.' }];
    const s = await serve([
      [`GET ${USERS}`, denied],
      [`GET ${USERS}`, denied],
      ws(),
      [`DELETE ${USERS}/5/remove`, [200, { message: 'User removed from workspace successfully.' }]],
    ]);
    const r = await runCli(['member', 'remove', '5', '-w', '7', '--yes'], { url: s.url });
    expect(r.code).toBe(5);
    expect(r.err).toMatch(/^error: Cannot read the members of workspace 7 to check that it keeps an admin: /);
    expect(r.err).toMatch(/Or pass --force to go ahead without the check\.\n$/);
    const forced = await runCli(['member', 'remove', '5', '-w', '7', '--yes', '--force'], { url: s.url });
    expect(forced.code, forced.err).toBe(0);
    expect(forced.err).toBe('warning: --force: the member list of "Ops" could not be read, so nobody checked that it keeps an admin.\n');
    expect(writes(s)).toEqual([`DELETE ${USERS}/5/remove`]);
  });
});

describe('member set-role: the only admin', () => {
  it('refuses to demote the only admin (exit 2) from the member list alone; --force reads the name and form count for its warning', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      ws(),
      FORMS,
      [`PUT ${USERS}/1/update-role`, [200, { message: 'User role changed successfully.' }]],
    ]);
    const r = await runCli(['member', 'set-role', 'admin@example.com', 'user', '-w', '7'], { url: s.url });
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toBe(
      'error: Refusing to make Ada Admin (admin@example.com) user in workspace 7: Ada Admin (admin@example.com) is the only admin of workspace 7, so nobody could manage its members, settings or deletion, and its forms would have no admin.',
    );
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${USERS}`]);
    const forced = await runCli(['member', 'set-role', 'admin@example.com', 'user', '-w', '7', '--force', '--yes'], { url: s.url });
    expect(forced.code).toBe(0);
    expect(forced.err).toBe(
      'warning: --force: Ada Admin (admin@example.com) is the only admin of "Ops", so nobody could manage its members, settings or deletion, and its 3 forms would have no admin.\n',
    );
    expect(writes(s)).toEqual([`PUT ${USERS}/1/update-role`]);
  });

  it('demoting one of two admins goes ahead', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, [ADA, { ...BOB, pivot: { role: 'admin' } }]]],
      ws(),
      [`PUT ${USERS}/1/update-role`, [200, { message: 'ok' }]],
    ]);
    const r = await runCli(['member', 'set-role', '1', 'readonly', '-w', '7'], { url: s.url });
    expect(r.code).toBe(0);
    expect(writes(s)).toEqual([`PUT ${USERS}/1/update-role`]);
  });
});

describe('workspace leave: the only admin or member', () => {
  it('refuses the only member (exit 2) from the member list alone: one request, the workspace named by its id', async () => {
    const s = await serve([[`GET ${USERS}`, [200, [ADA]]]]);
    const r = await runCli(['workspace', 'leave', '7', '--yes'], { url: s.url });
    expect(r.code).toBe(2);
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${USERS}`]);
    expect(r.err).toBe(
      'error: Refusing to leave workspace 7: Ada Admin (admin@example.com) is the only member of workspace 7, so workspace 7 and its forms would be left with nobody at all.\n' +
        'hint: Add another admin first (`formctl member add <email> --role admin -w 7`), or delete the workspace (`formctl workspace delete 7`); --force goes ahead anyway.\n',
    );
    expect(writes(s)).toEqual([]);
  });

  it('who-am-I names the caller: the guard costs 2 requests (members, who-am-I) and refuses after those alone; a leave that goes ahead reads the name', async () => {
    const many: [string, Reply] = [
      'GET /open/workspaces',
      [200, Array.from({ length: 12 }, (_, i) => ({ id: 7 + i, name: i === 0 ? 'Ops' : `W${i}`, icon: '' }))],
    ];
    const s = await serve([
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      [WHOAMI, [200, { name: 'Ada Admin', email: 'ADMIN@example.com' }]],
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      [WHOAMI, [200, { name: 'Bob Builder', email: 'bob@example.com' }]],
      ['POST /open/workspaces/7/leave', [204]],
      [`GET ${USERS}`, [200, [ADA, { ...BOB, role: 'admin' }]]],
      many,
      ['POST /open/workspaces/7/leave', [204]],
    ]);
    const ada = await runCli(['workspace', 'leave', '7', '--yes'], { url: s.url });
    expect(ada.code).toBe(2);
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${USERS}`, WHOAMI]);
    expect(ada.err).toBe(
      'error: Refusing to leave workspace 7: Ada Admin (admin@example.com) is the only admin of workspace 7, so nobody could manage its members, settings or deletion, and its forms would have no admin.\n' +
        'hint: Make another member admin first (`formctl member set-role <user> admin -w 7`); --force goes ahead anyway.\n',
    );
    // Piped with --yes no message names the workspace: nothing more is read.
    const bob = await runCli(['workspace', 'leave', '7', '--yes'], { url: s.url });
    expect(bob.code).toBe(0);
    expect(s.requests.slice(2).map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${USERS}`, WHOAMI, 'POST /open/workspaces/7/leave']);
    // On a terminal, the ✓ line names it: the workspace list, not the form count.
    const tty = fakeIO({ tty: true });
    const client = new ApiClient({ baseUrl: s.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      await workspaceLeaveRun({ io: tty.io, api: async () => client, prompter: () => ({}) as Prompter, id: 7, yes: true });
    } finally {
      await client.close();
    }
    expect(tty.out()).toBe('✓ You left "Ops".\n');
    expect(s.requests.slice(5).map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${USERS}`, 'GET /open/workspaces', 'POST /open/workspaces/7/leave']);
  });

  it('no who-am-I route: the deployed workspace entry tells (is_admin true with one admin refuses; false leaves)', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      NO_WHOAMI,
      ws({ is_admin: true }),
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      NO_WHOAMI,
      ws({ is_admin: false }),
      ['POST /open/workspaces/7/leave', [200, { type: 'success', message: 'You have left the workspace.' }]],
    ]);
    const r = await runCli(['workspace', 'leave', '7', '--yes'], { url: s.url });
    expect(r.code).toBe(2);
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${USERS}`, WHOAMI, 'GET /open/workspaces']);
    // The workspace list was read for the guard: the refusal names the workspace.
    expect(r.err).toContain('Refusing to leave "Ops": Ada Admin (admin@example.com) is the only admin of "Ops", so nobody could manage');
    expect(r.err).toContain('and its forms would have no admin.\n');
    const bob = await runCli(['workspace', 'leave', '7', '--yes'], { url: s.url });
    expect(bob.code).toBe(0);
    expect(writes(s)).toEqual(['POST /open/workspaces/7/leave']);
  });

  it('member remove on a terminal: "yourself" from who-am-I, in 2 guard requests', async () => {
    const s = await serve([[`GET ${USERS}`, [200, [ADA, { ...BOB, role: 'admin' }]]], ws(), [WHOAMI, [200, { name: 'Ada', email: 'admin@example.com' }]]]);
    expect(await removeDeclinedOnTerminal(s)).toEqual(['Remove Ada Admin (admin@example.com), yourself, from "Ops"?']);
    expect(guardReads(s)).toEqual([USERS, '/external/zapier/validate']);
  });

  it('no who-am-I route (older server): the caller is told apart through the member lists of the other workspaces', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      ws(),
      NO_WHOAMI,
      // An invite list refused for no stated role does not say whether the caller is an admin.
      INVITES_UNTOLD,
      ['GET /open/workspaces/8/users', [200, [ADA]]],
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      ws(),
      NO_WHOAMI,
      INVITES_UNTOLD,
      ['GET /open/workspaces/8/users', [200, [BOB]]],
      ['POST /open/workspaces/7/leave', [204]],
    ]);
    const ada = await runCli(['workspace', 'leave', '7', '--yes'], { url: s.url });
    expect(ada.code).toBe(2);
    expect(ada.err).toContain('Refusing to leave "Ops": Ada Admin (admin@example.com) is the only admin of "Ops"');
    const bob = await runCli(['workspace', 'leave', '7', '--yes'], { url: s.url });
    expect(bob).toMatchObject({ code: 0, out: '' });
    expect(writes(s)).toEqual(['POST /open/workspaces/7/leave']);
  });

  it('no who-am-I route: whether the caller is an admin is read from the invite list (only admins may read it)', async () => {
    const s = await serve([
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      ws(),
      NO_WHOAMI,
      ['GET /open/workspaces/7/invites', [200, []]],
      [`GET ${USERS}`, [200, [ADA, BOB]]],
      ws(),
      NO_WHOAMI,
      ['GET /open/workspaces/7/invites', [403, { message: 'Only workspace admins can list invites.' }]],
      ['POST /open/workspaces/7/leave', [204]],
    ]);
    const ada = await runCli(['workspace', 'leave', '7', '--yes'], { url: s.url });
    expect(ada.code).toBe(2);
    expect(ada.err).toContain('Refusing to leave "Ops": Ada Admin (admin@example.com) is the only admin of "Ops", so nobody could manage');
    const bob = await runCli(['workspace', 'leave', '7', '--yes'], { url: s.url });
    expect(bob.code).toBe(0);
    expect(writes(s)).toEqual(['POST /open/workspaces/7/leave']);
  });

  it('on a terminal asks to type the workspace name; another answer cancels (exit 3) and sends nothing', async () => {
    const s = await serve([[`GET ${USERS}`, [200, [ADA, { ...BOB, role: 'admin' }]]], ws(), FORMS]);
    const { io } = fakeIO({ tty: true, canPrompt: true });
    const asked: string[] = [];
    const prompter = { input: async (o: { message: string }) => (asked.push(o.message), 'ops') } as unknown as Prompter;
    const client = new ApiClient({ baseUrl: s.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const err = await workspaceLeaveRun({ io, api: async () => client, prompter: () => prompter, id: 7 }).catch((e) => e);
      expect(err).toBeInstanceOf(CancelledError);
    } finally {
      await client.close();
    }
    expect(asked).toEqual(['Leave "Ops"? You lose access to its 3 forms. Type its name Ops to confirm:']);
    expect(writes(s)).toEqual([]);
  });
});
