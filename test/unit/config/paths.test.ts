// Where formctl keeps its files (src/config/paths.ts): never under a relative or empty directory,
// where `auth login` would write the config, token and all, into the current directory.
import { homedir, userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cacheDir, configDir, stateDir } from '../../../src/config/paths.js';
import { type CliError, ExitCode } from '../../../src/errors.js';

describe('the directories', () => {
  it('come from FORMCTL_*_DIR, else an absolute XDG_*_HOME, else $HOME', () => {
    const env = { HOME: '/home/ann' };
    expect([configDir(env), stateDir(env), cacheDir(env)]).toEqual(['/home/ann/.config/formctl', '/home/ann/.local/state/formctl', '/home/ann/.cache/formctl']);
    const xdgEnv = { ...env, XDG_CONFIG_HOME: '/x/c', XDG_STATE_HOME: '/x/s', XDG_CACHE_HOME: '/x/k' };
    expect([configDir(xdgEnv), stateDir(xdgEnv), cacheDir(xdgEnv)]).toEqual(['/x/c/formctl', '/x/s/formctl', '/x/k/formctl']);
    const own = { ...xdgEnv, FORMCTL_CONFIG_DIR: '/f/c', FORMCTL_STATE_DIR: '/f/s', FORMCTL_CACHE_DIR: '/f/k' };
    expect([configDir(own), stateDir(own), cacheDir(own)]).toEqual(['/f/c', '/f/s', '/f/k']);
  });

  it('ignore a relative XDG_*_HOME, as the XDG spec says', () => {
    const env = { HOME: '/home/ann', XDG_CONFIG_HOME: 'rel', XDG_STATE_HOME: './s', XDG_CACHE_HOME: '' };
    expect([configDir(env), stateDir(env), cacheDir(env)]).toEqual(['/home/ann/.config/formctl', '/home/ann/.local/state/formctl', '/home/ann/.cache/formctl']);
  });

  it.skipIf(process.platform === 'win32')('never take an empty or relative HOME: the home Node or the system knows instead', () => {
    // With the process's own HOME set (as under the test runner), os.homedir() gives it; without
    // one, the account's home. Either is absolute, and neither is the empty or relative value.
    const expected = isAbsolute(homedir()) ? homedir() : userInfo().homedir;
    for (const HOME of ['', 'relative/home', '.']) {
      const dir = configDir({ HOME });
      expect(dir).toBe(join(expected, '.config', 'formctl'));
      expect(isAbsolute(dir)).toBe(true);
    }
  });
});

describe('without any home directory', () => {
  afterEach(() => {
    vi.doUnmock('node:os');
    vi.resetModules();
  });

  it.skipIf(process.platform === 'win32')(
    'a command stops with one line naming the variables to set (exit 2), HOME empty or unset, and writes nowhere',
    async () => {
      // Neither Node nor the user database (a container's uid with no entry) knows one: os.homedir()
      // gives HOME as it is when set (here empty), and throws when it is unset; userInfo() throws.
      let homedir: () => string = () => '';
      vi.resetModules();
      vi.doMock('node:os', async (importOriginal) => ({
        ...(await importOriginal<typeof import('node:os')>()),
        homedir: () => homedir(),
        userInfo: () => {
          throw Object.assign(new Error('A system error occurred: uv_os_get_passwd returned ENOENT'), { code: 'ERR_SYSTEM_ERROR' });
        },
      }));
      const paths = await import('../../../src/config/paths.js');
      const failure = (env: NodeJS.ProcessEnv) => {
        try {
          paths.configDir(env);
        } catch (e) {
          const err = e as CliError;
          return [err.exitCode, err.message, err.hint];
        }
        return 'no error';
      };
      const expected = [
        ExitCode.usage,
        'Cannot tell your home directory: HOME is not an absolute path, and the system has none for this user.',
        'Set HOME to your home directory, or set FORMCTL_CONFIG_DIR, FORMCTL_STATE_DIR and FORMCTL_CACHE_DIR.',
      ];
      expect(failure({ HOME: '' })).toEqual(expected);
      homedir = () => {
        throw Object.assign(new Error('A system error occurred: uv_os_homedir returned ENOENT'), { code: 'ERR_SYSTEM_ERROR' });
      };
      expect(failure({})).toEqual(expected);
      // The variables of formctl's own still work.
      expect(paths.configDir({ FORMCTL_CONFIG_DIR: '/f/c' })).toBe('/f/c');
    },
  );
});
