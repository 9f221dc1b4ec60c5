// Prompts in a real terminal (tmux), and the same commands without one failing fast with the flag
// to pass. Needs tmux (apt package "tmux"); without it the terminal half is skipped with a notice.
import { afterEach, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { answer } from '../sandbox/helpers.js';
import { type TmuxSession, hasTmux, startTmux } from '../helpers/tmux.js';

const fx = useSandboxFixture({ seed: 2, homePerTest: true });
const sessions: TmuxSession[] = [];

afterEach(() => {
  for (const s of sessions.splice(0)) s.kill();
});

const env = () => fx.env;
const term = (args: string[], extra: NodeJS.ProcessEnv = env()) => {
  const s = startTmux(args, { env: extra });
  sessions.push(s);
  return s;
};
const squeeze = (s: string) => s.replace(/\s+/g, '');
const noStack = (screen: string) => expect(screen).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$|Error:|ExitPromptError/m);

async function workspaceIds(): Promise<Array<{ id: number; name: string }>> {
  const r = await runFormctl(['workspace', 'list', '--json', 'id,name'], { env: env() });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Array<{ id: number; name: string }>;
}

if (!hasTmux()) {
  // Visible in the test output: the terminal tests need `apt-get install -y tmux`.
  describe('interactive (tmux)', () => {
    it.skip('tmux is not installed: install it (apt package "tmux") to run the terminal tests', () => undefined);
  });
}

