// Which code cache a run of the CLI uses: the code cache loader (src/startup/code-cache.ts, a bundle
// of its own) keeps one cache of what ran per command word, and must pick it before the CLI's code
// exists, from argv alone; the CLI (src/program.ts) says at the end whether that word named a
// command group of its registry (docs/performance.md, "A code cache of what ran"). The two bundles
// each hold a copy of this module, so the CLI's answer goes through a global under a registered
// symbol; only a name from the command registry is ever set.
const KEY = Symbol.for('formctl.codeCacheGroup');

/**
 * formctl's root flags that take a value as the next word, for the loader here and the CLI's own
 * pre-scan (scanArgv; src/root-options.ts declares the flags, and a test checks that the two agree):
 * `--profile NAME workspace list` is a run of `workspace`.
 */
export const ROOT_VALUE_FLAGS: readonly string[] = ['--profile', '--timeout', '--max-wait'];

/**
 * The word of argv (without node and script) that names the run's command group, as the CLI's own
 * pre-scan finds it (scanArgv) and src/program.ts loads it: the first word that is not a root flag
 * or its value, before `--`; after `help`, the topic (`help form` loads `form`); for `__complete
 * <words…>`, the group the completed words name. Undefined when there is none.
 */
export function groupWord(args: readonly string[]): string | undefined {
  const words = args[0] === '__complete' ? args.slice(1) : args;
  let help = false;
  for (let i = 0; i < words.length; i++) {
    const a = words[i]!;
    if (a === '--') break;
    if (!a.startsWith('-')) {
      if (help || a !== 'help') return a;
      help = true;
    } else if (ROOT_VALUE_FLAGS.includes(a)) i++;
  }
  return help ? 'help' : undefined;
}

/** Records the group (a top-level command's name) this run loaded. */
export function setCodeCacheGroup(name: string): void {
  (globalThis as Record<symbol, unknown>)[KEY] = name;
}

/** The group the CLI recorded, or undefined when it recorded none (it failed before, or loaded every group). */
export function codeCacheGroup(): string | undefined {
  const v = (globalThis as Record<symbol, unknown>)[KEY];
  return typeof v === 'string' ? v : undefined;
}
