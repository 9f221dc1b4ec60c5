// The completion cache: a tab press may repeat many times a second, so answers from the API are
// kept for a short while in the cache directory. Entries hold only ids and display names, never a
// token. An entry is named by the request (the kind of id and its context) and holds everything
// else that decides the answer (profile, base URL, config file version, a token from the
// environment as its key, src/name-key.ts), which a read compares.
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { nameKey } from '../name-key.js';
import { cacheDir, configDir, configFileIn } from '../config/paths.js';

/** How long a cached answer is served. */
export const CACHE_TTL_MS = 60_000;

interface Entry {
  v: 2;
  at: number;
  /** What the answer depends on (CacheKey.material); an entry for other settings is not served. */
  of: string;
  lines: string[];
}

/** Where a request's answer is cached, and what it depends on. */
export interface CacheKey {
  /** The entry's file name, without `.json`: the request's own parts, readable. */
  name: string;
  /** Everything else that decides the answer, stored in the entry and compared on a read. */
  material: string;
}

/** The directory of completion cache entries. */
export function completionCacheDir(env: NodeJS.ProcessEnv): string {
  return join(cacheDir(env), 'completion');
}

/** A file name's longest part taken from the request (a word typed on the command line may be long). */
const NAME_MAX = 160;

/**
 * The cache key for a request. It is computed without opening the config (conf is slow to load):
 * the config file's mtime and size stand in for its content, so a login, logout or profile switch
 * changes the key.
 *
 * The file name says whose answer it is (a token from `FORMCTL_TOKEN` by its key, src/name-key.ts,
 * else the profile `FORMCTL_PROFILE` names, else `p` for the current one) and what was asked
 * (`v2.p.-.form.-.12`: the request's parts in the order of their names, form, kind, profile,
 * workspace, `-` where unset; ids and names a user typed, percent-encoded). Everything else is the
 * material, stored in the entry: a token from `FORMCTL_TOKEN` goes into it only as that key, made in
 * JavaScript with no module to load (node:crypto's SHA-256 cost a Tab press 3–3.5 ms on Node 24 and
 * 26, node:zlib's CRC-32 1.4–2.4). A 32-bit key says nothing usable of a token, and two of one
 * user's tokens with the same one (a chance of one in 4 billion) would see each other's cached ids
 * and names, which their owner may read anyway (docs/completion.md). Requests that differ only in other settings (another base URL, a login since)
 * share a file: the last answer wins, and a read for other settings is a miss.
 */
export function cacheKey(env: NodeJS.ProcessEnv, parts: Record<string, string | number | undefined>): CacheKey {
  let version = 'none';
  try {
    const st = statSync(configFileIn(configDir(env)));
    version = `${st.mtimeMs}:${st.size}`;
  } catch {
    // No config file yet: env variables alone decide.
  }
  const token = env.FORMCTL_TOKEN ?? '';
  const tokenKey = token === '' ? '' : nameKey(token);
  const material = JSON.stringify({
    ...parts,
    configDir: configDir(env),
    version,
    envProfile: env.FORMCTL_PROFILE ?? '',
    envBaseUrl: env.FORMCTL_BASE_URL ?? '',
    envToken: tokenKey,
    envWorkspace: env.FORMCTL_WORKSPACE ?? '',
  });
  // Whose answer it is: a token from the environment (by its hash), else the profile the
  // environment names, else the current one. So shells with other tokens or profiles keep their
  // own entries instead of taking turns at one file.
  const whose = tokenKey ? `t${tokenKey}` : `p${env.FORMCTL_PROFILE ?? ''}`;
  const name = [
    whose,
    ...Object.keys(parts)
      .sort()
      .map((k) => String(parts[k] ?? '-')),
  ]
    .map((part) => encodeURIComponent(part).replace(/\*/g, '%2A'))
    .join('.')
    .slice(0, NAME_MAX);
  return { name: `v2.${name}`, material };
}

/**
 * How old an entry may be when the service cannot be asked right now (the rate budget is used
 * up, the network is down): an older answer at once beats nothing, and a tab press never waits.
 */
export const STALE_TTL_MS = CACHE_TTL_MS * 10;

/** The cached lines for a key, or undefined when absent, unreadable or older than `maxAgeMs` (the TTL). */
export function readCache(env: NodeJS.ProcessEnv, key: CacheKey, now: number, maxAgeMs = CACHE_TTL_MS): string[] | undefined {
  try {
    const entry = JSON.parse(readFileSync(join(completionCacheDir(env), `${key.name}.json`), 'utf8')) as Entry;
    if (entry.v !== 2 || entry.of !== key.material || !Array.isArray(entry.lines) || typeof entry.at !== 'number') return undefined;
    // A clock that went backwards must not make an entry live forever.
    if (entry.at > now || now - entry.at >= maxAgeMs) return undefined;
    return entry.lines.filter((l) => typeof l === 'string');
  } catch {
    return undefined;
  }
}

/** Stores lines under a key (file mode 0600 in a 0700 directory, written atomically) and drops expired entries. */
export function writeCache(env: NodeJS.ProcessEnv, key: CacheKey, lines: string[], now: number): void {
  const dir = completionCacheDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dir, 0o700);
  } catch {
    // Not ours to fix; the entries themselves are 0600.
  }
  const file = join(dir, `${key.name}.json`);
  writeFileAtomicSync(file, JSON.stringify({ v: 2, at: now, of: key.material, lines } satisfies Entry));
  for (const name of readdirSync(dir)) {
    if (name === `${key.name}.json`) continue;
    const p = join(dir, name);
    try {
      if (now - statSync(p).mtimeMs > CACHE_TTL_MS * 10) unlinkSync(p);
    } catch {
      // Another shell may be pruning at the same moment.
    }
  }
}
