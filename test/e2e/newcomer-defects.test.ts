// Defects a new user met on both services (#24): each case says what a person saw before.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';
import { hasTmux, startTmux } from '../helpers/tmux.js';

describe.each(FLAVORS)('workspaces that are gone (%s flavour)', (flavor) => {
  const fx = useSandboxFixture({ flavor, seed: 1 });

  it('form create into a deleted default workspace: exit 6 with the hint form list gives (it was exit 7, no hint)', async () => {
    const created = await runFormctl(['workspace', 'create', '--name', 'Gone'], { env: fx.env });
    const id = created.stdout.trim();
    expect((await runFormctl(['workspace', 'delete', id, '--yes'], { env: fx.env })).code).toBe(0);
    const withDefault = { ...fx.env, FORMCTL_WORKSPACE: id };
    const list = await runFormctl(['form', 'list'], { env: withDefault });
    const create = await runFormctl(['form', 'create', '--title', 'X'], { env: withDefault });
    expect(list.code).toBe(6);
    expect(create.code).toBe(6);
    expect(create.stderr).toBe(
      `error: Workspace ${id} was not found: the service says "The selected workspace id is invalid" (HTTP 422, POST /open/forms).\n${list.stderr.split('\n')[1]}\n`,
    );
    expect(create.stderr).toContain('may point at a deleted workspace');
  });

  it("workspace leave with another account's FORMCTL_TOKEN keeps the profile's default workspace (its account did not leave)", async () => {
    const h = tempHome();
    try {
      const login = await runFormctl(['auth', 'login', '--profile', 'dep', '--base-url', fx.sb.url, '--with-token'], { env: h.env, input: fx.sb.tokens.all });
      expect(login.code).toBe(0);
      const ws = String(fx.sb.workspaceId);
      const added = await runFormctl(['--profile', 'dep', 'member', 'add', fx.sb.users[1]!.email, '--role', 'user', '-w', ws], { env: h.env });
      expect(added.code, added.stderr).toBe(0);
      const asBea = { ...h.env, FORMCTL_PROFILE: 'dep', FORMCTL_TOKEN: fx.sb.users[1]!.token };
      const left = await runFormctl(['workspace', 'leave', ws, '--yes'], { env: asBea });
      expect(left.code, left.stderr).toBe(0);
      expect(left.stderr).not.toContain('was the default of profile');
      const members = await runFormctl(['--profile', 'dep', 'member', 'list', '--json', 'email'], { env: h.env });
      expect(members.code, members.stderr).toBe(0);
      expect(JSON.parse(members.stdout)).not.toContainEqual({ email: fx.sb.users[1]!.email });
    } finally {
      h.cleanup();
    }
  });

  it('sandbox and webhook listen on a busy port: exit 2, like other bad input (it was 1)', async () => {
    const port = new URL(fx.sb.url).port;
    const sandbox = await runFormctl(['sandbox', '--port', port], { env: fx.env });
    expect(sandbox.code).toBe(2);
    expect(sandbox.stderr).toBe(`error: Port 127.0.0.1:${port} is in use.\nhint: Pick another --port (0 picks a free one).\n`);
    const listen = await runFormctl(['webhook', 'listen', '--port', port], { env: fx.env });
    expect(listen.code).toBe(2);
  });

  it('workspace use without an id: a clear exit 2 off a terminal; on one, a picker (tmux)', async () => {
    const h = tempHome();
    try {
      expect((await runFormctl(['auth', 'login', '--base-url', fx.sb.url, '--with-token'], { env: h.env, input: fx.sb.tokens.all })).code).toBe(0);
      const piped = await runFormctl(['workspace', 'use'], { env: h.env });
      expect(piped).toEqual({
        code: 2,
        stdout: '',
        stderr: 'error: Missing the workspace id.\nhint: Pass one: formctl workspace use <id> (see `formctl workspace list`).\n',
      });
      if (!hasTmux()) return;
      const t = startTmux(['workspace', 'use'], { env: h.env });
      try {
        await t.waitForText(/Workspace \(type to search\)/);
        t.sendKeys('Enter');
        expect(await t.exitCode()).toBe(0);
        expect(t.screen()).toContain(`Default workspace for profile default:`);
      } finally {
        t.kill();
      }
    } finally {
      h.cleanup();
    }
  });

  it('form apply of a title-only file (a create) says the form needs a field, not that fields would be erased', async () => {
    const h = tempHome();
    try {
      const file = join(h.dir, 'new.json');
      writeFileSync(file, '{"title": "New"}');
      const r = await runFormctl(['form', 'apply', '-f', file, '-w', String(fx.sb.workspaceId)], { env: fx.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        'error: Refusing to create a form without fields: the service needs at least one in "properties".\n' +
          'hint: Add one, e.g. `"properties": [{"id": "name", "type": "text", "name": "Name"}]` in the file (each field needs an id), or `--field Name` with `formctl form create`.\n',
      );
      // The hint works as written (reviewer defect 9: without an id formctl's own check refused it).
      const hinted = /`"properties": (\[.*?\])`/.exec(r.stderr)![1]!;
      writeFileSync(file, `{"title": "New", "properties": ${hinted}}`);
      const ok = await runFormctl(['form', 'apply', '-f', file, '-w', String(fx.sb.workspaceId)], { env: fx.env });
      expect(ok.code, ok.stderr).toBe(0);
    } finally {
      h.cleanup();
    }
  });

  it('form create with a retention, off a terminal: the hint offers --yes, not a --dry-run create does not have', async () => {
    const h = tempHome();
    try {
      const args = ['form', 'create', '-w', String(fx.sb.workspaceId), '--title', 'Kept a month', '--field', 'Name'];
      const r = await runFormctl([...args, '--set', 'submission_retention_value=30', '--set', 'submission_retention_unit=day'], { env: fx.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('hint: Pass --yes to confirm (prompts are off: not a terminal, CI, or --no-input).\n');
      expect(r.stderr).not.toContain('--dry-run');
      const dry = await runFormctl([...args, '--dry-run'], { env: fx.env });
      expect(dry.code).toBe(2);
    } finally {
      h.cleanup();
    }
  });
});
