import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunResult, tempHome } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/run-cli.js';
import { FLAVORS, type TestSandbox, startTestSandbox } from '../../helpers/sandbox.js';

// formctl (in-process, src/main.ts `run`) against both sandbox flavours: leave, remove and set-role never leave a workspace
// without an admin or a member unless --force, and webhook update/delete act only on webhooks. Neither
// service has a guard of its own, so each refusal here is formctl's.

let home: ReturnType<typeof tempHome>;
beforeAll(() => {
  home = tempHome();
});
afterAll(() => home.cleanup());

describe.each(FLAVORS)('%s flavour', (flavor) => {
  let sb: TestSandbox;
  let ws: string;
  const bea = () => sb.users.find((u) => u.email === 'bea@example.com')!;
  const cli = (args: string[], env: NodeJS.ProcessEnv = sb.env): Promise<RunResult> => runInProcess(args, { env: { ...home.env, ...env } });
  const members = async () => {
    const r = await cli(['member', 'list', '-w', ws, '--json', 'email,role']);
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as Array<{ email: string; role: string }>;
  };

  beforeEach(async () => {
    sb = await startTestSandbox({ flavor, seed: 3, allowPrivateWebhooks: true });
    ws = String(sb.workspaceId);
    // The seeded colleague has an account (and a token), so adding her adds a member.
    expect((await cli(['member', 'add', 'bea@example.com', '--role', 'user', '-w', ws])).code).toBe(0);
  });
  afterEach(() => sb.close());

  it('the last admin cannot leave without --force; the other member can', async () => {
    const refused = await cli(['workspace', 'leave', ws, '--yes']);
    expect(refused.code).toBe(2);
    // Refused after the guard's own reads (members, who-am-I): the workspace by its id, no form count.
    expect(refused.stderr).toMatch(/^error: Refusing to leave workspace \d+: Ada Admin \(admin@example\.com\) is the only admin of workspace \d+/);
    expect(refused.stderr).toMatch(/its forms would have no admin/);
    expect((await members()).map((m) => m.email)).toContain('admin@example.com');
    // With a second workspace of her own, Ada is the one member of all her workspaces: formctl knows it is her.
    expect((await cli(['workspace', 'create', '--name', 'Side'])).code).toBe(0);
    const known = await cli(['workspace', 'leave', ws, '--yes']);
    expect(known.code).toBe(2);
    expect(known.stderr).toMatch(
      /is the only admin of workspace \d+, so nobody could manage its members, settings or deletion, and its forms would have no admin\.\n/,
    );
    expect(known.stderr).not.toContain('cannot tell');

    const beaLeaves = await cli(['workspace', 'leave', ws, '--yes'], sb.envFor(bea()));
    expect(beaLeaves.code, beaLeaves.stderr).toBe(0);
    expect((await members()).map((m) => m.email)).toEqual(['admin@example.com']);

    // Now the only member: still refused, then --force leaves.
    const only = await cli(['workspace', 'leave', ws, '--yes']);
    expect(only.code).toBe(2);
    expect(only.stderr).toMatch(/is the only member of workspace \d+, so workspace \d+ and its forms would be left with nobody at all\./);
    const forced = await cli(['workspace', 'leave', ws, '--yes', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    // Going ahead, the warning names the workspace and counts its forms.
    expect(forced.stderr).toMatch(
      /^warning: --force: Ada Admin \(admin@example\.com\) is the only member of ".+", so ".+" and its one form would be left with nobody at all\.\n/,
    );
  });

  it('removing another member works; removing or demoting the only admin is refused unless --force', async () => {
    const self = await cli(['member', 'remove', 'admin@example.com', '-w', ws, '--yes']);
    expect(self.code).toBe(2);
    // Refused after the member list alone: the workspace by its id, no form count.
    expect(self.stderr).toMatch(
      /^error: Refusing to remove Ada Admin \(admin@example\.com\) from workspace \d+: .+ is the only admin of workspace \d+, so nobody could manage .+, and its forms would have no admin\.\n/,
    );
    const demote = await cli(['member', 'set-role', 'admin@example.com', 'user', '-w', ws]);
    expect(demote.code).toBe(2);
    expect(demote.stderr).toMatch(/^error: Refusing to make Ada Admin \(admin@example\.com\) user in workspace \d+: /);
    expect(await members()).toEqual([
      { email: 'admin@example.com', role: 'admin' },
      { email: 'bea@example.com', role: 'user' },
    ]);

    const removeBea = await cli(['member', 'remove', 'bea@example.com', '-w', ws, '--yes']);
    expect(removeBea.code, removeBea.stderr).toBe(0);
    expect(removeBea.stdout).toMatch(/^✓ Removed .*bea@example\.com.* from ".+"\.\n$|^$/);
    expect((await members()).map((m) => m.email)).toEqual(['admin@example.com']);
  });

  it('set-role --force demotes the only admin (after a warning)', async () => {
    expect((await cli(['member', 'set-role', 'bea@example.com', 'admin', '-w', ws])).code).toBe(0);
    // Two admins: demoting one is fine.
    const ok = await cli(['member', 'set-role', 'bea@example.com', 'readonly', '-w', ws]);
    expect(ok.code, ok.stderr).toBe(0);
    const forced = await cli(['member', 'set-role', 'admin@example.com', 'user', '-w', ws, '--force', '--yes']);
    expect(forced.code, forced.stderr).toBe(0);
    // Going ahead, the warning names the workspace and counts its forms.
    expect(forced.stderr).toMatch(/^warning: --force: Ada Admin \(admin@example\.com\) is the only admin of ".+", .+ and its one form would have no admin\.\n/);
  });

  it("webhook update and delete work on a webhook of the form, and refuse another form's id", async () => {
    const form = String(sb.formId);
    // The deployed flavour seeds a webhook of its own (beside Slack and e-mail integrations): it must survive.
    const before = JSON.parse((await cli(['webhook', 'list', form, '--json', 'id'])).stdout);
    const created = await cli(['webhook', 'create', form, '--url', 'http://127.0.0.1:9/hook', '--allow-private']);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const updated = await cli(['webhook', 'update', form, id, '--deactivate', '--allow-private']);
    expect(updated.code, updated.stderr).toBe(0);
    const missing = await cli(['webhook', 'delete', form, String(Number(id) + 100), '--yes']);
    expect(missing.code).toBe(6);
    expect(missing.stderr).toMatch(
      new RegExp(
        `^error: Form ".+" \\(id ${form}\\) has no webhook ${Number(id) + 100}\\.\\nhint: See its webhooks with \`formctl webhook list ${form}\`\\.\\n$`,
      ),
    );
    const deleted = await cli(['webhook', 'delete', form, id, '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    const list = await cli(['webhook', 'list', form, '--json', 'id']);
    expect(JSON.parse(list.stdout)).toEqual(before);
  });
});

describe('deployed flavour: integrations of other kinds', () => {
  let sb: TestSandbox;
  const cli = (args: string[]): Promise<RunResult> => runInProcess(args, { env: { ...home.env, ...sb.env } });
  beforeAll(async () => {
    sb = await startTestSandbox({ flavor: 'deployed', seed: 1 });
  });
  afterAll(() => sb.close());

  it('a Slack or e-mail integration id is refused by every webhook verb (exit 6), and the integration stays', async () => {
    const form = String(sb.formId);
    const raw = await cli(['api', `/open/forms/${form}/integrations`]);
    expect(raw.code, raw.stderr).toBe(0);
    const all = JSON.parse(raw.stdout) as Array<{ id: number; integration_id: string }>;
    const slack = all.find((i) => i.integration_id === 'slack');
    const email = all.find((i) => i.integration_id === 'email');
    expect(slack && email).toBeTruthy();
    for (const [kind, i] of [
      ['slack', slack!],
      ['email', email!],
    ] as const) {
      for (const args of [['delete', '--yes'], ['update', '--deactivate'], ['rotate-secret'], ['events'], ['get']]) {
        const r = await cli(['webhook', args[0]!, form, String(i.id), ...args.slice(1)]);
        expect(r.code, `${args[0]} ${kind}: ${r.stderr}`).toBe(6);
        expect(r.stderr.split('\n')[0]).toMatch(
          new RegExp(`^error: Integration ${i.id} of form ".+" \\(id ${form}\\) is an? ${kind} integration, not a webhook; formctl only manages webhooks\\.$`),
        );
      }
    }
    const after = await cli(['api', `/open/forms/${form}/integrations`]);
    expect(JSON.parse(after.stdout)).toEqual(all);
  });
});
