import { homedir as osHomedir, userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * The user's home directory, always an absolute path: $HOME where Node would read it too
 * (os.homedir() returns $HOME when it is set, on every system but Windows), without loading node:os;
 * else os.homedir(); else the account's home in the system's user database. An empty or relative
 * $HOME (`HOME= formctl …`) is not taken: the directories below would be relative, and
 * `auth login` would write the config, token and all, into whatever directory the user is in.
 * Read from the command's environment, as every other directory here.
 */
function homedir(env: NodeJS.ProcessEnv): string {
  if (process.platform !== 'win32' && env.HOME && isAbsolute(env.HOME)) return env.HOME;
  // Each asks the system when HOME is unset, and throws for a user without an entry in its user
  // database (a container's arbitrary uid): then there is nothing to fall back on.
  for (const ask of [osHomedir, () => userInfo().homedir]) {
    try {
      const home = ask();
      if (isAbsolute(home)) return home;
    } catch {
      // Asked the next, or none is left.
    }
  }
  throw new UsageError(
    'Cannot tell your home directory: HOME is not an absolute path, and the system has none for this user.',
    'Set HOME to your home directory, or set FORMCTL_CONFIG_DIR, FORMCTL_STATE_DIR and FORMCTL_CACHE_DIR.',
  );
}

/** An XDG base directory variable's value when it is an absolute path; a relative one is ignored, as the XDG spec says. */
function xdg(value: string | undefined): string | undefined {
  return value && isAbsolute(value) ? value : undefined;
}

/** Config directory: FORMCTL_CONFIG_DIR, else $XDG_CONFIG_HOME/formctl (an absolute one), else ~/.config/formctl. */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.FORMCTL_CONFIG_DIR) return env.FORMCTL_CONFIG_DIR;
  return join(xdg(env.XDG_CONFIG_HOME) ?? join(homedir(env), '.config'), 'formctl');
}

/** The config file (profiles, tokens) in a config directory: what the store reads and writes, and what completion reads. */
export function configFileIn(dir: string): string {
  return join(dir, 'config.json');
}

/** State directory (backups, caches): FORMCTL_STATE_DIR, else $XDG_STATE_HOME/formctl (an absolute one), else ~/.local/state/formctl. */
export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.FORMCTL_STATE_DIR) return env.FORMCTL_STATE_DIR;
  return join(xdg(env.XDG_STATE_HOME) ?? join(homedir(env), '.local', 'state'), 'formctl');
}

/** Cache directory (completion cache): FORMCTL_CACHE_DIR, else $XDG_CACHE_HOME/formctl (an absolute one), else ~/.cache/formctl. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.FORMCTL_CACHE_DIR) return env.FORMCTL_CACHE_DIR;
  return join(xdg(env.XDG_CACHE_HOME) ?? join(homedir(env), '.cache'), 'formctl');
}
