// Loads the CLI (dist/cli/main.cjs and the chunks it requires) with a V8 code cache that holds the
// functions a command ran, not only the top-level code: bundled as dist/load.cjs and called by
// bin/formctl.js on every Node version (docs/performance.md, "A code cache of what ran").
//
// Node's compile cache (module.enableCompileCache) stores what V8 compiled when a module was
// compiled: its top-level code. A function is compiled when it is first called, so every run
// compiles Commander's parser, the client and the output layer again. Node's public `vm.Script`
// can make a cache after the code has run (`createCachedData()`), which then holds every function
// compiled so far, and take it back (`cachedData`) on the next run. This module does that for the
// build's own CommonJS files, which it runs as Node's CommonJS loader would (the same wrapper
// arguments, one module object per file, a file required twice runs once); packages and built-ins
// go to Node's own `require`. A package the CLI loads with import() (the ES-module-only ones) is
// imported by dist/cli/import.cjs, which Node's own loader compiles: code compiled by `vm.Script`
// cannot call import() without an experimental flag.
//
// The cache is a quiet optimisation: any failure to read or write it leaves the CLI running as
// from an empty cache, and `NODE_DISABLE_COMPILE_CACHE` (Node's own switch) turns it off.
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { cacheDir } from '../config/paths.js';

/** The first line of a cache file: what the code in it was made from. */
const MAGIC = 'formctl-code-cache/1';
/** A file of the CLI that Node's own loader must compile: it holds the build's only import(). */
const NATIVE = new Set(['import.cjs']);
/** Command groups a cache file records at most; a run of another one then uses it without adding to it. */
const MAX_GROUPS = 32;

interface Loaded {
  /** The CLI's file. */
  file: string;
  /** Where the cache of this file goes. */
  cacheFile: string;
  /** What the source was when it was read: a cache made from another file is never used. */
  identity: string;
  script: Script;
  /** Groups whose runs the cache now read held; undefined when it had to be made afresh. */
  groups: string[] | undefined;
}

/**
 * The directory for the caches of one installed build on this Node. V8 takes a cache only from its
 * own version and flags (and says so: `cachedDataRejected`), so each Node version and architecture
 * has its own; each install of formctl (a global one, a project's) its own below that, named by
 * the device and inode of its `dist/cli` directory, so that two installs do not take turns at one
 * file.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv, cliDir: string): string {
  const st = statSync(cliDir);
  return join(cacheDir(env), 'code', `${process.version}-${process.arch}`, `${st.dev}-${st.ino}`);
}

/**
 * A file's identity for its cache: inode, size and change time. The build replaces a file by
 * renaming a new one over it, and npm installs a new file, so a changed file has another inode or
 * change time even where npm gives every file the same modification time.
 */
function identityOf(fd: number): string {
  const st = fstatSync(fd);
  return `${st.dev}:${st.ino}:${st.size}:${st.ctimeMs}`;
}

/** The cached code for a file of this identity, and the groups it was made by; undefined when there is none that fits. */
function readCache(cacheFile: string, identity: string): { data: Buffer; groups: string[] } | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const eol = bytes.indexOf(10);
  if (eol < 0) return undefined;
  const [magic, id, groups] = bytes.subarray(0, eol).toString('latin1').split(' ');
  if (magic !== MAGIC || id !== identity || groups === undefined) return undefined;
  return { data: bytes.subarray(eol + 1), groups: groups === '-' ? [] : groups.split(',') };
}

/**
 * The command group a run is for (`workspace` in `formctl workspace list`), as a cache records it:
 * a cache made by one group's run lacks the functions only other groups call, so the first run of
 * a group it has not seen makes it again, holding both. Only a word shaped like a command counts.
 */
export function groupOf(args: readonly string[]): string {
  const word = args.find((a) => !a.startsWith('-'));
  return word !== undefined && /^[a-z_][a-z-]{0,30}$/.test(word) ? word : '-';
}

/**
 * Requires `entry` (a CommonJS file of the build) with the code cache and returns its exports. The
 * caches of the files it loaded are written when the process exits, for files whose cache was
 * missing, stale or made by runs of other command groups.
 */
