import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// Each test logs in, saves profiles or deletes a workspace: a fresh home and sandbox each.
const fx = useSandboxFixture({ perTest: true });

describe('profile, workspace and token resolution errors', () => {
  it('a mistyped --profile or FORMCTL_PROFILE is named as such, with the saved profiles', async () => {
    const login = await runFormctl(['--profile', 'work', 'auth', 'login', '--base-url', fx.sb.url, '--with-token'], {
      env: fx.home.env,
      input: fx.sb.tokens.all,
    });
    expect(login.code).toBe(0);

    const flag = await runFormctl(['--profile', 'wrok', 'form', 'list'], { env: fx.home.env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'error: No profile named "wrok" (from --profile).\nhint: Saved profiles: work. To create this one: formctl --profile wrok auth login\n',
    );

    const env = await runFormctl(['workspace', 'list'], { env: { ...fx.home.env, FORMCTL_PROFILE: 'wrok' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('error: No profile named "wrok" (from FORMCTL_PROFILE).');

    // FORMCTL_TOKEN needs no profile at all (CI).
    const ci = await runFormctl(['--profile', 'ci', 'workspace', 'list'], {
      env: { ...fx.home.env, FORMCTL_BASE_URL: fx.sb.url, FORMCTL_TOKEN: fx.sb.tokens.all },
    });
    expect(ci.code).toBe(0);
  });

  it('a non-numeric FORMCTL_WORKSPACE is an error, not silently ignored', async () => {
    const r = await runFormctl(['form', 'list'], { env: { ...fx.env, FORMCTL_WORKSPACE: 'abc' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: FORMCTL_WORKSPACE must be a whole number from 1 to 9007199254740991, got "abc".\nhint: See `formctl workspace list`, or unset it.\n',
    );
  });

  it('a rejected FORMCTL_TOKEN gets a hint about FORMCTL_TOKEN, not about logging in', async () => {
    const r = await runFormctl(['workspace', 'list'], { env: { ...fx.home.env, FORMCTL_BASE_URL: fx.sb.url, FORMCTL_TOKEN: 'fsk_revoked' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: .+\(HTTP 401, GET \/open\/workspaces\)\n/);
    expect(r.stderr).toMatch(/\nhint: FORMCTL_TOKEN is set and overrides the profile's token: set it to a valid token, or unset it\.\n$/);
    expect(r.stderr).not.toContain('fsk_revoked');
  });

  it('deleting or leaving the default workspace forgets it in the profile, and says so', async () => {
    expect((await runFormctl(['auth', 'login', '--base-url', fx.sb.url, '--with-token'], { env: fx.home.env, input: fx.sb.tokens.all })).code).toBe(0);
    const created = await runFormctl(['workspace', 'create', '--name', 'Scratch'], { env: fx.home.env });
    const id = created.stdout.trim();
    expect(id).toMatch(/^\d+$/);
    expect((await runFormctl(['workspace', 'use', id], { env: fx.home.env })).code).toBe(0);
    const del = await runFormctl(['workspace', 'delete', id, '--yes'], { env: fx.home.env });
    expect(del.code).toBe(0);
    expect(del.stderr).toBe(`note: workspace ${id} was the default of profile default; it has none now (pick one with \`formctl workspace use <id>\`).\n`);
    const get = await runFormctl(['config', 'get', 'workspace'], { env: fx.home.env });
    expect(get.stdout.trim()).toBe('');
    // Another workspace than the default: nothing to forget, nothing said.
    const other = (await runFormctl(['workspace', 'create', '--name', 'Other'], { env: fx.home.env })).stdout.trim();
    expect((await runFormctl(['workspace', 'use', String(fx.sb.workspaceId)], { env: fx.home.env })).code).toBe(0);
    const del2 = await runFormctl(['workspace', 'delete', other, '--yes'], { env: fx.home.env });
    expect(del2.code).toBe(0);
    expect(del2.stderr).toBe('');
  });
});
