// The command group a run is for, as the CLI (src/program.ts) names it once it knows it: the code
// cache loader (src/startup/code-cache.ts, a bundle of its own) reads it when the process exits, to
// know whether its caches already hold what this group runs (docs/performance.md, "A code cache of
// what ran"). The two bundles each hold a copy of this module, so the value goes through a global
// under a registered symbol; only a name from the command registry is ever set.
const KEY = Symbol.for('formctl.codeCacheGroup');

/** Records the group (a top-level command's name) this run loaded. */
export function setCodeCacheGroup(name: string): void {
  (globalThis as Record<symbol, unknown>)[KEY] = name;
}

/** The group the CLI recorded, or undefined when it recorded none (it failed before, or loaded every group). */
export function codeCacheGroup(): string | undefined {
  const v = (globalThis as Record<symbol, unknown>)[KEY];
  return typeof v === 'string' ? v : undefined;
}
