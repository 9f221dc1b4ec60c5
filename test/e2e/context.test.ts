import { afterEach, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
let home: ReturnType<typeof tempHome> | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  home?.cleanup();
  home = undefined;
});

describe('profile, workspace and token resolution errors', () => {
  it('a mistyped --profile or FORMCTL_PROFILE is named as such, with the saved profiles', async () => {
    sb = await startTestSandbox();
    home = tempHome();
    const login = await runFormctl(['--profile', 'work', 'auth', 'login', '--base-url', sb.url, '--with-token'], { env: home.env, input: sb.tokens.all });
    expect(login.code).toBe(0);

    const flag = await runFormctl(['--profile', 'wrok', 'form', 'list'], { env: home.env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'error: No profile named "wrok" (from --profile).\nhint: Saved profiles: work. To create this one: formctl --profile wrok auth login\n',
    );

    const env = await runFormctl(['workspace', 'list'], { env: { ...home.env, FORMCTL_PROFILE: 'wrok' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('error: No profile named "wrok" (from FORMCTL_PROFILE).');

    // FORMCTL_TOKEN needs no profile at all (CI).
    const ci = await runFormctl(['--profile', 'ci', 'workspace', 'list'], { env: { ...home.env, FORMCTL_BASE_URL: sb.url, FORMCTL_TOKEN: sb.tokens.all } });
    expect(ci.code).toBe(0);
  });

  it('a non-numeric FORMCTL_WORKSPACE is an error, not silently ignored', async () => {
    sb = await startTestSandbox();
    home = tempHome();
    const r = await runFormctl(['form', 'list'], { env: { ...home.env, ...sb.env, FORMCTL_WORKSPACE: 'abc' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: FORMCTL_WORKSPACE must be a whole number from 1 to 9007199254740991, got "abc".\nhint: See `formctl workspace list`, or unset it.\n',
    );
  });

  it('a rejected FORMCTL_TOKEN gets a hint about FORMCTL_TOKEN, not about logging in', async () => {
    sb = await startTestSandbox();
    home = tempHome();
    const r = await runFormctl(['workspace', 'list'], { env: { ...home.env, FORMCTL_BASE_URL: sb.url, FORMCTL_TOKEN: 'fsk_revoked' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: .+\(HTTP 401, GET \/open\/workspaces\)\n/);
    expect(r.stderr).toMatch(/\nhint: FORMCTL_TOKEN is set and overrides the profile's token: set it to a valid token, or unset it\.\n$/);
    expect(r.stderr).not.toContain('fsk_revoked');
  });

  it('deleting or leaving the default workspace forgets it in the profile, and says so', async () => {
    sb = await startTestSandbox();
    home = tempHome();
    expect((await runFormctl(['auth', 'login', '--base-url', sb.url, '--with-token'], { env: home.env, input: sb.tokens.all })).code).toBe(0);
    const created = await runFormctl(['workspace', 'create', '--name', 'Scratch'], { env: home.env });
    const id = created.stdout.trim();
    expect(id).toMatch(/^\d+$/);
    expect((await runFormctl(['workspace', 'use', id], { env: home.env })).code).toBe(0);
    const del = await runFormctl(['workspace', 'delete', id, '--yes'], { env: home.env });
    expect(del.code).toBe(0);
    expect(del.stderr).toBe(`note: workspace ${id} was the default of profile default; it has none now (pick one with \`formctl workspace use <id>\`).\n`);
    const get = await runFormctl(['config', 'get', 'workspace'], { env: home.env });
    expect(get.stdout.trim()).toBe('');
    // Another workspace than the default: nothing to forget, nothing said.
    const other = (await runFormctl(['workspace', 'create', '--name', 'Other'], { env: home.env })).stdout.trim();
    expect((await runFormctl(['workspace', 'use', String(sb.workspaceId)], { env: home.env })).code).toBe(0);
    const del2 = await runFormctl(['workspace', 'delete', other, '--yes'], { env: home.env });
    expect(del2.code).toBe(0);
    expect(del2.stderr).toBe('');
  });
});
