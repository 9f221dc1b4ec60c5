import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { sandboxForTest, useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

const fx = useSandboxFixture();

describe('auth and profiles end to end', () => {
  it('login --with-token verifies, saves 0600/0700, picks the only workspace; status/token/logout follow', async () => {
    const login = await runFormctl(['auth', 'login', '--profile', 'local', '--base-url', fx.sb.url, '--with-token'], {
      env: fx.home.env,
      input: `${fx.sb.tokens.all}\n`,
    });
    // Piped: stdout stays empty, and one line on stderr says whose the token is (the sandbox answers who am I).
    expect(login).toEqual({ code: 0, stdout: '', stderr: `Logged in to ${new URL(fx.sb.url).host} as Ada Admin (admin@example.com), profile local\n` });
    const file = join(fx.home.env.FORMCTL_CONFIG_DIR!, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(fx.home.env.FORMCTL_CONFIG_DIR!).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      currentProfile: 'local',
      profiles: { local: { baseUrl: fx.sb.url, token: fx.sb.tokens.all, tokenOrigin: fx.sb.url, workspace: fx.sb.workspaceId } },
    });

    const status = await runFormctl(['auth', 'status', '--json'], { env: fx.home.env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual({
      profile: 'local',
      base_url: fx.sb.url,
      base_url_source: 'profile',
      token_source: 'profile',
      token: `${fx.sb.tokens.all.slice(0, 4)}••••`,
      workspace: fx.sb.workspaceId,
      account: { name: 'Ada Admin', email: 'admin@example.com' },
      valid: true,
      profiles: [
        {
          profile: 'local',
          current: true,
          host: new URL(fx.sb.url).host,
          base_url: fx.sb.url,
          account: { name: 'Ada Admin', email: 'admin@example.com' },
          valid: true,
          error: null,
        },
      ],
    });
    expect(status.stdout + status.stderr).not.toContain(fx.sb.tokens.all);

    const token = await runFormctl(['auth', 'token'], { env: fx.home.env });
    expect(token).toEqual({ code: 0, stdout: `${fx.sb.tokens.all}\n`, stderr: '' });

    const path = await runFormctl(['config', 'path'], { env: fx.home.env });
    expect(path.stdout).toBe(`${file}\n`);

    const logout = await runFormctl(['auth', 'logout'], { env: fx.home.env });
    expect(logout.code).toBe(0);
    const after = await runFormctl(['auth', 'status'], { env: fx.home.env });
    expect(after.code).toBe(4);
    expect(after.stderr).toBe('error: Not logged in (profile "local").\nhint: Run `formctl auth login`, or set FORMCTL_TOKEN (and FORMCTL_BASE_URL) in CI.\n');
  });

  it('a rejected token is not saved (exit 4); no TTY and no --with-token is exit 2', async () => {
    const h = tempHome();
    const bad = await runFormctl(['auth', 'login', '--base-url', fx.sb.url, '--with-token'], { env: h.env, input: 'fsk_not_a_real_token' });
    expect(bad.code).toBe(4);
    expect(bad.stderr.split('\n')[0]).toBe(`error: ${new URL(fx.sb.url).host} rejected this token (HTTP 401); nothing was saved.`);
    expect(bad.stderr).not.toContain('fsk_not_a_real_token');
    const noTty = await runFormctl(['auth', 'login', '--base-url', fx.sb.url], { env: h.env });
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain('--with-token');
    const list = await runFormctl(['profile', 'list', '--json'], { env: h.env });
    expect(list.stdout).toBe('[]\n');
    h.cleanup();
  });

  it('FORMCTL_TOKEN and FORMCTL_BASE_URL fx.work without any profile (CI) and status says so', async () => {
    const h = tempHome();
    const r = await runFormctl(['auth', 'status', '--json', 'token_source,base_url_source,valid'], { env: { ...h.env, ...fx.sb.env } });
    expect([r.code, JSON.parse(r.stdout)]).toEqual([0, { token_source: 'env', base_url_source: 'env', valid: true }]);
    const ro = await runFormctl(['workspace', 'create', '--name', 'Nope'], { env: { ...h.env, ...fx.sb.env, FORMCTL_TOKEN: fx.sb.tokens.readonly } });
    expect(ro.code).toBe(5);
    h.cleanup();
  });

  it('profile list / use / remove across two profiles', async () => {
    const h = tempHome();
    for (const p of ['a', 'b']) {
      const r = await runFormctl(['--profile', p, 'auth', 'login', '--base-url', fx.sb.url, '--with-token'], { env: h.env, input: fx.sb.tokens.all });
      expect(r.code).toBe(0);
    }
    expect((await runFormctl(['profile', 'list'], { env: h.env })).stdout).toBe(
      `a\t${fx.sb.url}\t${fx.sb.workspaceId}\tsaved\t*\nb\t${fx.sb.url}\t${fx.sb.workspaceId}\tsaved\t\n`,
    );
    expect((await runFormctl(['profile', 'use', 'b'], { env: h.env })).code).toBe(0);
    expect((await runFormctl(['config', 'get', 'base_url'], { env: h.env })).stdout).toBe(`${fx.sb.url}\n`);
    const rm = await runFormctl(['profile', 'remove', 'b'], { env: h.env });
    expect(rm.code).toBe(2);
    expect((await runFormctl(['profile', 'remove', 'b', '--yes'], { env: h.env })).code).toBe(0);
    const left = await runFormctl(['profile', 'list', '--json', 'name,current'], { env: h.env });
    expect(JSON.parse(left.stdout)).toEqual([{ name: 'a', current: true }]);
    h.cleanup();
  });
});

describe.each(FLAVORS)('auth status names the account (%s flavour)', (flavor) => {
  it('from who-am-I, also for a token without workspaces-read', async () => {
    const { sb: box } = await sandboxForTest({ flavor });
    const bare = box.admin.createToken('admin@example.com', []);
    const r = await runFormctl(['auth', 'status'], { env: { ...fx.home.env, FORMCTL_BASE_URL: box.url, FORMCTL_TOKEN: bare } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('account\tAda Admin (admin@example.com)\n');
    expect(r.stdout).toContain('status\tvalid\n');
  });
});
