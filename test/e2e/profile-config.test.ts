import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// Profiles as the built binary reads, resolves and names them. A home of its own for each test.
const fx = useSandboxFixture({ homePerTest: true });

function configFile(): string {
  return join(fx.home.env.FORMCTL_CONFIG_DIR!, 'config.json');
}

/** Writes config.json by hand, as a user editing it would. */
function writeConfig(data: unknown): void {
  mkdirSync(fx.home.env.FORMCTL_CONFIG_DIR!, { recursive: true });
  writeFileSync(configFile(), JSON.stringify(data), { mode: 0o600 });
}

function readConfig(): unknown {
  return JSON.parse(readFileSync(configFile(), 'utf8'));
}

/** Logs profile `name` in to the test sandbox. */
async function login(name: string): Promise<void> {
  const r = await runFormctl(['--profile', name, 'auth', 'login', '--base-url', fx.sb.url, '--with-token'], { env: fx.home.env, input: fx.sb.tokens.all });
  expect([r.code, r.stderr]).toEqual([0, expect.stringContaining('Logged in to')]);
}

describe('an empty profile name', () => {
  it("--profile '' is refused (exit 2) before anything is done; it logged the current profile out", async () => {
    await login('a');
    const before = readConfig();
    for (const args of [
      ['auth', 'logout'],
      ['auth', 'status'],
      ['config', 'set', 'workspace', '3'],
      ['workspace', 'list'],
    ]) {
      const r = await runFormctl(['--profile', '', ...args], { env: fx.home.env });
      expect([r.code, r.stdout, r.stderr], args.join(' ')).toEqual([
        2,
        '',
        'error: --profile "" cannot be a profile name.\n' +
          'hint: Use 1 to 64 ASCII letters, digits, ".", "_" and "-", not starting with "-", other than "." and ".." (the name is also a directory name); profiles already saved under other names stay usable (see `formctl profile list`).\n',
      ]);
    }
    expect(readConfig()).toEqual(before);
  });

  it('an empty FORMCTL_PROFILE is unset, as an empty FORMCTL_TOKEN or FORMCTL_BASE_URL is: the current profile is used', async () => {
    await login('a');
    const r = await runFormctl(['config', 'get', 'base_url'], { env: { ...fx.home.env, FORMCTL_PROFILE: '' } });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, `${fx.sb.url}\n`, '']);
    const s = await runFormctl(['auth', 'status', '--json', 'profile,valid'], { env: { ...fx.home.env, FORMCTL_PROFILE: '' } });
    expect([s.code, JSON.parse(s.stdout)]).toEqual([0, { profile: 'a', valid: true }]);
  });
});

