import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { type Flavor } from '../helpers/sandbox.js';

// A copy between two services, each reached with its own profile: the source sandbox of one flavour,
// the target of the other, on two ports (docs/forms.md, "Copying a form").
describe.each([
  ['spec', 'deployed'],
  ['deployed', 'spec'],
] as [Flavor, Flavor][])('form copy from a %s sandbox to a %s sandbox under two profiles', (fromFlavor, toFlavor) => {
  // Two services: the stage fixture's home holds the profiles of both.
  const stage = useSandboxFixture({ flavor: fromFlavor, allowPrivateWebhooks: true });
  const prod = useSandboxFixture({ flavor: toFlavor, allowPrivateWebhooks: true });
  let formId: number;
  const SOURCE_SECRET = 'source-secret-0123456789';
  const NEW_SECRET = 'copy-secret-abcdefghijk';

  /** The config and state dirs only: each command names its profile. */
  const fc = (args: string[], input?: string) => runFormctl(args, { env: stage.home.env, input });

  beforeAll(async () => {
    for (const [name, sb] of [
      ['stage', stage.sb],
      ['prod', prod.sb],
    ] as const) {
      const login = await fc(['--profile', name, 'auth', 'login', '--base-url', sb.url, '--with-token'], sb.tokens.all);
      expect(login.code).toBe(0);
    }
    const created = await fc([
      '--profile',
      'stage',
      'form',
      'create',
      '-w',
      String(stage.sb.workspaceId),
      '--title',
      'Contact',
      '--field',
      'Name',
      '--field',
      'Plan:select=Free,Pro',
      '--set',
      'password=pw-source',
      '--set',
      'description=Say hello',
      '--set',
      'properties.1.logic={"conditions":null,"actions":[]}',
    ]);
    expect(created.stderr).toBe('');
    formId = Number(created.stdout.split('\t')[0]);
    writeFileSync(join(stage.home.dir, 'source-secret.txt'), SOURCE_SECRET);
    writeFileSync(join(stage.home.dir, 'new-secret.txt'), `${NEW_SECRET}\n`);
    const hook = await fc([
      '--profile',
      'stage',
      'webhook',
      'create',
      String(formId),
      '--url',
      'http://127.0.0.1:9/in',
      '--secret-file',
      join(stage.home.dir, 'source-secret.txt'),
      '--header',
      'X-Api-Key: key-123',
      '--allow-private',
    ]);
    expect(hook.code).toBe(0);
  });

  /** `formctl --profile stage form copy <the form> ...rest`. */
  const copyFromStage = (rest: string[], input?: string) => fc(['--profile', 'stage', 'form', 'copy', String(formId), ...rest], input);

  async function getForm(profile: string, id: number): Promise<Record<string, unknown>> {
    const r = await fc(['--profile', profile, 'form', 'get', String(id), '--json']);
    expect(r.code).toBe(0);
    const pw = await fc(['--profile', profile, 'form', 'get', String(id), '--json', 'password']);
    return { ...JSON.parse(r.stdout), ...JSON.parse(pw.stdout) };
  }

  async function hooksOf(profile: string, id: number): Promise<Record<string, any>[]> {
    const r = await fc(['--profile', profile, 'webhook', 'list', String(id), '--json', '--show-secret']);
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  }

  it('--dry-run shows the bodies with secrets masked and sends nothing', async () => {
    const before = await fc(['--profile', 'prod', 'form', 'list', '-w', String(prod.sb.workspaceId), '--json', 'id']);
    const r = await copyFromStage(['--to-profile', 'prod', '--to-workspace', String(prod.sb.workspaceId), '--with-webhooks', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ dry_run: true, profile: 'prod', workspace_id: prod.sb.workspaceId, onto: null, dropped: ['slug', 'password'] });
    expect(out.body).toMatchObject({ title: 'Contact', description: 'Say hello' });
    expect(out.body).not.toHaveProperty('password');
    expect(out.body).not.toHaveProperty('slug');
    expect(out.webhooks).toEqual([{ source_id: expect.any(Number), body: { webhook_url: 'http://127.0.0.1:9/in', webhook_headers: { 'X-Api-Key': '••••' } } }]);
    expect(r.stdout + r.stderr).not.toMatch(/pw-source|key-123|source-secret/);
    expect(r.stderr).toContain('note: dry run: would create a form in workspace');
    const after = await fc(['--profile', 'prod', 'form', 'list', '-w', String(prod.sb.workspaceId), '--json', 'id']);
    expect(after.stdout).toBe(before.stdout);
  });

  it('copies fields, logic and settings, never the slug or password; webhooks signed with --secret-file, else unsigned with a warning', async () => {
    const source = await getForm('stage', formId);
    const r = await copyFromStage([
      '--to-profile',
      'prod',
      '--to-workspace',
      String(prod.sb.workspaceId),
      '--with-webhooks',
      '--secret-file',
      join(stage.home.dir, 'new-secret.txt'),
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ profile: 'prod', source_id: formId, created: true, dropped: ['slug', 'password'], workspace_id: prod.sb.workspaceId });
    expect(out.share_url).toContain(prod.sb.url);
    const copy = await getForm('prod', out.id);
    expect(copy.slug).not.toBe(source.slug);
    expect(copy.password ?? null).toBeNull();
    expect(copy).toMatchObject({ title: 'Contact', description: 'Say hello' });
    expect((copy.properties as unknown[]).length).toBe(2);
    expect((copy.properties as Record<string, unknown>[])[1]).toMatchObject({ id: (source.properties as Record<string, unknown>[])[1]!.id, type: 'select' });
    const hooks = await hooksOf('prod', out.id);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.data).toMatchObject({ webhook_url: 'http://127.0.0.1:9/in', webhook_secret: NEW_SECRET, webhook_headers: { 'X-Api-Key': 'key-123' } });
    expect(out.webhooks).toEqual([{ id: hooks[0]!.id, source_id: expect.any(Number), signed: true }]);

    // Off a terminal and without --secret-file, the copy is unsigned and says so.
    const bare = await copyFromStage(['--to-profile', 'prod', '--to-workspace', String(prod.sb.workspaceId), '--with-webhooks']);
    expect(bare.code).toBe(0);
    const [id] = bare.stdout.trim().split('\t');
    expect(bare.stderr).toMatch(/^warning: webhook \d+ \(copy of \d+\) on form \d+ delivers unsigned/m);
    expect(bare.stderr).toContain('note: not copied: slug, password.');
    const unsigned = await hooksOf('prod', Number(id));
    expect(unsigned[0]!.data.webhook_secret ?? null).toBeNull();
    expect(bare.stdout + bare.stderr).not.toMatch(/pw-source|source-secret/);
    // The hint acts on the target: it names --to-profile's profile, and runs there as written.
    const hint = /Give it a secret: (formctl --profile prod webhook rotate-secret (\d+) (\d+))\n/.exec(bare.stderr);
    expect(hint, bare.stderr).not.toBeNull();
    const rotated = await fc(hint![1]!.split(' ').slice(1));
    expect(rotated.code).toBe(0);
    expect((await hooksOf('prod', Number(hint![2])))[0]!.data.webhook_secret).toBe(rotated.stdout.trim());
  });

  it('--onto updates an existing form safely (backup, target keeps its own slug and password); a pulled file applies with --onto too', async () => {
    const target = await fc(['--profile', 'prod', 'form', 'create', '-w', String(prod.sb.workspaceId), '--title', 'Prod contact', '--set', 'password=pw-prod']);
    const targetId = Number(target.stdout.split('\t')[0]);
    const before = await getForm('prod', targetId);
    const r = await copyFromStage(['--to-profile', 'prod', '--onto', String(targetId), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ id: targetId, created: false, profile: 'prod' });
    expect(readFileSync(out.backup, 'utf8')).toContain('"Prod contact"');
    const after = await getForm('prod', targetId);
    expect(after).toMatchObject({ title: 'Contact', description: 'Say hello', slug: before.slug, password: 'pw-prod' });

    // Workspace given and not the target's: refused before anything is sent.
    const wrong = await copyFromStage(['--to-profile', 'prod', '--onto', String(targetId), '--to-workspace', '999']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`error: --onto form ${targetId} is in workspace ${prod.sb.workspaceId}, not 999; nothing was sent.`);

    // A file pulled from stage names stage's id and slug: apply refuses or updates the right form with --onto.
    const file = join(stage.home.dir, 'pulled.json');
    expect((await fc(['--profile', 'stage', 'form', 'pull', String(formId), '-o', file])).code).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...doc, description: 'From the file' }, null, 2));
    const applied = await fc(['--profile', 'prod', 'form', 'apply', '-f', file, '--onto', String(targetId)]);
    expect(applied.code).toBe(0);
    const last = await getForm('prod', targetId);
    expect(last).toMatchObject({ description: 'From the file', slug: before.slug, password: 'pw-prod' });
    // The file still names the stage form: apply never records the target's id in it with --onto.
    expect(JSON.parse(readFileSync(file, 'utf8')).id).toBe(formId);
    const missing = await fc(['--profile', 'prod', 'form', 'apply', '-f', file, '--onto', '98765']);
    expect(missing).toMatchObject({ code: 6, stdout: '' });
  });

  it('refuses an unknown --to-profile and a missing --to-workspace before any request', async () => {
    const unknown = await copyFromStage(['--to-profile', 'nope', '--to-workspace', '1']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: No profile named "nope" \(from --to-profile\)\.\nhint: Saved profiles: /);
    const none = await copyFromStage(['--to-profile', 'prod']);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toContain('error: Missing --to-workspace.');
    // The unknown profile is said before the missing --to-workspace.
    const both = await copyFromStage(['--to-profile', 'nope']);
    expect(both).toMatchObject({ code: 2, stdout: '' });
    expect(both.stderr).toMatch(/^error: No profile named "nope" \(from --to-profile\)\./);
    // A name no profile can have is reported as --to-profile's.
    const proto = await copyFromStage(['--to-profile', '__proto__', '--to-workspace', '1']);
    expect(proto).toMatchObject({ code: 2, stdout: '' });
    expect(proto.stderr).toMatch(/^error: --to-profile "__proto__" cannot be a profile name\.\n/);
  });

  it('a --to-profile whose token belongs to another host is exit 4, as with --profile, and nothing is sent', async () => {
    const login = await fc(['--profile', 'moved', 'auth', 'login', '--base-url', stage.sb.url, '--with-token'], stage.sb.tokens.all);
    expect(login.code).toBe(0);
    expect((await fc(['--profile', 'moved', 'config', 'set', 'base_url', prod.sb.url])).code).toBe(0);
    const before = await fc(['--profile', 'prod', 'form', 'list', '-w', String(prod.sb.workspaceId), '--json', 'id']);
    const copy = await copyFromStage(['--to-profile', 'moved', '--to-workspace', String(prod.sb.workspaceId)]);
    const direct = await fc(['--profile', 'moved', 'form', 'list', '-w', String(prod.sb.workspaceId)]);
    expect(direct.code).toBe(4);
    expect(copy).toMatchObject({ code: 4, stdout: '' });
    expect(copy.stderr).toBe(direct.stderr);
    expect(copy.stderr).toMatch(/^error: The token of profile "moved" was saved for http:\/\/127\.0\.0\.1:\d+; formctl sends it to no other host/);
    const after = await fc(['--profile', 'prod', 'form', 'list', '-w', String(prod.sb.workspaceId), '--json', 'id']);
    expect(after.stdout).toBe(before.stdout);
  });

  it('a --to-profile saved by an older formctl under a name the rule now refuses (my box) is used, as --profile uses it', async () => {
    // An older formctl saved names with spaces; the config file is written here as it left them.
    const configFile = join(stage.home.env.FORMCTL_CONFIG_DIR!, 'config.json');
    const config = JSON.parse(readFileSync(configFile, 'utf8'));
    config.profiles['my box'] = config.profiles.prod;
    writeFileSync(configFile, JSON.stringify(config));
    const copy = await copyFromStage(['--to-profile', 'my box', '--to-workspace', String(prod.sb.workspaceId), '--json', 'id']);
    expect(copy.stderr).not.toContain('cannot be a profile name');
    expect(copy.code).toBe(0);
    const id = Number(JSON.parse(copy.stdout).id);
    expect((await getForm('my box', id)).title).toBe('Contact');
    // A name never saved still follows the rule.
    const unsaved = await copyFromStage(['--to-profile', 'other box', '--to-workspace', '1']);
    expect(unsaved).toMatchObject({ code: 2, stdout: '' });
    expect(unsaved.stderr).toMatch(/^error: --to-profile "other box" cannot be a profile name\.\n/);
  });

  it("an error of the target's service gets a hint that names the target profile, never the source's --profile", async () => {
    const configFile = join(stage.home.env.FORMCTL_CONFIG_DIR!, 'config.json');
    const config = JSON.parse(readFileSync(configFile, 'utf8'));
    config.profiles.revoked = { ...config.profiles.prod, token: 'revoked-token-0123456789' };
    writeFileSync(configFile, JSON.stringify(config));
    const copy = await copyFromStage(['--to-profile', 'revoked', '--to-workspace', String(prod.sb.workspaceId)]);
    expect(copy).toMatchObject({ code: 4, stdout: '' });
    expect(copy.stderr).toMatch(/\(HTTP 401, POST \/open\/forms\)\nhint: Its saved token was refused: run `formctl --profile revoked auth login`/);
    expect(copy.stderr).not.toContain('--profile stage');
    // FORMCTL_TOKEN is the source's only: the target's hint never offers it as the way out.
    expect(copy.stderr).not.toContain('or set FORMCTL_TOKEN');
    // --onto: every step (the form's GET, the update) is the target's too.
    const onto = await copyFromStage(['--to-profile', 'revoked', '--onto', '1', '--yes']);
    expect(onto).toMatchObject({ code: 4, stdout: '' });
    expect(onto.stderr).toContain('hint: Its saved token was refused: run `formctl --profile revoked auth login`');
    expect(onto.stderr).not.toContain('--profile stage');
  });
});