describe.skipIf(!hasTmux())('interactive, in a real terminal (tmux)', () => {
  it('workspace create run bare asks for the name, then creates the workspace', async () => {
    const t = term(['workspace', 'create']);
    await t.waitForText(/Workspace name/);
    t.type('Tmux Team');
    t.sendKeys('Enter');
    const screen = await t.waitForText(/EXIT=\d+/);
    expect(screen).toMatch(/Created workspace Tmux Team \(id \d+\)/);
    expect(await t.exitCode()).toBe(0);
    expect((await workspaceIds()).map((w) => w.name)).toContain('Tmux Team');
  });

  it('workspace delete asks for confirmation: "n" cancels with exit 3, "y" deletes', async () => {
    const created = await runFormctl(['workspace', 'create', '--name', 'Doomed', '--json', 'id'], { env: env() });
    const { id } = JSON.parse(created.stdout) as { id: number };

    const no = term(['workspace', 'delete', String(id)]);
    await no.waitForText(new RegExp(`Delete workspace "Doomed" \\(id ${id}\\) with no forms\\?`));
    no.sendKeys('n', 'Enter');
    expect(await no.exitCode()).toBe(3);
    expect(no.screen()).toContain('Cancelled.');
    expect((await workspaceIds()).map((w) => w.id)).toContain(id);

    const yes = term(['workspace', 'delete', String(id)]);
    await yes.waitForText(/Delete workspace/);
    yes.sendKeys('y', 'Enter');
    expect(await yes.exitCode()).toBe(0);
    expect(yes.screen()).toContain(`Deleted workspace "Doomed" (id ${id}).`);
    expect((await workspaceIds()).map((w) => w.id)).not.toContain(id);
  });

  it('workspace delete of a workspace with forms asks to type its name, as gh repo delete does; a wrong name cancels (exit 3)', async () => {
    const created = await runFormctl(['workspace', 'create', '--name', 'Full', '--json', 'id'], { env: env() });
    const { id } = JSON.parse(created.stdout) as { id: number };
    expect((await runFormctl(['form', 'create', '-w', String(id), '--title', 'Kept'], { env: env() })).code).toBe(0);

    const wrong = term(['workspace', 'delete', String(id)]);
    const asked = await wrong.waitForText(/confirm:/);
    // The screen wraps long lines: compare without whitespace.
    expect(squeeze(asked)).toContain(
      squeeze(`Delete workspace "Full" (id ${id}) with its 1 form and all their submissions? This cannot be undone. Type its name Full to confirm:`),
    );
    wrong.type('y');
    wrong.sendKeys('Enter');
    expect(await wrong.exitCode()).toBe(3);
    expect(wrong.screen()).toContain('Cancelled: "y" is not its name Full.');
    expect((await workspaceIds()).map((w) => w.id)).toContain(id);

    const right = term(['workspace', 'delete', String(id)]);
    await right.waitForText(/confirm:/);
    right.type('Full');
    right.sendKeys('Enter');
    expect(await right.exitCode()).toBe(0);
    expect(right.screen()).toContain(`Deleted workspace "Full" (id ${id}).`);
    expect((await workspaceIds()).map((w) => w.id)).not.toContain(id);
  });

  it('form delete of a form with submissions asks to type its slug; a wrong slug cancels (exit 3)', async () => {
    const made = await runFormctl(
      ['form', 'create', '-w', String(fx.sb.workspaceId), '--title', 'Answered', '--field', 'Name', '--visibility', 'public', '--json', 'id,slug,properties'],
      { env: env() },
    );
    expect(made.code, made.stderr).toBe(0);
    const created = JSON.parse(made.stdout) as { id: number; slug: string; properties: Array<{ id: string }> };
    for (const n of ['Ada', 'Grace']) expect((await answer(fx.sb, created.slug, { [created.properties[0]!.id]: n })).status).toBeLessThan(300);
    const got = await runFormctl(['form', 'get', String(created.id), '--json', 'slug,title,submissions_count'], { env: env() });
    const form = JSON.parse(got.stdout) as { slug: string; title: string; submissions_count: number };
    expect(form.submissions_count).toBe(2);

    const t = term(['form', 'delete', String(created.id)]);
    const asked = await t.waitForText(/confirm:/);
    expect(squeeze(asked)).toContain(
      squeeze(
        `Delete form "${form.title}" (id ${created.id}) and its ${form.submissions_count} submissions? This cannot be undone. Type its slug ${form.slug} to confirm:`,
      ),
    );
    t.type(form.slug.slice(0, -1));
    t.sendKeys('Enter');
    expect(await t.exitCode()).toBe(3);
    expect((await runFormctl(['form', 'get', form.slug, '--json', 'id'], { env: env() })).code).toBe(0);

    const ok = term(['form', 'delete', String(created.id)]);
    await ok.waitForText(/Type its slug/);
    ok.type(form.slug);
    ok.sendKeys('Enter');
    expect(await ok.exitCode()).toBe(0);
    expect(ok.screen()).toContain(`Deleted form "${form.title}"`);
    expect((await runFormctl(['form', 'get', form.slug, '--json', 'id'], { env: env() })).code).toBe(6);
  });

  it('auth login asks for the token with hidden input and saves it; the token never appears on screen', async () => {
    const t = term(['auth', 'login', '--base-url', fx.sb.url], { ...fx.home.env });
    await t.waitForText(/Personal access token for 127\.0\.0\.1:\d+/);
    t.type(fx.sb.tokens.all);
    t.sendKeys('Enter');
    expect(await t.exitCode()).toBe(0);
    const screen = t.screen();
    expect(screen).toContain('Logged in to 127.0.0.1');
    expect(screen).not.toContain(fx.sb.tokens.all);
    expect(screen).not.toContain(fx.sb.tokens.all.slice(4, 16));
    const status = await runFormctl(['auth', 'status'], { env: fx.home.env });
    expect(status.code, status.stderr).toBe(0);
  });

  it('a missing workspace is picked from a searchable list', async () => {
    const t = term(['form', 'list', '--json', 'id,title']);
    await t.waitForText(/Workspace \(type to search\)/);
    t.type('ada');
    await t.waitForText(/Ada's Workspace/);
    t.sendKeys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toContain('{"id":1,"title":"Customer feedback (demo)"}');
  });

  it('form create run bare walks through title and first field, then creates a draft form', async () => {
    const t = term(['form', 'create'], { ...env(), FORMCTL_WORKSPACE: String(fx.sb.workspaceId) });
    await t.waitForText(/\? Title/);
    t.type('Tmux feedback');
    t.sendKeys('Enter');
    await t.waitForText(/\? First field name/);
    t.sendKeys('Enter');
    await t.waitForText(/\? First field type/);
    t.sendKeys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(/✓ Created form "Tmux feedback" \(id \d+, draft\)\./);
  });

  it('Ctrl-C at a prompt exits 130 without a stack trace', async () => {
    const t = term(['workspace', 'create']);
    await t.waitForText(/Workspace name/);
    t.type('half typed');
    t.sendKeys('C-c');
    expect(await t.exitCode()).toBe(130);
    noStack(t.screen());
  });

  it('prompts are off with CI=true even on a terminal: the flag to pass instead', async () => {
    const t = term(['workspace', 'create'], { ...env(), CI: 'true' });
    expect(await t.exitCode()).toBe(2);
    expect(t.screen()).toContain('error: Missing --name.');
  });

  it('member add with CI=true on a terminal gives the reason prompts are off, not "run on a terminal"', async () => {
    const t = term(['member', 'add', '--role', 'user', '-w', String(fx.sb.workspaceId)], { ...env(), CI: 'true' });
    expect(await t.exitCode()).toBe(2);
    const screen = t.screen().replace(/\n/g, '');
    expect(screen).toContain('error: Missing <email> argument.');
    expect(screen).toContain('hint: Pass the email address of the person to add as <email> (prompts are off: not a terminal, CI, or --no-input).');
    expect(screen).not.toContain('run on a terminal');
  });
});

describe('the same commands without a terminal fail fast with the flag to pass', () => {
  it('workspace create without --name', async () => {
    const r = await runFormctl(['workspace', 'create'], { env: env() });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'error: Missing --name.\nhint: Pass --name (prompts are off: not a terminal, CI, or --no-input).\n' });
  });

  it('workspace delete without --yes', async () => {
    const r = await runFormctl(['workspace', 'delete', String(fx.sb.workspaceId)], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: Delete workspace ${fx.sb.workspaceId} with all its forms and submissions: refusing without confirmation.\nhint: Pass --yes to confirm.\n`,
    );
  });

  it('auth login without --with-token', async () => {
    const r = await runFormctl(['auth', 'login', '--base-url', fx.sb.url], { env: fx.home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hint: Pass --with-token and pipe the token on stdin');
  });

  it('form create without --title', async () => {
    const r = await runFormctl(['form', 'create'], { env: { ...env(), FORMCTL_WORKSPACE: String(fx.sb.workspaceId) } });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: Missing --title.\nhint: Pass --title "<title>" or a --file with a title (prompts are off: not a terminal, CI, or --no-input).\n',
    });
  });

  it('form list without a workspace', async () => {
    const r = await runFormctl(['form', 'list'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: Missing --workspace.\nhint: Pass --workspace <id> (prompts are off: not a terminal, CI, or --no-input). Or set a default: formctl config set workspace <id> (see formctl workspace list).\n',
    );
  });
});