describe('a hand-edited config.json with a field of the wrong type', () => {
  it('a number for the token: a one-line exit-2 error naming the field, the profile and the file, never the value; nothing is sent', async () => {
    writeConfig({ profiles: { a: { baseUrl: fx.sb.url, token: 987654321 } }, currentProfile: 'a' });
    const error =
      `error: Profile "a" in ${configFile()}: "token" must be a string (the value is not shown here).\n` +
      'hint: Save a good one: formctl --profile a auth login (or remove it: formctl --profile a auth logout), or fix the file by hand.\n';
    for (const args of [
      ['config', 'list'],
      ['config', 'get', 'base_url'],
      ['auth', 'token'],
      ['--debug', 'workspace', 'list'],
    ]) {
      const r = await runFormctl(args, { env: fx.home.env });
      expect([r.code, r.stdout], args.join(' ')).toEqual([2, '']);
      // --debug adds the stack after the two lines; no request line, and the value appears nowhere.
      expect(r.stderr.startsWith(error), `${args.join(' ')}: ${r.stderr}`).toBe(true);
      expect(r.stderr).not.toMatch(/^\[debug\] > /m);
      expect(r.stderr).not.toContain('987654321');
    }
    const status = await runFormctl(['auth', 'status', '--json', 'valid,error'], { env: fx.home.env });
    expect([status.code, JSON.parse(status.stdout), status.stderr]).toEqual([
      2,
      { valid: false, error: 'the saved profile has a field of the wrong type' },
      error,
    ]);

    // The commands the hint names repair it: logout removes the token whatever its type, login saves a good one.
    const logout = await runFormctl(['auth', 'logout'], { env: fx.home.env });
    expect(logout.code).toBe(0);
    expect(readConfig()).toEqual({ currentProfile: 'a', profiles: { a: { baseUrl: fx.sb.url } } });
    writeConfig({ profiles: { a: { baseUrl: fx.sb.url, token: 987654321 } }, currentProfile: 'a' });
    await login('a');
    expect((await runFormctl(['workspace', 'list'], { env: fx.home.env })).code).toBe(0);
  });

  it('text for the default workspace is refused as -w abc is, before any request; config set workspace repairs it, and other profiles still work', async () => {
    await login('good');
    const file = readConfig() as { profiles: Record<string, object> };
    writeConfig({ ...file, profiles: { ...file.profiles, bad: { baseUrl: fx.sb.url, token: fx.sb.tokens.all, workspace: 'abc' } } });
    const r = await runFormctl(['--profile', 'bad', '--debug', 'form', 'list'], { env: fx.home.env });
    expect(r.code).toBe(2);
    const error =
      `error: Profile "bad" in ${configFile()}: "workspace" must be a workspace id (a whole number from 1 to 9007199254740991), not "abc".\n` +
      'hint: Save a good one: formctl --profile bad config set workspace <id> ("" clears it), or fix the file by hand.\n';
    expect(r.stderr.startsWith(error), r.stderr).toBe(true);
    expect(r.stderr).not.toMatch(/^\[debug\] > /m);
    // The sound profile is untouched by its neighbour, and sees it as not working in auth status.
    const status = await runFormctl(['auth', 'status', '--json', 'valid,profiles'], { env: fx.home.env });
    const parsed = JSON.parse(status.stdout) as { valid: boolean; profiles: { profile: string; error: string | null }[] };
    expect([status.code, parsed.valid, parsed.profiles.map((p) => [p.profile, p.error])]).toEqual([
      0,
      true,
      [
        ['bad', 'the saved profile has a field of the wrong type'],
        ['good', null],
      ],
    ]);
    expect((await runFormctl(['--profile', 'bad', 'config', 'set', 'workspace', String(fx.sb.workspaceId)], { env: fx.home.env })).code).toBe(0);
    expect((await runFormctl(['--profile', 'bad', 'form', 'list'], { env: fx.home.env })).code).toBe(0);
  });

  it('a file whose profiles or current profile are of the wrong type is refused as a whole (exit 2), and left as it is', async () => {
    for (const [data, field] of [
      [{ profiles: [] }, '"profiles" must be an object of profiles by name.'],
      [{ profiles: {}, currentProfile: 5 }, '"currentProfile" must be a profile name (a string).'],
    ] as const) {
      writeConfig(data);
      const r = await runFormctl(['--profile', 'x', 'config', 'set', 'base_url', fx.sb.url], { env: fx.home.env });
      expect([r.code, r.stderr]).toEqual([
        2,
        `error: The config file ${configFile()}: ${field}\nhint: Fix the file by hand (it holds your profiles), or point FORMCTL_CONFIG_DIR elsewhere.\n`,
      ]);
      expect(readConfig()).toEqual(data);
    }
  });
});

