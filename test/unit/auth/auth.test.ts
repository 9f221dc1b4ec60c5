import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { authLoginRun } from '../../../src/commands/auth/login.js';
import { authLogoutRun } from '../../../src/commands/auth/logout.js';
import { authStatusRun } from '../../../src/commands/auth/status.js';
import { authTokenRun } from '../../../src/commands/auth/token.js';
import { CliError } from '../../../src/errors.js';
import { fakeIO } from '../../helpers/io.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';
import { scriptedPrompter, testConfig } from './fixtures.js';

const GOOD = 'tok_good_123456';

let server: StubServer;
let workspaces: unknown[] = [{ id: 7, name: 'Only' }];
beforeEach(async () => {
  workspaces = [{ id: 7, name: 'Only' }];
  server = await startStubServer((req, res) => {
    const auth = req.headers.authorization;
    // A token without abilities: who-am-I answers it all the same (it needs none), the rest is refused.
    if (auth === 'Bearer tok_noread' && req.url === '/external/zapier/validate') return json(res, 200, { name: 'Ada Admin', email: 'ada@example.com' });
    if (auth === 'Bearer tok_noread') return json(res, 403, { message: 'Invalid ability provided.' });
    if (auth !== `Bearer ${GOOD}`) return json(res, 401, { message: 'Unauthenticated.' });
    if (req.method === 'GET' && req.url === '/open/workspaces') return json(res, 200, workspaces);
    json(res, 404, { message: 'nope' });
  });
});
afterEach(async () => server.close());

async function exitOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 0;
  } catch (err) {
    if (err instanceof CliError) return err.exitCode;
    throw err;
  }
}

describe('auth login', () => {
  it('reads --with-token from stdin, verifies it, saves it and picks the only workspace', async () => {
    const t = await testConfig();
    const fio = fakeIO({ stdin: `  ${GOOD}\n` });
    await authLoginRun({ ...t, io: fio.io, prompter: () => scriptedPrompter().prompter, baseUrl: `${server.url}/`, withToken: true });
    // The second request asks whose the token is; this service has no such route (404), so the line names the profile only.
    expect(server.requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ['GET', '/open/workspaces', `Bearer ${GOOD}`],
      ['GET', '/external/zapier/validate', `Bearer ${GOOD}`],
    ]);
    expect(t.store.data).toEqual({
      currentProfile: 'default',
      profiles: { default: { baseUrl: server.url, token: GOOD, tokenOrigin: server.url, workspace: 7 } },
    });
    expect(fio.out()).toBe('');
    expect(fio.err()).toBe(`Logged in to ${new URL(server.url).host} as profile default\n`);
    await t.cleanup();
  });

  it('prompts with hidden input on a TTY and prints the ✓ lines', async () => {
    const t = await testConfig({ profile: 'work' });
    const fio = fakeIO({ tty: true });
    const { prompter, asked } = scriptedPrompter({ password: [GOOD] });
    await authLoginRun({ ...t, io: fio.io, prompter: () => prompter, baseUrl: server.url });
    const host = new URL(server.url).host;
    expect(asked).toEqual([`password: Personal access token for ${host}`]);
    expect(fio.out()).toBe(`✓ Logged in to ${host} as profile work\n✓ Default workspace: Only (id 7), the only one this token can see\n`);
    expect(t.store.profile('work')).toEqual({ baseUrl: server.url, token: GOOD, tokenOrigin: server.url, workspace: 7 });
    await t.cleanup();
  });

  it('keeps an existing default workspace and does not choose among several', async () => {
    const t = await testConfig();
    await t.store.saveProfile('default', { baseUrl: server.url, workspace: 3 });
    workspaces = [
      { id: 7, name: 'A' },
      { id: 8, name: 'B' },
    ];
    const fio = fakeIO({ stdin: GOOD });
    await authLoginRun({ ...t, io: fio.io, prompter: () => scriptedPrompter().prompter, withToken: true });
    expect(t.store.profile('default')).toEqual({ baseUrl: server.url, token: GOOD, tokenOrigin: server.url, workspace: 3 });
    await t.cleanup();
  });

  it('refuses to save a token the server rejects (exit 4)', async () => {
    const t = await testConfig();
    const fio = fakeIO({ stdin: 'tok_bad' });
    const code = await exitOf(authLoginRun({ ...t, io: fio.io, prompter: () => scriptedPrompter().prompter, baseUrl: server.url, withToken: true }));
    expect(code).toBe(4);
    expect(t.store.data.profiles).toEqual({});
    await t.cleanup();
  });

  it('saves a token that authenticates but lacks workspaces-read, with a warning', async () => {
    const t = await testConfig();
    const fio = fakeIO({ stdin: 'tok_noread' });
    await authLoginRun({ ...t, io: fio.io, prompter: () => scriptedPrompter().prompter, baseUrl: server.url, withToken: true });
    expect(t.store.profile('default')).toEqual({ baseUrl: server.url, token: 'tok_noread', tokenOrigin: server.url });
    // Piped, one line says whose the token is (the service answers who am I to any valid token).
    expect(fio.err()).toBe(
      `warning: This token cannot list workspaces (it lacks the workspaces-read ability); saving it anyway.\nLogged in to ${new URL(server.url).host} as Ada Admin (ada@example.com), profile default\n`,
    );
    await t.cleanup();
  });

  it('empty stdin is a usage error (exit 2) and sends nothing', async () => {
    const t = await testConfig();
    const fio = fakeIO({ stdin: ' \n' });
    expect(await exitOf(authLoginRun({ ...t, io: fio.io, prompter: () => scriptedPrompter().prompter, baseUrl: server.url, withToken: true }))).toBe(2);
    expect(server.requests).toHaveLength(0);
    await t.cleanup();
  });

  it('off a TTY without --with-token fails with exit 2 naming the flag', async () => {
    const t = await testConfig();
    const fio = fakeIO({ tty: false });
    const err = await authLoginRun({ ...t, io: fio.io, prompter: () => scriptedPrompter().prompter, baseUrl: server.url }).catch((e: CliError) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    expect((err as CliError).hint).toContain('--with-token');
    await t.cleanup();
  });

  it('rejects a base URL that is not http(s)', async () => {
    const t = await testConfig();
    const fio = fakeIO({ stdin: GOOD });
    expect(await exitOf(authLoginRun({ ...t, io: fio.io, prompter: () => scriptedPrompter().prompter, baseUrl: 'ftp://x', withToken: true }))).toBe(2);
    await t.cleanup();
  });
});