export function loadWithCodeCache(entry: string, env: NodeJS.ProcessEnv, args: readonly string[]): unknown {
  const nodeRequire = createRequire(entry);
  if (env.NODE_DISABLE_COMPILE_CACHE) return nodeRequire(entry);
  let dir: string;
  try {
    dir = codeCacheDir(env, dirname(entry));
  } catch {
    return nodeRequire(entry);
  }
  const group = groupOf(args);
  const modules = new Map<string, { exports: unknown }>();
  const loaded: Loaded[] = [];

  const load = (file: string): unknown => {
    const known = modules.get(file);
    if (known) return known.exports;
    if (NATIVE.has(basename(file))) return nodeRequire(file);
    const fd = openSync(file, 'r');
    let identity: string;
    let source: string;
    try {
      identity = identityOf(fd);
      source = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
    const cacheFile = join(dir, `${basename(file)}.v8`);
    const cached = readCache(cacheFile, identity);
    // Node's CommonJS wrapper, on a line of its own so that line numbers in stacks stay the file's.
    const script = new Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
      filename: file,
      lineOffset: -1,
      cachedData: cached?.data,
    });
    const used = cached !== undefined && !script.cachedDataRejected;
    loaded.push({ file, cacheFile, identity, script, groups: used ? cached.groups : undefined });
    const module = { exports: {} as unknown };
    modules.set(file, module);
    const here = dirname(file);
    const require = (id: string): unknown => (id.startsWith('./') || id.startsWith('../') ? load(resolve(here, id)) : nodeRequire(id));
    (script.runInThisContext() as (...a: unknown[]) => void).call(module.exports, module.exports, require, module, file, here);
    return module.exports;
  };

  process.once('exit', () => saveCaches(dir, loaded, group));
  return load(entry);
}

/** Writes the caches that were missing, stale, or lack this run's group. Never throws. */
function saveCaches(dir: string, loaded: readonly Loaded[], group: string): void {
  const stale = loaded.filter((l) => l.groups === undefined || (!l.groups.includes(group) && l.groups.length < MAX_GROUPS));
  if (stale.length === 0) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  for (const l of stale) {
    const groups = [...(l.groups ?? []), group];
    const tmp = `${l.cacheFile}.${process.pid}.tmp`;
    try {
      const head = Buffer.from(`${MAGIC} ${l.identity} ${groups.join(',')}\n`, 'latin1');
      writeFileSync(tmp, Buffer.concat([head, l.script.createCachedData()]), { mode: 0o600 });
      renameSync(tmp, l.cacheFile);
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // Nothing was written.
      }
    }
  }
  pruneCaches(dir, loaded);
  pruneOld(dirname(dir));
  pruneOld(dirname(dirname(dir)));
}

/** Days after which the caches of another install or Node version, unchanged since, are removed. */
const OLD_DAYS = 30;

/** Removes the directories in `parent` (other installs, other Node versions) that no run has written to for OLD_DAYS. */
function pruneOld(parent: string): void {
  try {
    const before = Date.now() - OLD_DAYS * 86_400_000;
    for (const e of readdirSync(parent, { withFileTypes: true })) {
      const p = join(parent, e.name);
      if (e.isDirectory() && statSync(p).mtimeMs < before) rmSync(p, { recursive: true, force: true });
    }
  } catch {
    // As for pruneCaches.
  }
}

/**
 * Removes the caches of files the installed build no longer has (chunks of an older version,
 * named by their content), so that the directory does not grow with every upgrade: a cache whose
 * file is in none of the directories this run loaded files from goes.
 */
function pruneCaches(dir: string, loaded: readonly Loaded[]): void {
  try {
    const present = new Set<string>();
    for (const d of new Set(loaded.map((l) => dirname(l.file)))) for (const name of readdirSync(d)) present.add(`${name}.v8`);
    for (const name of readdirSync(dir)) {
      if (name.endsWith('.v8') && !present.has(name)) unlinkSync(join(dir, name));
    }
  } catch {
    // A cache left behind costs disk space only.
  }
}
