import { accessSync, chmodSync, constants, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { cannotMakeDir, fsReason, parseJsonObject } from '../io/files.js';
import { MAX_ID } from '../io/ids.js';
import { shellWord } from '../io/shell-word.js';
import { configFileIn } from './paths.js';

/** The origin (scheme, host, port) of a URL, or undefined when it does not parse: what a saved token is bound to. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

const IN_THE_WAY_HINT = 'formctl keeps its profiles there: remove or rename what is in the way, or set FORMCTL_CONFIG_DIR to a directory.';
const UNWRITABLE_HINT = 'formctl saves profiles there: make it writable, or set FORMCTL_CONFIG_DIR to a writable directory.';

export const DEFAULT_BASE_URL = 'https://api.opnform.com';
export const DEFAULT_PROFILE = 'default';

/** The longest profile name: it becomes a directory name under the backups (file systems take 255 bytes). */
export const PROFILE_NAME_MAX = 64;

/** What a new profile may be named: the words a shell, a file name and a directory name all take as they are. */
const PROFILE_NAME = new RegExp(`^[A-Za-z0-9._][A-Za-z0-9._-]{0,${PROFILE_NAME_MAX - 1}}$`);

/**
 * Refuses a profile name (exit 2). A profile name is a key of config.json's `profiles`, a word on a
 * command line, and a directory name: form backups go to `<state>/backups/<profile>/…`
 * (src/forms/backups.ts, which replaces anything outside `A-Za-z0-9._-`, so `a b`, `a/b` and `a_b`
 * would share one directory, and `.`/`..` would be `_`'s). So a name is 1 to PROFILE_NAME_MAX ASCII
 * letters, digits, `.`, `_` and `-`, does not start with `-` (`formctl profile use -x` reads a flag),
 * is not `.` or `..`, nor a name JavaScript objects already hold (`__proto__`, `constructor`, …:
 * saved nowhere, found everywhere).
 *
 * `isSaved`: a name already in config.json (saved before the rule was this strict, e.g. `my box`)
 * stays usable, so that it can be selected, logged in again or removed, as long as it is a key and a
 * word at all (not empty, no leading `-`, no control character). `from`: where the name came from,
 * for the message (`--profile`, `FORMCTL_PROFILE`, a command's argument).
 */
export function checkProfileName(name: string, from?: string, isSaved?: (name: string) => boolean): void {
  const what = `${from ? `${from} ` : ''}${JSON.stringify(name)} cannot be a profile name`;
  if (name in Object.prototype) throw new UsageError(`${what}.`, 'JavaScript objects already hold that name: choose another (see `formctl profile list`).');
  // eslint-disable-next-line no-control-regex
  const legacy = name !== '' && !name.startsWith('-') && !/[\x00-\x1f\x7f]/.test(name) && isSaved?.(name) === true;
  if (legacy || (PROFILE_NAME.test(name) && name !== '.' && name !== '..')) return;
  throw new UsageError(`${what}.`, profileNameHint(name, isSaved));
}

/** The rule checkProfileName enforces, as said to the user: the saved-name exception only where it applies. */
function profileNameHint(name: string, isSaved?: (name: string) => boolean): string {
  if (isSaved?.(name) === true) {
    return 'A saved profile is usable under any name but one that is empty, starts with "-" or holds a control character: rename it in the config file by hand.';
  }
  const rule = `Use 1 to ${PROFILE_NAME_MAX} ASCII letters, digits, ".", "_" and "-", not starting with "-", other than "." and ".." (the name is also a directory name)`;
  return isSaved ? `${rule}; profiles already saved under other names stay usable (see \`formctl profile list\`).` : `${rule}; see \`formctl profile list\`.`;
}

/** One saved login. */
export interface Profile {
  baseUrl: string;
  token?: string;
  /** The origin (scheme://host:port) the token was saved for; it is sent nowhere else. */
  tokenOrigin?: string;
  /** Default workspace id set by `formctl workspace use`. */
  workspace?: number;
  /**
   * Made by `formctl sandbox --profile-name` (its token and base URL are the sandbox's): a later
   * sandbox may replace it. Dropped when anything else saves a base URL or token into the profile.
   */
  sandbox?: boolean;
}

export interface ConfigData {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

/**
 * Profiles on disk, file mode 0600 inside a 0700 directory. Reads parse config.json directly;
 * writes go through `conf` (atomic write, file mode). conf loads ajv and semver at import
 * (~130 ms CPU on Node 20), so it is imported only when something is saved.
 *
 * Every change re-reads the file under proper-lockfile's lock (`config.json.lock`) and applies
 * itself to what is there now: two formctl processes saving at once (two sandboxes with
 * --profile-name, or an `auth login` that waited at a prompt while another profile was saved)
 * each keep the other's profile instead of writing back the copy they read at start.
 */
export class ConfigStore {
  private constructor(
    private readonly dir: string,
    readonly path: string,
    private current: ConfigData,
  ) {}

  /**
   * Opens the config file in `dir`, creating the directory when it can. A directory it may not
   * create or write is no obstacle to reading: a command that only reads (FORMCTL_TOKEN and
   * FORMCTL_BASE_URL in CI, say) works all the same, and only a save fails (see ensureDir).
   */
  static async open(dir: string): Promise<ConfigStore> {
    ensureDir(dir, { forSave: false });
    const path = configFileIn(dir);
    return new ConfigStore(dir, path, readConfig(path));
  }

  /** The profiles as commands may use them: a field of the wrong type (a hand-edited file) is left out (see `problem`). */
  get data(): ConfigData {
    const profiles: Record<string, Profile> = {};
    for (const [name, raw] of Object.entries(this.current.profiles)) profiles[name] = usableProfile(raw);
    return this.current.currentProfile === undefined ? { profiles } : { currentProfile: this.current.currentProfile, profiles };
  }

  profile(name: string): Profile | undefined {
    return Object.hasOwn(this.current.profiles, name) ? usableProfile(this.current.profiles[name]) : undefined;
  }

  /** Whether config.json holds a profile of that name (what checkProfileName lets an older, looser name through for). */
  readonly isSaved = (name: string): boolean => Object.hasOwn(this.current.profiles, name);

  /** Whether the file holds `field` for the profile, whatever its type. */
  holds(name: string, field: keyof Profile): boolean {
    const raw: unknown = Object.hasOwn(this.current.profiles, name) ? this.current.profiles[name] : undefined;
    return isPlainObject(raw) && raw[field] !== undefined;
  }

  /**
   * Why a saved profile cannot be used as it is (a field of the wrong type in a hand-edited file), as
   * the exit-2 error naming the field, the profile and the file, with the command that repairs it;
   * undefined when it is sound or not saved. The file keeps what it holds until a save replaces it.
   */
  problem(name: string): UsageError | undefined {
    return Object.hasOwn(this.current.profiles, name) ? profileProblem(name, this.current.profiles[name], this.path) : undefined;
  }

  /** Writes a profile (merging with what is there) and returns it. */
  async saveProfile(name: string, patch: Partial<Profile>): Promise<Profile> {
    checkProfileName(name, undefined, this.isSaved);
    let next!: Profile;
    await this.update((data) => {
      const before = data.profiles[name];
      next = { ...before, ...patch } as Profile;
      // A token saved before origins were recorded belongs to the base URL it was saved with: a
      // new base URL (config set base_url) must not carry it along (docs/security.md).
      if (before?.token !== undefined && !('token' in patch) && before.tokenOrigin === undefined && patch.baseUrl !== undefined) {
        const old = originOf(before.baseUrl || DEFAULT_BASE_URL);
        if (old !== undefined && old !== originOf(patch.baseUrl)) next.tokenOrigin = old;
      }
      // A token being saved belongs to the profile's base URL unless the caller says otherwise.
      if (patch.token !== undefined && patch.tokenOrigin === undefined) next.tokenOrigin = originOf(next.baseUrl || DEFAULT_BASE_URL);
      if (next.token === undefined) delete next.tokenOrigin;
      // A base URL or token saved by anything but the sandbox makes the profile the user's own.
      if (patch.sandbox !== true && ('baseUrl' in patch || 'token' in patch)) delete next.sandbox;
      for (const k of Object.keys(next) as Array<keyof Profile>) if (next[k] === undefined) delete next[k];
      data.profiles[name] = next;
      if (!data.currentProfile) data.currentProfile = name;
      return true;
    });
    return next;
  }

  /** Removes a profile; the current one moves to another saved profile. */
  async removeProfile(name: string): Promise<boolean> {
    checkProfileName(name, undefined, this.isSaved);
    return this.update((data) => {
      if (!Object.hasOwn(data.profiles, name)) return false;
      delete data.profiles[name];
      if (data.currentProfile === name) data.currentProfile = Object.keys(data.profiles)[0];
      if (data.currentProfile === undefined) delete data.currentProfile;
      return true;
    });
  }

  /** Makes a saved profile the current one. */
  async setCurrent(name: string): Promise<void> {
    checkProfileName(name, undefined, this.isSaved);
    await this.update((data) => {
      if (!Object.hasOwn(data.profiles, name)) throw new UsageError(`No profile named "${name}".`, 'See `formctl profile list`.');
      data.currentProfile = name;
      return true;
    });
  }

  /** Applies `change` to the file as it is now, under the lock; writes only when `change` says it changed something. */
  private async update(change: (data: ConfigData) => boolean): Promise<boolean> {
    ensureDir(this.dir, { forSave: true });
    const release = await takeLock(this.path);
    try {
      const data = readConfig(this.path);
      this.current = data;
      if (!change(data)) return false;
      await this.persist(data);
      return true;
    } finally {
      await release().catch(() => undefined);
    }
  }

  private async persist(data: ConfigData): Promise<void> {
    const { default: Conf } = await import('conf');
    const conf = new Conf<ConfigData>({
      cwd: this.dir,
      configName: 'config',
      projectName: 'formctl',
      projectSuffix: '',
      configFileMode: 0o600,
      defaults: { profiles: {} },
    });
    conf.store = data;
    this.current = data;
  }
}

/**
 * Makes the config directory: one formctl creates is 0700 (umask aside, hence the chmod); one that
 * already exists (FORMCTL_CONFIG_DIR may even be $HOME) keeps its mode: the file itself is 0600.
 * A file in the way is reported at once; a directory that cannot be created (permission denied,
 * read-only file system) only when something is to be saved.
 */
function ensureDir(dir: string, o: { forSave: boolean }): void {
  let created: string | undefined;
  try {
    created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw cannotMakeDir(dir, err, IN_THE_WAY_HINT);
    if (o.forSave) throw cannotSave(dir, err);
    return;
  }
  if (created !== undefined) {
    try {
      chmodSync(dir, 0o700);
    } catch {
      // Created but not ours to change (an odd file system): the file is still 0600.
    }
  }
  // Said at once: the lock would otherwise retry its EACCES for seconds before giving up.
  if (o.forSave) {
    try {
      accessSync(dir, constants.W_OK);
    } catch (err) {
      throw cannotSave(dir, err);
    }
  }
}

/** Takes the config file's lock, waiting up to ~5 s for another formctl that holds it; returns its release. */
async function takeLock(path: string): Promise<() => Promise<void>> {
  const { lock } = await import('proper-lockfile');
  const lockfilePath = `${path}.lock`;
  try {
    return await lock(path, {
      lockfilePath,
      // config.json may not exist yet: lock its path as given.
      realpath: false,
      // A save takes milliseconds; a lock not refreshed for 10 s was left by a process that died.
      stale: 10_000,
      retries: { retries: 100, factor: 1, minTimeout: 20, maxTimeout: 60, randomize: true },
      // Only if this process stalled for 10 s mid-save: the write itself is still atomic.
      onCompromised: () => undefined,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new CliError(
        `Another formctl is saving settings (${lockfilePath} exists).`,
        ExitCode.error,
        `Try again; remove ${lockfilePath} if no formctl is running.`,
      );
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw cannotSave(dirname(path), err);
    throw new CliError(`Cannot save settings: ${lockfilePath} could not be created (${code}).`, ExitCode.error, 'Check that the config directory is writable.');
  }
}

/** `Cannot save settings in DIR: permission denied.` (exit 2): only saving needs the directory to be writable. */
function cannotSave(dir: string, err: unknown): UsageError {
  return new UsageError(`Cannot save settings in ${dir}: ${fsReason(err, 'write')}.`, UNWRITABLE_HINT);
}

/** Reads and checks a config file; a missing one is empty. Throws a usage error (exit 2) for an unreadable or malformed file. */
export function readConfig(path: string): ConfigData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new UsageError(`The config file ${path} could not be read: ${(err as Error).message}`);
  }
  const source = `The config file ${path}`;
  const raw: Partial<ConfigData> =
    text.trim() === ''
      ? {}
      : parseJsonObject(text, source, { hint: 'Fix or remove the file (it holds your profiles), or point FORMCTL_CONFIG_DIR elsewhere.' });
  // What no profile can be read without is refused for the whole file; a profile's own fields are
  // checked when it is used (ConfigStore.problem), so the others, and the commands that repair it, still work.
  const fix = 'Fix the file by hand (it holds your profiles), or point FORMCTL_CONFIG_DIR elsewhere.';
  if (raw.profiles !== undefined && !isPlainObject(raw.profiles)) throw new UsageError(`${source}: "profiles" must be an object of profiles by name.`, fix);
  if (raw.currentProfile !== undefined && typeof raw.currentProfile !== 'string') {
    throw new UsageError(`${source}: "currentProfile" must be a profile name (a string).`, fix);
  }
  const profiles = (raw.profiles ?? {}) as Record<string, Profile>;
  return raw.currentProfile === undefined ? { profiles } : { currentProfile: raw.currentProfile, profiles };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What each saved field must be, what it must be in words, and the command that saves a good one. */
const PROFILE_FIELDS: Record<keyof Profile, { ok: (v: unknown) => boolean; must: string; secret?: boolean; fix: (flag: string) => string }> = {
  baseUrl: { ok: (v) => typeof v === 'string', must: 'a string (a URL)', fix: (flag) => `formctl ${flag} config set base_url <url>` },
  token: {
    ok: (v) => typeof v === 'string',
    must: 'a string',
    secret: true,
    fix: (flag) => `formctl ${flag} auth login (or remove it: formctl ${flag} auth logout)`,
  },
  tokenOrigin: { ok: (v) => typeof v === 'string', must: 'a string (an origin)', fix: (flag) => `formctl ${flag} auth login` },
  // As -w takes it: a whole number from 1 up (src/io/ids.ts).
  workspace: {
    ok: (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1,
    must: `a workspace id (a whole number from 1 to ${MAX_ID})`,
    fix: (flag) => `formctl ${flag} config set workspace <id> ("" clears it)`,
  },
  sandbox: { ok: (v) => typeof v === 'boolean', must: 'true or false', fix: (flag) => `formctl ${flag} auth login` },
};

/** The fields of a saved profile that have the right type; the others are left out. */
function usableProfile(raw: unknown): Profile {
  const out: Record<string, unknown> = {};
  if (!isPlainObject(raw)) return out as unknown as Profile;
  for (const [k, v] of Object.entries(raw)) {
    const rule = Object.hasOwn(PROFILE_FIELDS, k) ? PROFILE_FIELDS[k as keyof Profile] : undefined;
    // Keys formctl does not know are kept (a newer version may have written them).
    if (rule === undefined || rule.ok(v)) out[k] = v;
  }
  return out as unknown as Profile;
}

/** The usage error for the first field of the wrong type in a saved profile, if any. */
function profileProblem(name: string, raw: unknown, path: string): UsageError | undefined {
  const flag = `--profile ${shellWord(name)}`;
  if (!isPlainObject(raw)) {
    return new UsageError(
      `Profile "${name}" in ${path} is not an object of settings.`,
      `Fix the file by hand, or remove the profile: formctl profile remove ${shellWord(name)}`,
    );
  }
  for (const [k, rule] of Object.entries(PROFILE_FIELDS)) {
    const v = raw[k];
    if (v === undefined || rule.ok(v)) continue;
    // A token is never echoed, even a wrong one; other values are shown, shortened.
    const shown = rule.secret ? ' (the value is not shown here)' : `, not ${shorten(JSON.stringify(v) ?? String(v))}`;
    return new UsageError(`Profile "${name}" in ${path}: "${k}" must be ${rule.must}${shown}.`, `Save a good one: ${rule.fix(flag)}, or fix the file by hand.`);
  }
  return undefined;
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
