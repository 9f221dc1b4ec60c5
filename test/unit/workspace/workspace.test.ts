import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { workspaceCreateRun } from '../../../src/commands/workspace/create.js';
import { newWorkspaceDeleteCommand, workspaceDeleteRun } from '../../../src/commands/workspace/delete.js';
import { workspaceLeaveRun } from '../../../src/commands/workspace/leave.js';
import { newWorkspaceListCommand, workspaceListRun } from '../../../src/commands/workspace/list.js';
import type { Factory } from '../../../src/factory.js';
import { workspaceUpdateRun } from '../../../src/commands/workspace/update.js';
import { workspaceUseRun } from '../../../src/commands/workspace/use.js';
import { CliError } from '../../../src/errors.js';
import { fakeIO } from '../../helpers/io.js';
import { type TestSandbox, startTestSandbox } from '../../helpers/sandbox.js';
import { scriptedPrompter, testConfig } from '../auth/fixtures.js';

let sb: TestSandbox;
let client: ApiClient;
let readonlyClient: ApiClient;
beforeAll(async () => {
  sb = await startTestSandbox();
  client = new ApiClient({ baseUrl: sb.url, token: sb.tokens.all, userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
  readonlyClient = new ApiClient({ baseUrl: sb.url, token: sb.tokens.readonly, userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
});
afterAll(async () => {
  await client.close();
  await readonlyClient.close();
  await sb.close();
});

const api = async () => client;
const now = () => new Date();
const codeOf = (e: unknown) => (e instanceof CliError ? e.exitCode : -1);

describe('workspace list', () => {
  it('TTY: table with the default marked; piped: TSV; --json fields', async () => {
    const tty = fakeIO({ tty: true });
    await workspaceListRun({ io: tty.io, api, defaultWorkspace: async () => sb.workspaceId, now });
    const lines = tty.out().split('\n');
    expect(lines[0]).toMatch(/^ID {2}NAME +ICON {2}READ-ONLY {2}DEFAULT$/);
    expect(lines[1]).toMatch(new RegExp(`^${sb.workspaceId}\\s+\\S.*\\s+no\\s+\\*$`));

    const piped = fakeIO();
    await workspaceListRun({ io: piped.io, api, defaultWorkspace: async () => undefined, now });
    const cells = piped.out().split('\n')[0]!.split('\t');
    // The icon has its own column: `cut -f2` is the bare name.
    const ws = (await client.request<{ id: number; name: string; icon: string }[]>({ path: '/open/workspaces' })).data.find((w) => w.id === sb.workspaceId)!;
    expect(cells).toEqual([String(sb.workspaceId), ws.name, ws.icon ?? '', 'no', '']);
    expect(ws.icon).toBeTruthy();

    const js = fakeIO();
    await workspaceListRun({ io: js.io, api, defaultWorkspace: async () => undefined, now, json: ['id', 'is_readonly'] });
    expect(JSON.parse(js.out())[0]).toEqual({ id: sb.workspaceId, is_readonly: false });
  });

  it('the DEFAULT column can be asked for as --json default (true or false), and bare --json has it too', async () => {
    const cmd = newWorkspaceListCommand({} as Factory, async () => undefined);
    await cmd.parseAsync(['--json', 'id,default'], { from: 'user' });
    expect(cmd.opts().json).toEqual(['id', 'default']);
    const picked = fakeIO();
    await workspaceListRun({ io: picked.io, api, defaultWorkspace: async () => sb.workspaceId, now, json: ['id', 'default'] });
    expect(JSON.parse(picked.out())).toEqual([{ id: sb.workspaceId, default: true }]);
    const all = fakeIO();
    await workspaceListRun({ io: all.io, api, defaultWorkspace: async () => undefined, now, json: true });
    expect(JSON.parse(all.out())[0]).toMatchObject({ id: sb.workspaceId, default: false });
  });
});

describe('workspace create / update / delete', () => {
  it('create: ✓ on a TTY, the id when piped, the object with --json; update keeps the name for emoji-only changes', async () => {
    const tty = fakeIO({ tty: true });
    await workspaceCreateRun({ io: tty.io, api, prompter: () => scriptedPrompter().prompter, name: 'Ops', emoji: '🛠' });
    const id = Number(/\(id (\d+)\)/.exec(tty.out())![1]);
    expect(tty.out()).toBe(`✓ Created workspace Ops (id ${id}). Make it the default: formctl workspace use ${id}\n`);
    // With the profile from --profile (or FORMCTL_PROFILE), the command shown sets that profile's default.
    const flagged = fakeIO({ tty: true });
    const context = async () => ({ profileName: 'my box', profileSource: 'flag' }) as Awaited<ReturnType<Factory['context']>>;
    await workspaceCreateRun({ io: flagged.io, api, context, prompter: () => scriptedPrompter().prompter, name: 'Ops P' });
    expect(flagged.out()).toMatch(/Make it the default: formctl --profile 'my box' workspace use \d+\n$/);

    const piped = fakeIO();
    await workspaceCreateRun({ io: piped.io, api, prompter: () => scriptedPrompter().prompter, name: 'Ops 2' });
    const id2 = Number(piped.out().trim());
    expect(piped.out()).toBe(`${id2}\n`);

    const js = fakeIO();
    await workspaceCreateRun({ io: js.io, api, prompter: () => scriptedPrompter().prompter, name: 'Ops 3', json: ['name', 'icon'] });
    expect(JSON.parse(js.out())).toEqual({ name: 'Ops 3', icon: '' });

    const up = fakeIO({ tty: true });
    await workspaceUpdateRun({ io: up.io, api, id, emoji: '🚀' });
    expect(up.out()).toBe(`✓ Updated workspace Ops (id ${id}).\n`);
    const upJson = fakeIO();
    await workspaceUpdateRun({ io: upJson.io, api, id, name: 'Ops EU', json: ['id', 'name', 'icon'] });
    expect(JSON.parse(upJson.out())).toEqual({ id, name: 'Ops EU', icon: '🚀' });
    expect(codeOf(await workspaceUpdateRun({ io: fakeIO().io, api, id }).catch((e) => e))).toBe(2);
    expect(codeOf(await workspaceUpdateRun({ io: fakeIO().io, api, id: 99999, emoji: 'x' }).catch((e) => e))).toBe(6);

    const delPiped = fakeIO();
    expect(codeOf(await workspaceDeleteRun({ io: delPiped.io, api, prompter: () => scriptedPrompter().prompter, id: id2 }).catch((e) => e))).toBe(2);
    await workspaceDeleteRun({ io: delPiped.io, api, prompter: () => scriptedPrompter().prompter, id: id2, yes: true });
    expect(delPiped.out()).toBe('');

    const delTty = fakeIO({ tty: true });
    const { prompter, asked } = scriptedPrompter({ confirm: [true] });
    await workspaceDeleteRun({ io: delTty.io, api, prompter: () => prompter, id });
    expect(asked).toEqual([`confirm: Delete workspace "Ops EU" (id ${id}) with no forms?`]);
    expect(delTty.out()).toBe(`✓ Deleted workspace "Ops EU" (id ${id}).\n`);

    const created = fakeIO();
    await workspaceCreateRun({ io: created.io, api, prompter: () => scriptedPrompter().prompter, name: 'Ops 4' });
    const id4 = Number(created.out().trim());
    const delJson = fakeIO({ tty: true });
    await workspaceDeleteRun({ io: delJson.io, api, prompter: () => scriptedPrompter().prompter, id: id4, yes: true, json: true });
    expect([delJson.out(), delJson.err()]).toEqual([`{\n  "id": ${id4},\n  "deleted": true\n}\n`, '']);
    const parsed = newWorkspaceDeleteCommand({} as Factory, async () => undefined);
    await parsed.parseAsync(['7', '--yes', '--json', 'deleted'], { from: 'user' });
    expect(parsed.opts()).toMatchObject({ yes: true, json: ['deleted'] });

    const left = fakeIO();
    await workspaceListRun({ io: left.io, api, defaultWorkspace: async () => undefined, now, json: ['name'] });
    expect(JSON.parse(left.out()).map((w: { name: string }) => w.name)).not.toContain('Ops EU');
  });

  it('a read-only token gets exit 5 with the ability named', async () => {
    const err = (await workspaceCreateRun({ io: fakeIO().io, api: async () => readonlyClient, prompter: () => scriptedPrompter().prompter, name: 'X' }).catch(
      (e) => e,
    )) as CliError;
    expect(err.exitCode).toBe(5);
    expect(err.hint).toContain('workspaces-write');
  });
});

describe('workspace leave / use', () => {
  it('leave needs --yes off a TTY; the only member is refused (exit 2) unless --force, then leaves', async () => {
    const piped = fakeIO();
    const created = fakeIO();
    await workspaceCreateRun({ io: created.io, api, prompter: () => scriptedPrompter().prompter, name: 'Temp' });
    const id = Number(created.out().trim());
    expect(codeOf(await workspaceLeaveRun({ io: piped.io, api, prompter: () => scriptedPrompter().prompter, id }).catch((e) => e))).toBe(2);
    const tty = fakeIO({ tty: true });
    const refused = (await workspaceLeaveRun({ io: tty.io, api, prompter: () => scriptedPrompter().prompter, id, yes: true }).catch((e) => e)) as CliError;
    expect(refused.exitCode).toBe(2);
    expect(refused.message).toBe(
      `Refusing to leave workspace ${id}: Ada Admin (admin@example.com) is the only member of workspace ${id}, so workspace ${id} and its forms would be left with nobody at all.`,
    );
    await workspaceLeaveRun({ io: tty.io, api, prompter: () => scriptedPrompter().prompter, id, yes: true, force: true });
    expect(tty.out()).toBe('✓ You left "Temp".\n');
    const after = fakeIO();
    await workspaceListRun({ io: after.io, api, defaultWorkspace: async () => undefined, now, json: ['id'] });
    expect(JSON.parse(after.out()).map((w: { id: number }) => w.id)).not.toContain(id);
  });

  it('use stores the default in the profile after checking it exists', async () => {
    const t = await testConfig();
    await t.store.saveProfile('default', { baseUrl: sb.url, token: sb.tokens.all });
    const tty = fakeIO({ tty: true });
    await workspaceUseRun({ io: tty.io, api, config: t.config, profileName: async () => 'default', id: sb.workspaceId });
    expect(t.store.profile('default')!.workspace).toBe(sb.workspaceId);
    expect(tty.out()).toMatch(new RegExp(`^✓ Default workspace for profile default: .+ \\(id ${sb.workspaceId}\\)\\.\\n$`));
    const err = (await workspaceUseRun({ io: fakeIO().io, api, config: t.config, profileName: async () => 'default', id: 424242 }).catch((e) => e)) as CliError;
    expect([err.exitCode, err.message]).toEqual([2, 'Workspace 424242 is not one of yours.']);
    const unsaved = (await workspaceUseRun({ io: fakeIO().io, api, config: t.config, profileName: async () => 'ghost', id: sb.workspaceId }).catch(
      (e) => e,
    )) as CliError;
    expect(unsaved.exitCode).toBe(2);
    await t.cleanup();
  });
});