describe('auth status', () => {
  it('--json reports the stable fields with the token masked', async () => {
    const t = await testConfig();
    await t.store.saveProfile('default', { baseUrl: server.url, token: GOOD, workspace: 7 });
    const fio = fakeIO();
    await authStatusRun({ ...t, io: fio.io, json: true });
    expect(JSON.parse(fio.out())).toEqual({
      profile: 'default',
      base_url: server.url,
      base_url_source: 'profile',
      token_source: 'profile',
      token: 'tok_••••',
      workspace: 7,
      // This stub has no who-am-I route (an older server): the workspace list checked the token.
      account: null,
      valid: true,
      profiles: [{ profile: 'default', current: true, host: new URL(server.url).host, base_url: server.url, account: null, valid: true, error: null }],
    });
    expect(server.requests.map((r) => r.url)).toEqual(['/external/zapier/validate', '/open/workspaces']);
    expect(fio.out()).not.toContain(GOOD);
    await t.cleanup();
  });

  it('checks every saved profile at once; the exit code is the one in use; --profile narrows to it', async () => {
    const t = await testConfig();
    const host = new URL(server.url).host;
    await t.store.saveProfile('default', { baseUrl: server.url, token: GOOD });
    await t.store.saveProfile('ada', { baseUrl: server.url, token: 'tok_noread' });
    await t.store.saveProfile('old', { baseUrl: server.url, token: 'tok_revoked_999' });
    await t.store.saveProfile('elsewhere', { baseUrl: 'http://127.0.0.1:1', tokenOrigin: server.url, token: GOOD });
    const fio = fakeIO();
    await authStatusRun({ ...t, io: fio.io, json: ['profile', 'valid', 'profiles'] });
    const row = (profile: string, current: boolean, extra: object) => ({ profile, current, host, base_url: server.url, account: null, ...extra });
    expect(JSON.parse(fio.out())).toEqual({
      profile: 'default',
      valid: true,
      profiles: [
        row('ada', false, { account: { name: 'Ada Admin', email: 'ada@example.com' }, valid: true, error: null }),
        row('default', true, { valid: true, error: null }),
        // A saved token is never sent to another origin: the profile is reported without a request.
        {
          ...row('elsewhere', false, {}),
          host: '127.0.0.1:1',
          base_url: 'http://127.0.0.1:1',
          valid: false,
          error: `no token for this host (the saved one is for ${server.url})`,
        },
        row('old', false, { valid: false, error: 'token rejected (HTTP 401)' }),
      ],
    });
    const tty = fakeIO({ tty: true });
    await authStatusRun({ ...t, io: tty.io });
    expect(tty.out()).toMatch(/\nOther profiles:\nPROFILE\s+HOST\s+ACCOUNT\s+STATUS\nada\s+\S+\s+Ada Admin \(ada@example\.com\)\s+valid\n/);
    expect(tty.out()).toMatch(/\nold\s+\S+\s+-\s+not working: token rejected \(HTTP 401\)\n$/);

    const narrowed = await testConfig({ profile: 'old' });
    await narrowed.store.saveProfile('default', { baseUrl: server.url, token: GOOD });
    await narrowed.store.saveProfile('old', { baseUrl: server.url, token: 'tok_revoked_999' });
    const one = fakeIO();
    expect(await exitOf(authStatusRun({ ...narrowed, io: one.io, json: ['profiles'] }))).toBe(4);
    expect(JSON.parse(one.out()).profiles.map((p: { profile: string }) => p.profile)).toEqual(['old']);
    await t.cleanup();
    await narrowed.cleanup();
  });

  it('FORMCTL_PROFILE naming another profile than the current one: a note says it overrides it, and why the others are not shown', async () => {
    const t = await testConfig({ env: { FORMCTL_PROFILE: 'ada' } });
    await t.store.saveProfile('default', { baseUrl: server.url, token: GOOD });
    await t.store.saveProfile('ada', { baseUrl: server.url, token: 'tok_noread' });
    await t.store.setCurrent('default');
    const fio = fakeIO();
    await authStatusRun({ ...t, io: fio.io, json: ['profile', 'profiles'] });
    expect(JSON.parse(fio.out()).profiles.map((p: { profile: string }) => p.profile)).toEqual(['ada']);
    expect(fio.err()).toBe(
      'note: FORMCTL_PROFILE=ada overrides the current profile (default): only the profile it names is shown; unset it to see every profile.\n',
    );
    // Naming the current profile overrides nothing; --profile wins over the variable: no note either.
    for (const [env, profile] of [
      [{ FORMCTL_PROFILE: 'default' }, undefined],
      [{ FORMCTL_PROFILE: 'ada' }, 'default'],
    ] as const) {
      const u = await testConfig({ env, profile });
      await u.store.saveProfile('default', { baseUrl: server.url, token: GOOD });
      await u.store.saveProfile('ada', { baseUrl: server.url, token: 'tok_noread' });
      await u.store.setCurrent('default');
      const quiet = fakeIO();
      await authStatusRun({ ...u, io: quiet.io, json: ['profile'] });
      expect(quiet.err()).toBe('');
      await u.cleanup();
    }
    await t.cleanup();
  });

  it('names the account from who-am-I, in one request, for a token without workspaces-read', async () => {
    const t = await testConfig({ env: { FORMCTL_TOKEN: 'tok_noread', FORMCTL_BASE_URL: server.url } });
    const fio = fakeIO({ tty: true });
    await authStatusRun({ ...t, io: fio.io });
    expect(fio.out()).toBe(
      [
        `Profile    default`,
        `Base URL   ${server.url} (from FORMCTL_BASE_URL)`,
        `Token      tok_•••• (from FORMCTL_TOKEN)`,
        'Workspace  none (set one with `formctl workspace use <id>`)',
        'Account    Ada Admin (ada@example.com)',
        'Status     valid',
        '',
      ].join('\n'),
    );
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /external/zapier/validate']);
    const json = fakeIO();
    await authStatusRun({ ...t, io: json.io, json: ['account', 'valid'] });
    expect(JSON.parse(json.out())).toEqual({ account: { name: 'Ada Admin', email: 'ada@example.com' }, valid: true });
    await t.cleanup();
  });

  it('says where env values came from, and exits 4 when the token is rejected', async () => {
    const t = await testConfig({ env: { FORMCTL_TOKEN: 'tok_revoked_999', FORMCTL_BASE_URL: server.url } });
    const fio = fakeIO({ tty: true });
    const code = await exitOf(authStatusRun({ ...t, io: fio.io }));
    expect(code).toBe(4);
    expect(fio.out()).toBe(
      [
        `Profile    default`,
        `Base URL   ${server.url} (from FORMCTL_BASE_URL)`,
        `Token      tok_•••• (from FORMCTL_TOKEN)`,
        'Workspace  none (set one with `formctl workspace use <id>`)',
        'Status     not working: token rejected (HTTP 401)',
        '',
      ].join('\n'),
    );
    expect(fio.out()).not.toContain('revoked');
    await t.cleanup();
  });

  it('without a token prints valid:false and exits 4', async () => {
    const t = await testConfig();
    const fio = fakeIO();
    expect(await exitOf(authStatusRun({ ...t, io: fio.io, json: ['valid', 'token', 'error'] }))).toBe(4);
    expect(JSON.parse(fio.out())).toEqual({ valid: false, token: null, error: 'no token' });
    expect(server.requests).toHaveLength(0);
    await t.cleanup();
  });

  it('a network failure exits 11', async () => {
    const t = await testConfig({ env: { FORMCTL_TOKEN: GOOD, FORMCTL_BASE_URL: 'http://127.0.0.1:1' } });
    const fio = fakeIO();
    expect(await exitOf(authStatusRun({ ...t, io: fio.io, json: ['valid'] }))).toBe(11);
    expect(JSON.parse(fio.out())).toEqual({ valid: false });
    await t.cleanup();
  });
});

