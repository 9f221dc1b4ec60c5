import { chmodSync, mkdirSync } from 'node:fs';
import { UsageError } from '../errors.js';

export const DEFAULT_BASE_URL = 'https://api.opnform.com';
export const DEFAULT_PROFILE = 'default';

/** One saved login. */
export interface Profile {
  baseUrl: string;
  token?: string;
  /** Default workspace id set by `formctl workspace use`. */
  workspace?: number;
}

export interface ConfigData {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

interface ConfLike {
  get store(): unknown;
  set store(v: unknown);
  path: string;
}

/** Profiles on disk (conf), file mode 0600 inside a 0700 directory. */
export class ConfigStore {
  private constructor(private readonly conf: ConfLike) {}

  /** Opens (creating if needed) the config file in `dir`. */
  static async open(dir: string): Promise<ConfigStore> {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      chmodSync(dir, 0o700);
    } catch {
      // Not ours to fix (e.g. a shared directory); the file itself is still 0600.
    }
    const { default: Conf } = await import('conf');
    let conf: ConfLike;
    try {
      conf = new Conf<ConfigData>({
        cwd: dir,
        configName: 'config',
        projectName: 'formctl',
        projectSuffix: '',
        configFileMode: 0o600,
        defaults: { profiles: {} },
      }) as unknown as ConfLike;
    } catch (err) {
      throw new UsageError(
        `The config file in ${dir} could not be read: ${(err as Error).message.split('\n')[0]}`,
        'Fix or remove the file (it holds your profiles), or point FORMCTL_CONFIG_DIR elsewhere.',
      );
    }
    return new ConfigStore(conf);
  }

  get path(): string {
    return this.conf.path;
  }

  get data(): ConfigData {
    const raw = this.conf.store as Partial<ConfigData>;
    return { currentProfile: raw.currentProfile, profiles: { ...(raw.profiles ?? {}) } };
  }

  profile(name: string): Profile | undefined {
    return this.data.profiles[name];
  }

  /** Writes a profile (merging with what is there) and returns it. */
  saveProfile(name: string, patch: Partial<Profile>): Profile {
    const data = this.data;
    const prev = data.profiles[name];
    const next = { ...prev, ...patch } as Profile;
    for (const k of Object.keys(next) as Array<keyof Profile>) if (next[k] === undefined) delete next[k];
    data.profiles[name] = next;
    if (!data.currentProfile) data.currentProfile = name;
    this.conf.store = data;
    return next;
  }

  removeProfile(name: string): boolean {
    const data = this.data;
    if (!(name in data.profiles)) return false;
    delete data.profiles[name];
    if (data.currentProfile === name) data.currentProfile = Object.keys(data.profiles)[0];
    this.conf.store = stripUndefined(data);
    return true;
  }

  setCurrent(name: string): void {
    const data = this.data;
    if (!(name in data.profiles)) throw new UsageError(`No profile named "${name}".`, 'See `formctl profile list`.');
    data.currentProfile = name;
    this.conf.store = data;
  }
}

function stripUndefined(d: ConfigData): ConfigData {
  return d.currentProfile === undefined ? { profiles: d.profiles } : d;
}
