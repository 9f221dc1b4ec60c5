// Pickers for a missing form or webhook id, and the walk-throughs of `webhook create` and `member add`
// run bare, in a real terminal (tmux); and the same commands without one failing fast,
// before any request, with the argument or flag to pass. Needs tmux (apt package "tmux"); without it
// the terminal half is skipped with a notice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { type StubServer, json, startStubServer } from '../helpers/http.js';
import { type TmuxSession, hasTmux, startTmux } from '../helpers/tmux.js';

// The forms are made with the block's home, removed before the first test; each test has a home of its own.
const fx = useSandboxFixture({ seed: 1, allowPrivateWebhooks: true, homePerTest: true });
const sessions: TmuxSession[] = [];
/** Ids of two forms created for the picker to choose between, besides the seeded demo form. */
let alpha: number;
let beta: number;

beforeAll(async () => {
  const create = async (title: string) => {
    const r = await runFormctl(['form', 'create', '-w', String(fx.sb.workspaceId), '--title', title, '--json', 'id'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { id: number }).id;
  };
  alpha = await create('Alpha survey');
  beta = await create('Beta signup');
});
afterEach(() => {
  for (const s of sessions.splice(0)) s.kill();
});

/** The sandbox with its workspace as the default, so only the form is picked. */
const env = () => ({ ...fx.env, FORMCTL_WORKSPACE: String(fx.sb.workspaceId) });
const term = (args: string[], extra: NodeJS.ProcessEnv = env()) => {
  const s = startTmux(args, { env: extra });
  sessions.push(s);
  return s;
};
const noStack = (screen: string) => expect(screen).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$|Error:|ExitPromptError/m);

if (!hasTmux()) {
  // Visible in the test output: the terminal tests need `apt-get install -y tmux`.
  describe('pickers (tmux)', () => {
    it.skip('tmux is not installed: install it (apt package "tmux") to run the terminal tests', () => undefined);
  });
}

