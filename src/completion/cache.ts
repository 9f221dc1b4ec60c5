// The completion cache: a tab press may repeat many times a second, so answers from the API are
// kept for a short while in the cache directory. Entries hold only ids and display names, never a
// token; the file name is a hash of everything that decides the answer (profile, base URL, token,
// config file version, the kind of id and its context).
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { cacheDir, configDir, configFileIn } from '../config/paths.js';

/** How long a cached answer is served. */
export const CACHE_TTL_MS = 60_000;

interface Entry {
  v: 1;
  at: number;
  lines: string[];
}

/** The directory of completion cache entries. */
export function completionCacheDir(env: NodeJS.ProcessEnv): string {
  return join(cacheDir(env), 'completion');
}

/**
 * The cache key for a request. It is computed without opening the config (conf is slow to load):
 * the config file's mtime and size stand in for its content, so a login, logout or profile switch
 * changes the key.
 */
export function cacheKey(env: NodeJS.ProcessEnv, parts: Record<string, string | number | undefined>): string {
  let version = 'none';
  try {
    const st = statSync(configFileIn(configDir(env)));
    version = `${st.mtimeMs}:${st.size}`;
  } catch {
    // No config file yet: env variables alone decide.
  }
  const material = JSON.stringify({
    ...parts,
    configDir: configDir(env),
    version,
    envProfile: env.FORMCTL_PROFILE ?? '',
    envBaseUrl: env.FORMCTL_BASE_URL ?? '',
    envToken: env.FORMCTL_TOKEN ?? '',
    envWorkspace: env.FORMCTL_WORKSPACE ?? '',
  });
  return createHash('sha256').update(material).digest('hex').slice(0, 32);
}

/**
 * How old an entry may be when the service cannot be asked right now (the rate budget is used
 * up, the network is down): an older answer at once beats nothing, and a tab press never waits.
 */
export const STALE_TTL_MS = CACHE_TTL_MS * 10;

/** The cached lines for a key, or undefined when absent, unreadable or older than `maxAgeMs` (the TTL). */
export function readCache(env: NodeJS.ProcessEnv, key: string, now: number, maxAgeMs = CACHE_TTL_MS): string[] | undefined {
  try {
    const entry = JSON.parse(readFileSync(join(completionCacheDir(env), `${key}.json`), 'utf8')) as Entry;
    if (entry.v !== 1 || !Array.isArray(entry.lines) || typeof entry.at !== 'number') return undefined;
    // A clock that went backwards must not make an entry live forever.
    if (entry.at > now || now - entry.at >= maxAgeMs) return undefined;
    return entry.lines.filter((l) => typeof l === 'string');
  } catch {
    return undefined;
  }
}

/** Stores lines under a key (file mode 0600 in a 0700 directory, written atomically) and drops expired entries. */
export function writeCache(env: NodeJS.ProcessEnv, key: string, lines: string[], now: number): void {
  const dir = completionCacheDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dir, 0o700);
  } catch {
    // Not ours to fix; the entries themselves are 0600.
  }
  const file = join(dir, `${key}.json`);
  writeFileAtomicSync(file, JSON.stringify({ v: 1, at: now, lines } satisfies Entry));
  for (const name of readdirSync(dir)) {
    if (name === `${key}.json`) continue;
    const p = join(dir, name);
    try {
      if (now - statSync(p).mtimeMs > CACHE_TTL_MS * 10) unlinkSync(p);
    } catch {
      // Another shell may be pruning at the same moment.
    }
  }
}