describe('hints name the command for the profile they are about', () => {
  const down = 'http://127.0.0.1:9';

  it('a profile chosen with --profile or FORMCTL_PROFILE gets `--profile NAME` in every command a hint names, quoted as a shell needs it', async () => {
    writeConfig({
      currentProfile: 'cur',
      profiles: {
        cur: { baseUrl: down, token: 'tok_current_1234', tokenOrigin: down },
        tty: { baseUrl: down },
        'a b': { baseUrl: down, token: 'tok_a_space_1234', tokenOrigin: down },
      },
    });
    const noToken = await runFormctl(['--profile', 'tty', 'auth', 'status'], { env: fx.home.env });
    expect(noToken.code).toBe(4);
    expect(noToken.stdout).toContain('none (set one with `formctl --profile tty workspace use <id>`)');
    expect(noToken.stderr).toBe(
      'error: Not logged in (profile "tty").\nhint: Run `formctl --profile tty auth login`, or set FORMCTL_TOKEN (and FORMCTL_BASE_URL) in CI.\n',
    );
    const token = await runFormctl(['auth', 'token'], { env: { ...fx.home.env, FORMCTL_PROFILE: 'tty' } });
    expect([token.code, token.stderr]).toEqual([4, 'error: No token (profile "tty").\nhint: Run `formctl --profile tty auth login`, or set FORMCTL_TOKEN.\n']);
    const ws = await runFormctl(['--profile', 'tty', 'form', 'list'], { env: fx.home.env });
    expect(ws.stderr).toContain('Or set a default: formctl --profile tty config set workspace <id> (see formctl --profile tty workspace list).');

    // The service is down: the hint to change the base URL logs that profile in, quoted.
    const spaced = await runFormctl(['--profile', 'a b', 'auth', 'status'], { env: fx.home.env });
    expect(spaced.code).toBe(11);
    expect(spaced.stderr).toContain("It comes from the profile (change it with `formctl --profile 'a b' auth login --base-url <url>`).");
    // The current profile's hints need no flag.
    const current = await runFormctl(['auth', 'status'], { env: fx.home.env });
    expect(current.code).toBe(11);
    expect(current.stderr).toContain('(change it with `formctl auth login --base-url <url>`).');

    // A login into a profile that is not the current one names the switch, quoted.
    const login = await runFormctl(['--profile', 'a b', 'auth', 'login', '--base-url', fx.sb.url, '--with-token'], {
      env: fx.home.env,
      input: fx.sb.tokens.all,
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toContain("note: Profile a b is not the current one; switch with `formctl profile use 'a b'`.");
    const empty = await runFormctl(['--profile', 'a b', 'auth', 'login', '--with-token'], { env: fx.home.env, input: '' });
    expect(empty.stderr).toBe("error: No token on stdin.\nhint: Pipe the token in: `printenv MY_TOKEN | formctl --profile 'a b' auth login --with-token`.\n");
  });

  it('config set on another profile names that profile in its note and its hint', async () => {
    await login('cur');
    await login('other');
    const set = await runFormctl(['--profile', 'other', 'config', 'set', 'base_url', down], { env: fx.home.env });
    expect(set.stderr).toContain('choose one on the new service: formctl --profile other workspace use <id>.');
    const bad = await runFormctl(['--profile', 'other', 'config', 'set', 'workspace', 'abc'], { env: fx.home.env });
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'error: workspace must be a whole number from 1 to 9007199254740991, got "abc".\nhint: See `formctl --profile other workspace list`.\n',
    ]);
  });
});

describe('a --profile or FORMCTL_PROFILE that names no saved profile', () => {
  it('is exit 2 "No profile named …" with the saved profiles for every command that uses it (auth status and auth token said exit 4 "Not logged in")', async () => {
    await login('work');
    const hint = 'hint: Saved profiles: work. To create this one: formctl --profile wrok auth login\n';
    for (const args of [
      ['auth', 'status'],
      ['auth', 'status', '--json'],
      ['auth', 'token'],
      ['auth', 'logout'],
      ['config', 'get', 'base_url'],
      ['config', 'list'],
      ['workspace', 'list'],
    ]) {
      const r = await runFormctl(['--profile', 'wrok', ...args], { env: fx.home.env });
      expect([r.code, r.stdout, r.stderr], args.join(' ')).toEqual([2, '', `error: No profile named "wrok" (from --profile).\n${hint}`]);
      const e = await runFormctl(args, { env: { ...fx.home.env, FORMCTL_PROFILE: 'wrok' } });
      expect([e.code, e.stdout, e.stderr], args.join(' ')).toEqual([2, '', `error: No profile named "wrok" (from FORMCTL_PROFILE).\n${hint}`]);
    }
    // The commands that create a profile still do.
    await login('new');
    const set = await runFormctl(['--profile', 'ci', 'config', 'set', 'base_url', fx.sb.url], { env: fx.home.env });
    expect(set.code).toBe(0);
    expect(Object.keys((readConfig() as { profiles: object }).profiles).sort()).toEqual(['ci', 'new', 'work']);
  });
});

describe('profile list says whether a token can be used', () => {
  it('a token saved for another origin than the base URL now (config set base_url) is not logged in, as auth status says', async () => {
    await login('ok');
    await login('ft');
    expect((await runFormctl(['--profile', 'ft', 'config', 'set', 'base_url', 'http://127.0.0.1:9'], { env: fx.home.env })).code).toBe(0);
    const json = await runFormctl(['profile', 'list', '--json', 'name,logged_in'], { env: fx.home.env });
    expect([json.code, JSON.parse(json.stdout)]).toEqual([
      0,
      [
        { name: 'ft', logged_in: false },
        { name: 'ok', logged_in: true },
      ],
    ]);
    const piped = await runFormctl(['profile', 'list'], { env: fx.home.env });
    expect(piped.stdout).toBe(`ft\thttp://127.0.0.1:9\t\tfor another host\t\nok\t${fx.sb.url}\t${fx.sb.workspaceId}\tsaved\t*\n`);
    const status = await runFormctl(['--profile', 'ft', 'auth', 'status', '--json', 'token_source'], { env: fx.home.env });
    expect([status.code, JSON.parse(status.stdout)]).toEqual([4, { token_source: 'none' }]);
  });
});

