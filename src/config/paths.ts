import { homedir as osHomedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's home directory: $HOME where Node would read it too (os.homedir() returns $HOME when it is
 * set, on every system but Windows), without loading node:os; else os.homedir(). Read from the
 * command's environment, as every other directory here.
 */
function homedir(env: NodeJS.ProcessEnv): string {
  return process.platform !== 'win32' && env.HOME ? env.HOME : osHomedir();
}

/** Config directory: FORMCTL_CONFIG_DIR, else $XDG_CONFIG_HOME/formctl, else ~/.config/formctl. */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.FORMCTL_CONFIG_DIR) return env.FORMCTL_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(env), '.config'), 'formctl');
}

/** The config file (profiles, tokens) in a config directory: what the store reads and writes, and what completion reads. */
export function configFileIn(dir: string): string {
  return join(dir, 'config.json');
}

/** State directory (backups, caches): FORMCTL_STATE_DIR, else $XDG_STATE_HOME/formctl, else ~/.local/state/formctl. */
export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.FORMCTL_STATE_DIR) return env.FORMCTL_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(env), '.local', 'state'), 'formctl');
}

/** Cache directory (completion cache): $XDG_CACHE_HOME/formctl, else ~/.cache/formctl. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.FORMCTL_CACHE_DIR) return env.FORMCTL_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(env), '.cache'), 'formctl');
}
