// The value source behind `formctl __complete`: answers from the short-lived cache (cache.ts), else
// one call through `fetch` under a time limit, else an older cache entry, else nothing. It never
// throws and never prints: a tab press must not show an error in the user's command line.
import { type CacheKey, STALE_TTL_MS, cacheKey, readCache, writeCache } from './cache.js';
import type { Candidate, ValueRequest, ValueSource } from './resolve.js';

/** How long one completion may wait for the service: a tab press that hangs is worse than one that offers nothing. */
export const COMPLETE_TIMEOUT_MS = 2_000;

/**
 * The completion's limit: FORMCTL_COMPLETE_TIMEOUT seconds (fractions allowed) where set to a
 * positive number, for a service far away or a machine too busy to answer within the default;
 * anything else is the default (a tab press never shows an error).
 */
export function completeTimeoutMs(env: NodeJS.ProcessEnv): number {
  const s = Number(env.FORMCTL_COMPLETE_TIMEOUT);
  return env.FORMCTL_COMPLETE_TIMEOUT?.trim() && Number.isFinite(s) && s > 0 ? Math.min(s, 600) * 1000 : COMPLETE_TIMEOUT_MS;
}

export interface ValueSourceDeps {
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** "value<TAB>description" lines on a cache miss (one API call at most); may throw. Undefined: nothing to ask, nothing to cache. */
  fetch: (req: ValueRequest) => Promise<string[] | undefined>;
}

/** The cache key of a request: its kind and the ids the line gave (cache.ts adds the profile, base URL, token hash and config version). */
export function requestKey(env: NodeJS.ProcessEnv, req: ValueRequest): CacheKey {
  return cacheKey(env, { kind: req.kind, workspace: req.workspace, form: req.form, profile: req.profile });
}

/** Cached "value<TAB>description" lines as candidates. */
export function candidates(lines: string[]): Candidate[] {
  return lines.map((line) => {
    const tab = line.indexOf('\t');
    return tab < 0 ? { value: line } : { value: line.slice(0, tab), description: line.slice(tab + 1) };
  });
}

/** A ValueSource that serves from the cache or fetches and caches; an empty list on any error. */
export function cachedValueSource(o: ValueSourceDeps): ValueSource {
  return async (req) => {
    try {
      const now = o.now().getTime();
      const lines = readCache(o.env, requestKey(o.env, req), now);
      if (lines) return candidates(lines);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('completion timed out')), completeTimeoutMs(o.env));
        timer.unref();
      });
      let fetched: string[] | undefined;
      try {
        fetched = await Promise.race([o.fetch(req), deadline]);
      } catch {
        // Rate budget used up (the client refuses at once, never waits), offline or slow: an
        // older answer from the cache, else nothing.
        return candidates(readCache(o.env, requestKey(o.env, req), now, STALE_TTL_MS) ?? []);
      } finally {
        clearTimeout(timer);
      }
      if (fetched === undefined) return [];
      // Profiles come from a local file: caching them would only hide a fresh login.
      // The key is taken again: the first config read may create the config file, changing its version.
      if (req.kind !== 'profile') writeCache(o.env, requestKey(o.env, req), fetched, now);
      return candidates(fetched);
    } catch {
      return [];
    }
  };
}