describe('profile names', () => {
  it('a name that is not a plain word (a b, x/y, ../etc, ..) is refused as the hint says: it is also a directory name (form backups)', async () => {
    const hint =
      'hint: Use 1 to 64 ASCII letters, digits, ".", "_" and "-", not starting with "-", other than "." and ".." (the name is also a directory name); profiles already saved under other names stay usable (see `formctl profile list`).\n';
    for (const name of ['a b', 'x/y', '../etc', '..', 'café']) {
      const set = await runFormctl(['--profile', name, 'config', 'set', 'base_url', fx.sb.url], { env: fx.home.env });
      expect([set.code, set.stderr], name).toEqual([2, `error: --profile ${JSON.stringify(name)} cannot be a profile name.\n${hint}`]);
      // sandbox --profile-name takes a name saved by an older formctl as --profile does
      // (docs/sandbox.md), so its hint is the same.
      const sb = await runFormctl(['sandbox', '--port', '0', '--profile-name', name], { env: fx.home.env });
      expect([sb.code, sb.stderr], name).toEqual([2, `error: --profile-name ${JSON.stringify(name)} cannot be a profile name.\n${hint}`]);
    }
    expect(() => readConfig()).toThrow(/ENOENT/);
  });

  it('a name saved before (my box) can still be used, logged in again and removed', async () => {
    writeConfig({ currentProfile: 'my box', profiles: { 'my box': { baseUrl: fx.sb.url } } });
    await login('my box');
    expect((await runFormctl(['--profile', 'my box', 'workspace', 'list'], { env: fx.home.env })).code).toBe(0);
    expect((await runFormctl(['profile', 'remove', 'my box', '--yes'], { env: fx.home.env })).code).toBe(0);
    expect(readConfig()).toEqual({ profiles: {} });
  });

  it('a saved name that even the saved-name exception refuses (leading "-") gets a hint saying so, not the rule for new names', async () => {
    writeConfig({ profiles: { '-old': { baseUrl: fx.sb.url } } });
    const r = await runFormctl(['--profile=-old', 'workspace', 'list'], { env: fx.home.env });
    expect([r.code, r.stderr]).toEqual([
      2,
      'error: --profile "-old" cannot be a profile name.\n' +
        'hint: A saved profile is usable under any name but one that is empty, starts with "-" or holds a control character: rename it in the config file by hand.\n',
    ]);
  });
});

describe('a base URL formctl cannot use', () => {
  it('another scheme (ftp://) gets a hint naming what is taken: https://, or http:// for a loopback address', async () => {
    const login = await runFormctl(['auth', 'login', '--base-url', 'ftp://foo', '--with-token'], { env: fx.home.env, input: 'tok_abcdefgh' });
    expect([login.code, login.stderr]).toEqual([
      2,
      'error: Unsupported base URL scheme ftp: (use https://).\n' +
        'hint: Use an https:// URL such as https://api.opnform.com, or http:// for a loopback address (a local sandbox, http://127.0.0.1:8787).\n',
    ]);
    const set = await runFormctl(['config', 'set', 'base_url', 'https://forms.example.com/api?x=1'], { env: fx.home.env });
    expect([set.code, set.stderr]).toEqual([
      2,
      "error: The base URL must not have a query or fragment: https://forms.example.com/api?x=1\nhint: Pass the service's URL alone, such as https://forms.example.com/api\n",
    ]);
  });
});

describe('auth status piped', () => {
  it("another profile's line starts with `other profile`, so a profile named status or token is not taken for the key of that name", async () => {
    await login('cur');
    await login('status');
    expect((await runFormctl(['profile', 'use', 'cur'], { env: fx.home.env })).code).toBe(0);
    writeConfig({ ...(readConfig() as object), profiles: { ...(readConfig() as { profiles: object }).profiles, token: { baseUrl: 'http://127.0.0.1:9' } } });
    const r = await runFormctl(['auth', 'status'], { env: fx.home.env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('status\t'))).toEqual(['status\tvalid']);
    expect(lines.filter((l) => l.startsWith('token\t'))).toEqual(['token\tfsk_•••• (from the profile)']);
    expect(lines.filter((l) => l.startsWith('other profile\t'))).toEqual([
      `other profile\tstatus\t${new URL(fx.sb.url).host}\tAda Admin (admin@example.com)\tvalid`,
      'other profile\ttoken\t127.0.0.1:9\t\tnot working: no token',
    ]);
  });
});
