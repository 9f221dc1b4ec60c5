import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// A command shown in a hint names the profile in effect when it came from --profile or
// FORMCTL_PROFILE: pasted into another shell, it acts on the same profile. From the built binary.
// The token comes from FORMCTL_TOKEN, so the profile named needs no saved entry.

const fx = useSandboxFixture({ seed: 5, allowPrivateWebhooks: true });

describe('hints name the profile given by --profile or FORMCTL_PROFILE', () => {
  it('an error hint from the API layer (webhook delete of an id that is gone)', async () => {
    const r = await runFormctl(['--profile', 'ci-box', 'webhook', 'delete', '1', '999', '--yes'], { env: fx.env });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('hint: See its webhooks with `formctl --profile ci-box webhook list 1`.');
    const env = await runFormctl(['webhook', 'delete', '1', '999', '--yes'], { env: { ...fx.env, FORMCTL_PROFILE: 'ci-box' } });
    expect(env.stderr).toContain('`formctl --profile ci-box webhook list 1`');
    // Without either, the hint stays as it was (the current profile is what another shell uses too).
    const plain = await runFormctl(['webhook', 'delete', '1', '999', '--yes'], { env: fx.env });
    expect(plain.stderr).toContain('`formctl webhook list 1`');
  });

  it('a hint of an argument refused while parsing (before Commander applies --profile)', async () => {
    for (const args of [
      ['--profile', 'ci-box', 'invite', 'cancel', 'carol@example.com', '-w', '1', '--yes'],
      ['invite', 'cancel', 'carol@example.com', '-w', '1', '--yes', '--profile=ci-box'],
    ]) {
      const r = await runFormctl(args, { env: fx.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('`formctl --profile ci-box invite list` shows the ids');
    }
  });

  it('api --paginate on one object and export --columns "" show the command with the profile', async () => {
    const api = await runFormctl(['--profile', 'ci-box', 'api', '/open/forms/1', '--paginate'], { env: fx.env });
    expect(api.code).toBe(2);
    expect(api.stderr).toContain('drop it for a single object: formctl --profile ci-box api /open/forms/1\n');
    const exp = await runFormctl(['--profile', 'ci-box', 'submission', 'export', '1', '--columns', '', '-o', '-'], { env: fx.env });
    expect(exp.code).toBe(2);
    expect(exp.stderr).toContain('formctl --profile ci-box form get 1 --json properties');
  });

  it('a hint that already names the profile does not get the flag twice', async () => {
    const r = await runFormctl(['workspace', 'list'], { env: { ...fx.home.env, FORMCTL_PROFILE: 'ci-box' } });
    expect(r.stderr.match(/--profile/g)?.length).toBe(1);
    expect(r.stderr).toContain('formctl --profile ci-box auth login');
  });

  it('a saved name that needs quoting (one saved before the strict rule) is quoted for the shell', async () => {
    const dir = fx.home.env.FORMCTL_CONFIG_DIR!;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const base = String(fx.env.FORMCTL_BASE_URL);
    const profile = { baseUrl: base, token: fx.env.FORMCTL_TOKEN, tokenOrigin: new URL(base).origin };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { 'my box': profile } }), { mode: 0o600 });
    const r = await runFormctl(['--profile', 'my box', 'webhook', 'delete', '1', '999', '--yes'], { env: fx.home.env });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain("hint: See its webhooks with `formctl --profile 'my box' webhook list 1`.");
  });

  it('notes after a change: an unsigned webhook (the form argument quoted) and fields a form update removed', async () => {
    const env = { ...fx.env, FORMCTL_PROFILE: 'ci-box' };
    const slug = JSON.parse((await runFormctl(['form', 'get', '1', '--json', 'slug'], { env })).stdout).slug as string;
    const hook = await runFormctl(['webhook', 'create', slug, '--url', 'http://127.0.0.1:9/hook', '--allow-private', '--json', 'id'], { env });
    expect(hook.code, hook.stderr).toBe(0);
    const id = JSON.parse(hook.stdout).id as number;
    expect(hook.stderr).toContain(`Sign them with \`formctl --profile ci-box webhook rotate-secret ${slug} ${id}\``);
    const props = JSON.parse((await runFormctl(['form', 'get', '1', '--json', 'properties'], { env })).stdout).properties as unknown[];
    const file = join(fx.work, 'fewer.json');
    writeFileSync(file, JSON.stringify({ properties: props.slice(1) }));
    const upd = await runFormctl(['form', 'update', '1', '--file', file, '--yes'], { env });
    expect(upd.code, upd.stderr).toBe(0);
    expect(upd.stderr).toContain('(`formctl --profile ci-box form restore 1` puts it back)');
    const back = await runFormctl(['form', 'restore', '1', '--yes'], { env });
    expect(back.code, back.stderr).toBe(0);
  });

  it('member add for an existing member shows set-role with the profile', async () => {
    const add = await runFormctl(['member', 'add', 'bea@example.com', '--role', 'user', '-w', '1'], { env: fx.env });
    expect(add.code).toBe(0);
    const r = await runFormctl(['member', 'add', 'bea@example.com', '--role', 'readonly', '-w', '1'], {
      env: { ...fx.env, FORMCTL_PROFILE: 'ci-box' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toContain('run `formctl --profile ci-box member set-role -w 1 bea@example.com readonly`');
  });
});