describe('auth logout and token', () => {
  it('token prints the raw token; logout removes it but keeps base URL and workspace', async () => {
    const t = await testConfig();
    await t.store.saveProfile('default', { baseUrl: server.url, token: GOOD, workspace: 7 });
    const a = fakeIO();
    await authTokenRun({ io: a.io, context: t.context });
    expect(a.out()).toBe(`${GOOD}\n`);
    const b = fakeIO({ tty: true });
    await authLogoutRun({ ...t, io: b.io });
    expect(b.out()).toBe(`✓ Logged out of profile default (the token was removed from ${t.store.path})\n`);
    expect(t.store.profile('default')).toEqual({ baseUrl: server.url, workspace: 7 });
    const c = fakeIO();
    expect(await exitOf(authTokenRun({ io: c.io, context: t.context }))).toBe(4);
    expect(c.out()).toBe('');
    await t.cleanup();
  });

  it('logout of an unknown profile is a usage error', async () => {
    const t = await testConfig({ profile: 'ghost' });
    expect(await exitOf(authLogoutRun({ ...t, io: fakeIO().io }))).toBe(2);
    await t.cleanup();
  });

  it('logout warns that FORMCTL_TOKEN still applies', async () => {
    const t = await testConfig({ env: { FORMCTL_TOKEN: GOOD } });
    await t.store.saveProfile('default', { baseUrl: server.url, token: GOOD });
    const fio = fakeIO();
    await authLogoutRun({ ...t, io: fio.io });
    expect(fio.err()).toBe('warning: FORMCTL_TOKEN is still set in the environment, so commands keep using it.\n');
    await t.cleanup();
  });
});