describe.skipIf(!hasTmux())('pickers and walk-throughs in a real terminal (tmux)', () => {
  it('form get run bare offers the forms; typing filters, Enter picks and the form is printed', async () => {
    const t = term(['form', 'get', '--json', 'id,title']);
    await t.waitForText(/Form \(type to search\)/);
    await t.waitForText(/Alpha survey/);
    t.type('beta');
    // The filter has applied once the other forms are gone from the list.
    await t.waitForText(/^(?![\s\S]*Alpha survey)[\s\S]*Beta signup/);
    t.sendKeys('Enter');
    expect(await t.exitCode()).toBe(0);
    // On a terminal --json is pretty-printed.
    expect(t.screen()).toMatch(new RegExp(`^\\{\\n  "id": ${beta},\\n  "title": "Beta signup"\\n\\}$`, 'm'));
  });

  it('webhook get run bare picks the form, then the integration', async () => {
    const created = await runFormctl(['webhook', 'create', String(alpha), '--url', 'http://127.0.0.1:9/picked', '--allow-private', '--json', 'id'], {
      env: env(),
    });
    expect(created.code, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: number };

    const t = term(['webhook', 'get', '--json', 'id,form_id']);
    await t.waitForText(/Form \(type to search\)/);
    t.type('alpha');
    await t.waitForText(/^(?![\s\S]*Beta signup)[\s\S]*Alpha survey/);
    t.sendKeys('Enter');
    await t.waitForText(/Webhook \(type to search\)/);
    await t.waitForText(/127\.0\.0\.1:9\/picked/);
    t.sendKeys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(new RegExp(`^\\{\\n  "id": ${id},\\n  "form_id": ${alpha}\\n\\}$`, 'm'));
  });

  it('webhook create --allow-private run bare walks through form, URL (re-asked when invalid), secret and status', async () => {
    const t = term(['webhook', 'create', '--allow-private']);
    await t.waitForText(/Form \(type to search\)/);
    t.type('beta');
    await t.waitForText(/^(?![\s\S]*Alpha survey)[\s\S]*Beta signup/);
    t.sendKeys('Enter');

    await t.waitForText(/\? Receiver URL \(private addresses allowed\)/);
    t.type('ftp://127.0.0.1/hook');
    t.sendKeys('Enter');
    await t.waitForText(/The webhook URL must use HTTPS\./);
    // Readline's Ctrl-U clears what was typed before the cursor.
    t.sendKeys('C-u');
    t.type('http://127.0.0.1:9/hook');
    t.sendKeys('Enter');

    await t.waitForText(/\? Signing secret/);
    t.sendKeys('Enter'); // the first choice: generate
    await t.waitForText(/\? Deliver new submissions right away \(active\)\?/);
    t.sendKeys('Enter'); // default yes
    expect(await t.exitCode()).toBe(0);
    const screen = t.screen();
    const created = new RegExp(`✓ Created webhook (\\d+) on form ${beta} \\(active\\) → http://127\\.0\\.0\\.1:9/hook`).exec(screen);
    expect(created, screen).not.toBeNull();
    const secret = /^([0-9a-f]{64})$/m.exec(screen)?.[1];
    expect(secret, screen).toBeDefined();

    // The printed secret is the one the service signs with.
    const saved = await runFormctl(['webhook', 'get', String(beta), created![1]!, '--show-secret', '--json', 'status,data'], { env: env() });
    expect(saved.code, saved.stderr).toBe(0);
    expect(JSON.parse(saved.stdout)).toMatchObject({ status: 'active', data: { webhook_url: 'http://127.0.0.1:9/hook', webhook_secret: secret } });
  });

  it('member add run bare walks through email (re-asked when invalid), role and workspace; a new person is invited', async () => {
    // No default workspace: the workspace is picked too.
    const t = term(['member', 'add'], fx.env);
    await t.waitForText(/\? Email address/);
    t.type('newbie@example');
    t.sendKeys('Enter');
    await t.waitForText(/Enter an address such as alice@example\.com\./);
    t.sendKeys('C-u');
    t.type('newbie@example.com');
    t.sendKeys('Enter');
    await t.waitForText(/\? Role in the workspace/);
    t.sendKeys('Down');
    await t.waitForText(/❯ readonly/);
    t.sendKeys('Enter');
    await t.waitForText(/Workspace \(type to search\)/);
    await t.waitForText(/Ada's Workspace/);
    t.sendKeys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toContain(
      `✓ Invited newbie@example.com to workspace ${fx.sb.workspaceId} as readonly: no account exists yet, so an invitation email was sent.`,
    );
    const invites = await runFormctl(['invite', 'list', '-w', String(fx.sb.workspaceId), '--json', 'email,role,status'], { env: env() });
    expect(invites.code, invites.stderr).toBe(0);
    expect(JSON.parse(invites.stdout)).toContainEqual({ email: 'newbie@example.com', role: 'readonly', status: 'pending' });
  });

  it('submission delete run bare picks the form, asks for the submission id, confirms, then deletes', async () => {
    const t = term(['submission', 'delete']);
    await t.waitForText(/Form \(type to search\)/);
    t.type('demo');
    await t.waitForText(/^(?![\s\S]*Alpha survey)[\s\S]*demo/i);
    t.sendKeys('Enter');
    await t.waitForText(/Submission id to delete/);
    t.type('1');
    t.sendKeys('Enter');
    await t.waitForText(/Delete submission 1 of form/);
    t.type('y');
    t.sendKeys('Enter');
    expect(await t.exitCode()).toBe(0);
    noStack(t.screen());
    const left = await runFormctl(['submission', 'list', String(fx.sb.formId), '--json', 'id'], { env: env() });
    expect((JSON.parse(left.stdout) as Array<{ id: number }>).map((x) => x.id)).not.toContain(1);
  });

  it('Ctrl-C at a picker exits 130 without a stack trace', async () => {
    const t = term(['form', 'get']);
    await t.waitForText(/Form \(type to search\)/);
    t.type('alp');
    t.sendKeys('C-c');
    expect(await t.exitCode()).toBe(130);
    noStack(t.screen());
  });
});

describe('without a terminal: exit 2 naming the argument or flag, and no request sent', () => {
  let stub: StubServer;
  beforeAll(async () => {
    stub = await startStubServer((_req, res) => json(res, 500, { message: 'no request was expected' }));
  });
  afterAll(async () => {
    await stub.close();
  });
  const stubEnv = () => ({ ...fx.home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: 'fsk_test' });

  const FORM =
    'error: Missing <form> argument.\nhint: Pass the form id or slug as <form> (prompts are off: not a terminal, CI, or --no-input). See `formctl form list`.\n';
  const cases: Array<[string[], string]> = [
    [['form', 'get'], FORM],
    [['form', 'delete', '--yes'], FORM],
    [['submission', 'list'], FORM],
    [['submission', 'export'], FORM],
    [['webhook', 'list'], FORM],
    [['webhook', 'create', '--url', 'https://hooks.example.com/in'], FORM],
    [['webhook', 'get'], FORM],
    [
      ['webhook', 'get', '42'],
      'error: Missing <id> argument.\nhint: Pass the webhook id as <id> (prompts are off: not a terminal, CI, or --no-input). See `formctl webhook list 42`.\n',
    ],
    [
      ['webhook', 'delete', 'contact', '--yes'],
      'error: Missing <id> argument.\nhint: Pass the webhook id as <id> (prompts are off: not a terminal, CI, or --no-input). See `formctl webhook list contact`.\n',
    ],
    [
      ['member', 'add', '--role', 'user'],
      'error: Missing <email> argument.\nhint: Pass the email address of the person to add as <email> (prompts are off: not a terminal, CI, or --no-input).\n',
    ],
    [['webhook', 'create', '42'], 'error: Missing --url.\nhint: Pass --url https://… (prompts are off: not a terminal, CI, or --no-input).\n'],
    [['submission', 'delete', '--yes'], FORM],
    [
      ['submission', 'delete', '42', '--yes'],
      'error: Missing <submission-id> argument.\nhint: Pass the submission id as <submission-id> (prompts are off: not a terminal, CI, or --no-input). See `formctl submission list 42`.\n',
    ],
  ];
  for (const [args, stderr] of cases) {
    it(`formctl ${args.join(' ')}`, async () => {
      const r = await runFormctl(args, { env: stubEnv() });
      expect(r).toEqual({ code: 2, stdout: '', stderr });
      expect(stub.requests).toEqual([]);
    });
  }

  it.skipIf(!hasTmux())('--no-input turns the picker off on a terminal too', async () => {
    const t = term(['form', 'get', '--no-input'], stubEnv());
    expect(await t.exitCode()).toBe(2);
    expect(t.screen()).toContain('error: Missing <form> argument.');
    expect(stub.requests).toEqual([]);
  });
});
