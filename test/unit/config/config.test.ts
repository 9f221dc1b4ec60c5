import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configGetRun } from '../../../src/commands/config/get.js';
import { configListRun } from '../../../src/commands/config/list.js';
import { configPathRun } from '../../../src/commands/config/path.js';
import { configSetRun } from '../../../src/commands/config/set.js';
import { resolveContext } from '../../../src/config/resolve.js';
import { ConfigStore, originOf } from '../../../src/config/store.js';
import { CliError } from '../../../src/errors.js';
import { fakeIO } from '../../helpers/io.js';
import { testConfig } from '../auth/fixtures.js';

describe('config store', () => {
  it('originOf: the one rule for the origin a token is bound to (the store saves it, the resolver compares it)', () => {
    expect(originOf('https://api.opnform.com/some/path?q=1')).toBe('https://api.opnform.com');
    expect(originOf('http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787');
    expect(originOf('not a url')).toBeUndefined();
  });

  it('a profile name that cannot be stored or typed is refused everywhere it is taken (exit 2), never "saved" into nothing', async () => {
    const t = await testConfig();
    // A name is also a directory name (form backups): `a b`, `x/y`, `../etc`, `.` would be rewritten into another's.
    for (const name of ['__proto__', 'constructor', 'toString', '-x', 'a\tb', '', 'a b', 'x/y', '../etc', '.', '..', 'café', 'a'.repeat(65)]) {
      await expect(t.store.saveProfile(name, { baseUrl: 'https://api.opnform.com', token: 'tok_x' }), JSON.stringify(name)).rejects.toMatchObject({
        exitCode: 2,
      });
      await expect(t.store.setCurrent(name)).rejects.toMatchObject({ exitCode: 2 });
      await expect(t.store.removeProfile(name)).rejects.toMatchObject({ exitCode: 2 });
    }
    expect(() => resolveContext(t.store, {}, { profile: '__proto__' })).toThrow('--profile "__proto__" cannot be a profile name.');
    expect(() => resolveContext(t.store, {}, { profile: 'x/y' })).toThrow('--profile "x/y" cannot be a profile name.');
    expect(() => resolveContext(t.store, { FORMCTL_PROFILE: 'a\tb' }, {})).toThrow('FORMCTL_PROFILE "a\\tb" cannot be a profile name.');
    for (const name of ['work.eu-1_b', '_local', '.hidden', 'a'.repeat(64)]) {
      await t.store.saveProfile(name, { baseUrl: 'https://api.opnform.com', token: 'tok_y' });
      expect(resolveContext(t.store, {}, { profile: name }).profileName).toBe(name);
    }
  });

  it('a name saved before the rule was this strict (my box) stays usable: selected, saved into, made current, removed', async () => {
    const t = await testConfig();
    writeFileSync(t.store.path, JSON.stringify({ profiles: { 'my box': { baseUrl: 'https://api.opnform.com' } } }));
    const store = await ConfigStore.open(t.configDir);
    expect(resolveContext(store, {}, { profile: 'my box' }).profileName).toBe('my box');
    expect(resolveContext(store, { FORMCTL_PROFILE: 'my box' }, {}).profileName).toBe('my box');
    await store.saveProfile('my box', { workspace: 3 });
    await store.setCurrent('my box');
    expect(await store.removeProfile('my box')).toBe(true);
    // Once gone, the name cannot be made again.
    await expect(store.saveProfile('my box', { baseUrl: 'https://api.opnform.com' })).rejects.toMatchObject({ exitCode: 2 });
    await t.cleanup();
  });

  it('writes the file with mode 0600 inside a 0700 directory', async () => {
    const t = await testConfig();
    await t.store.saveProfile('default', { baseUrl: 'https://api.opnform.com', token: 'tok_x' });
    expect(statSync(t.configDir).mode & 0o777).toBe(0o700);
    expect(statSync(t.store.path).mode & 0o777).toBe(0o600);
    expect(t.store.path).toBe(`${t.configDir}/config.json`);
    expect(JSON.parse(readFileSync(t.store.path, 'utf8'))).toEqual({
      currentProfile: 'default',
      profiles: { default: { baseUrl: 'https://api.opnform.com', token: 'tok_x', tokenOrigin: 'https://api.opnform.com' } },
    });
    await t.cleanup();
  });

  it('leaves the mode of a directory it did not create alone (FORMCTL_CONFIG_DIR may be a shared one)', async () => {
    const t = await testConfig();
    const shared = join(t.dir, 'shared');
    mkdirSync(shared, { mode: 0o755 });
    chmodSync(shared, 0o755);
    const store = await ConfigStore.open(shared);
    await store.saveProfile('default', { baseUrl: 'https://api.opnform.com', token: 'tok_x' });
    expect(statSync(shared).mode & 0o777).toBe(0o755);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    await t.cleanup();
  });

  // docs/architecture.md ("config"): conf is used to write, never to read, because building a Conf
  // writes: it creates the directory and saves its defaults into a file that lacks them.
  it('reading writes nothing (a conf store, built to read, would write its defaults)', async () => {
    const t = await testConfig();
    const { existsSync, readdirSync } = await import('node:fs');
    const fresh = join(t.dir, 'fresh');
    const store = await ConfigStore.open(fresh);
    expect(store.data).toEqual({ profiles: {} });
    expect(existsSync(store.path)).toBe(false);
    expect(readdirSync(fresh)).toEqual([]);
    // What a read through conf would have done:
    const { default: Conf } = await import('conf');
    new Conf({ cwd: fresh, configName: 'config', projectName: 'formctl', projectSuffix: '', defaults: { profiles: {} } });
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({ profiles: {} });
    await t.cleanup();
  });

  it('a corrupt file is a one-line usage error, and the file is left alone', async () => {
    const t = await testConfig();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(t.store.path, '{not json');
    const err = (await ConfigStore.open(t.configDir).catch((e) => e)) as CliError;
    expect(err.exitCode).toBe(2);
    expect(err.message.split('\n')).toHaveLength(1);
    expect(err.message).toMatch(/^The config file .* is not valid JSON: .*\.$/);
    expect(readFileSync(t.store.path, 'utf8')).toBe('{not json');
    await t.cleanup();
  });

  it('resolution: --profile > FORMCTL_PROFILE > current; FORMCTL_TOKEN/BASE_URL override the profile', async () => {
    const t = await testConfig();
    await t.store.saveProfile('a', { baseUrl: 'https://a.example', token: 'tok_a', workspace: 1 });
    await t.store.saveProfile('b', { baseUrl: 'https://b.example', token: 'tok_b' });
    const pick = (env: NodeJS.ProcessEnv, profile?: string) => {
      const c = resolveContext(t.store, env, { profile });
      return [c.profileName, c.baseUrl, c.token, c.tokenSource, c.workspace];
    };
    expect(pick({})).toEqual(['a', 'https://a.example', 'tok_a', 'profile', 1]);
    expect(pick({ FORMCTL_PROFILE: 'b' })).toEqual(['b', 'https://b.example', 'tok_b', 'profile', undefined]);
    expect(pick({ FORMCTL_PROFILE: 'b' }, 'a')).toEqual(['a', 'https://a.example', 'tok_a', 'profile', 1]);
    // The profile's workspace is an id on its own service: kept for the same origin, withheld for another.
    expect(pick({ FORMCTL_TOKEN: 'tok_env', FORMCTL_BASE_URL: 'https://a.example/' })).toEqual(['a', 'https://a.example/', 'tok_env', 'env', 1]);
    expect(pick({ FORMCTL_TOKEN: 'tok_env', FORMCTL_BASE_URL: 'http://127.0.0.1:9' })).toEqual(['a', 'http://127.0.0.1:9', 'tok_env', 'env', undefined]);
    expect(resolveContext(t.store, { FORMCTL_TOKEN: 'tok_env', FORMCTL_BASE_URL: 'http://127.0.0.1:9' }, {}).withheldWorkspace).toEqual({
      id: 1,
      origin: 'https://a.example',
      here: 'http://127.0.0.1:9',
    });
    expect(pick({ FORMCTL_TOKEN: 'tok_env', FORMCTL_BASE_URL: 'http://127.0.0.1:9', FORMCTL_WORKSPACE: '4' })).toEqual([
      'a',
      'http://127.0.0.1:9',
      'tok_env',
      'env',
      4,
    ]);
    expect(pick({ FORMCTL_PROFILE: 'missing' })).toEqual(['missing', 'https://api.opnform.com', undefined, 'none', undefined]);
    await t.cleanup();
  });
});

describe('config commands', () => {
  it('path prints the config file path', async () => {
    const t = await testConfig();
    const fio = fakeIO();
    await configPathRun({ io: fio.io, config: t.config });
    expect(fio.out()).toBe(`${t.configDir}/config.json\n`);
    await t.cleanup();
  });

  it('set/get base_url and workspace; set creates the profile; "" clears workspace', async () => {
    const t = await testConfig({ profile: 'ci' });
    const tty = fakeIO({ tty: true });
    await configSetRun({ io: tty.io, config: t.config, context: t.context, key: 'workspace', value: '12' });
    expect(tty.out()).toBe('✓ Set workspace of profile ci to 12\n');
    expect(t.store.profile('ci')).toEqual({ baseUrl: 'https://api.opnform.com', workspace: 12 });
    const moved = fakeIO();
    await configSetRun({ io: moved.io, config: t.config, context: t.context, key: 'base-url', value: 'https://forms.example.com/' });
    const get = async (key: string) => {
      const fio = fakeIO();
      await configGetRun({ io: fio.io, context: t.context, key });
      return fio.out();
    };
    expect(await get('base_url')).toBe('https://forms.example.com\n');
    // Workspace 12 was an id on the old service: another host clears it, and says so.
    expect(await get('workspace')).toBe('\n');
    expect(moved.err()).toBe(
      "note: the default workspace (12) was one of https://api.opnform.com's, so it is cleared; choose one on the new service: formctl --profile ci workspace use <id>.\n",
    );
    await configSetRun({ io: fakeIO().io, config: t.config, context: t.context, key: 'workspace', value: '12' });
    await configSetRun({ io: fakeIO().io, config: t.config, context: t.context, key: 'base-url', value: 'https://forms.example.com/v2' });
    expect(await get('workspace')).toBe('12\n');
    await configSetRun({ io: fakeIO().io, config: t.config, context: t.context, key: 'workspace', value: '' });
    expect(await get('workspace')).toBe('\n');
    await t.cleanup();
  });

  it('bad keys and values exit 2 without writing', async () => {
    const t = await testConfig();
    const run = (key: string, value: string) => configSetRun({ io: fakeIO().io, config: t.config, context: t.context, key, value }).catch((e: CliError) => e);
    const e1 = (await run('token', 'x')) as CliError;
    expect([e1.exitCode, e1.message]).toEqual([2, 'Unknown config key "token".']);
    expect(e1.hint).toBe('Keys: base_url, workspace (the token is managed by `formctl auth`).');
    expect(((await run('workspace', 'abc')) as CliError).exitCode).toBe(2);
    expect(((await run('base_url', 'not a url')) as CliError).exitCode).toBe(2);
    expect(t.store.data.profiles).toEqual({});
    await t.cleanup();
  });

  it('list shows the saved settings with the token masked (TTY, piped, --json)', async () => {
    const t = await testConfig();
    await t.store.saveProfile('default', { baseUrl: 'https://api.opnform.com', token: 'tok_very_secret', workspace: 4 });
    const a = fakeIO({ tty: true });
    await configListRun({ io: a.io, context: t.context });
    expect(a.out()).toBe('profile    default\nbase_url   https://api.opnform.com\nworkspace  4\ntoken      tok_••••\n');
    const b = fakeIO();
    await configListRun({ io: b.io, context: t.context });
    expect(b.out()).toBe('profile\tdefault\nbase_url\thttps://api.opnform.com\nworkspace\t4\ntoken\ttok_••••\n');
    const c = fakeIO();
    await configListRun({ io: c.io, context: t.context, json: true });
    expect(JSON.parse(c.out())).toEqual({ profile: 'default', base_url: 'https://api.opnform.com', workspace: 4, token: 'tok_••••' });
    await t.cleanup();
  });
});