describe('auth login with a base URL that has a path', () => {
  // Laravel's router answers a path it has no route for with 404 "The route <path> could not be
  // found." (the path without its first slash); OpnForm's docker image strips /api first (nginx).
  let laravel: StubServer;
  let stripsApi = false;
  beforeEach(async () => {
    stripsApi = false;
    laravel = await startStubServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const seen = stripsApi ? path.replace(/^\/api(?=\/)/, '') : path;
      if (seen === '/open/workspaces') return json(res, 200, [{ id: 7, name: 'Only' }]);
      json(res, 404, { message: `The route ${seen.slice(1)} could not be found.` });
    });
  });
  afterEach(async () => laravel.close());

  async function login(baseUrl: string): Promise<CliError | undefined> {
    const t = await testConfig();
    try {
      await authLoginRun({ ...t, io: fakeIO({ stdin: GOOD }).io, prompter: () => scriptedPrompter().prompter, baseUrl, withToken: true });
      return undefined;
    } catch (err) {
      return err as CliError;
    } finally {
      await t.cleanup();
    }
  }

  it('a base URL ending in /api where the service has no routes: exit 6, and the hint names the base URL without it', async () => {
    for (const suffix of ['/api', '/api/']) {
      const err = await login(`${laravel.url}${suffix}`);
      expect(err?.exitCode).toBe(6);
      expect(err?.message).toBe('The route api/open/workspaces could not be found. (HTTP 404, GET /api/open/workspaces)');
      expect(err?.hint).toBe(
        `The base URL ends in /api, and this service has no routes under it: formctl adds the API paths (/open/…) to the base URL itself. Use the base URL without /api: ${laravel.url}`,
      );
    }
    const other = await login(`${laravel.url}/v1`);
    expect(other?.hint).toBe(
      `This service has no routes under the base URL's path (/v1/): formctl adds the API paths (/open/…) to the base URL itself. Check the base URL (OpnForm's API paths start at the host: ${laravel.url}).`,
    );
  });

  it("behind OpnForm's own nginx (which strips /api) such a base URL works, and a missing route keeps the usual hint", async () => {
    stripsApi = true;
    expect(await login(`${laravel.url}/api`)).toBeUndefined();
    const client = new ApiClient({ baseUrl: `${laravel.url}/api`, token: GOOD, userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const err = (await client.request({ path: '/open/nothing' }).catch((e: unknown) => e)) as CliError;
      expect(err.hint).toBe('Check the path and the ids in it.');
    } finally {
      await client.close();
    }
  });
});
