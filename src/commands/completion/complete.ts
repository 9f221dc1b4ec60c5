import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { DYNAMIC_SOURCES, type DynamicSource } from '../../completion/model.js';

/** How long one completion may take: a tab press that hangs is worse than one that offers nothing. */
export const COMPLETE_TIMEOUT_MS = 2_000;

export interface CompleteOptions {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  profile?: string;
  source: string;
  workspace?: string;
  form?: string;
  /** Produces the lines on a cache miss (one API call at most). */
  fetch: (req: { source: DynamicSource; workspace?: string; form?: string }) => Promise<string[]>;
}

/** Hidden `formctl __complete <source>`: "value<TAB>description" lines for the completion scripts. */
export default function newCompleteCommand(f: Factory, runF = completeRun) {
  return new Command('__complete')
    .description('Print completion values: workspaces, forms, integrations or profiles')
    .argument('[source]', `One of: ${DYNAMIC_SOURCES.join(', ')}`)
    .option('--workspace <id>', 'Workspace whose forms to list (default: the profile\'s)')
    .option('--form <id>', 'Form whose integrations to list')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (source: string | undefined, flags: { workspace?: string; form?: string }) => {
      // A tab press must never prompt, wait long or retry: a second request would double its cost.
      // A --max-wait below zero also makes the client refuse at once, sending nothing, when the
      // shared rate budget is used up (src/api/ratelimit.ts); the cache then answers.
      f.globals.noInput = true;
      f.globals.timeoutMs = COMPLETE_TIMEOUT_MS;
      f.globals.maxWaitMs = -1;
      const { fetchLines } = await import('../../completion/dynamic.js');
      await runF({
        io: f.io,
        env: f.env,
        now: f.now,
        profile: f.globals.profile,
        source: source ?? '',
        workspace: flags.workspace,
        form: flags.form,
        fetch: (req) => fetchLines(f, req),
      });
    });
}

/** Serves from the cache or fetches and caches; prints nothing and succeeds on any error. */
export async function completeRun(o: CompleteOptions): Promise<void> {
  if (!(DYNAMIC_SOURCES as readonly string[]).includes(o.source)) return;
  const source = o.source as DynamicSource;
  try {
    const { STALE_TTL_MS, cacheKey, readCache, writeCache } = await import('../../completion/cache.js');
    const now = o.now().getTime();
    const parts = { source, workspace: o.workspace, form: o.form, profile: o.profile };
    let lines = readCache(o.env, cacheKey(o.env, parts), now);
    if (!lines) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('completion timed out')), COMPLETE_TIMEOUT_MS);
        timer.unref();
      });
      try {
        lines = await Promise.race([o.fetch({ source, workspace: o.workspace, form: o.form }), deadline]);
      } catch (err) {
        // Rate budget used up (the client refuses at once, never waits), offline or slow: an
        // older answer from the cache, else nothing.
        lines = readCache(o.env, cacheKey(o.env, parts), now, STALE_TTL_MS);
        if (!lines) throw err;
        if (lines.length) o.io.stdout.write(`${lines.join('\n')}\n`);
        return;
      } finally {
        clearTimeout(timer);
      }
      // Profiles come from a local file: caching them would only hide a fresh login.
      // The key is taken again: the first config read may create the config file, changing its version.
      if (source !== 'profiles') writeCache(o.env, cacheKey(o.env, parts), lines, now);
    }
    if (lines.length) o.io.stdout.write(`${lines.join('\n')}\n`);
  } catch {
    // Silent by design: the shell would print anything we write into the user's command line.
  }
}
