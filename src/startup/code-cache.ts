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
// arguments, one module object per file, a file required twice runs once, a file that throws while
// loading is not kept); packages and built-ins go to Node's own `require`. A package the CLI loads
// with import() (the ES-module-only ones) is imported by dist/cli/import.cjs, which Node's own
// loader compiles: code compiled by `vm.Script` cannot call import() without an experimental flag.
//
// The cache is a quiet optimisation: any failure to read or write it leaves the CLI running as
// from an empty cache, and `NODE_DISABLE_COMPILE_CACHE` (Node's own switch) turns it off.
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  futimesSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { codeCacheGroup } from '../code-cache-group.js';
import { nameKey } from '../name-key.js';
import { cacheDir } from '../config/paths.js';
import { processAlive } from '../process-alive.js';

/** The first line of a cache file: what the code in it was made from. */
const MAGIC = 'formctl-code-cache/3';
/**
 * The modification time a run gives a cache file it wrote (2001-09-09T01:46:40Z), before it renames
 * it into place: any later write to the file (an edit, a tool, anything but a run of formctl) sets
 * it to the time of that write, and a cache file with another one is not offered to V8 (see readCache).
 */
const SEALED_MS = 1_000_000_000_000;
/** A file of the CLI that Node's own loader must compile: it holds the build's only import(). */
const NATIVE = new Set(['import.cjs']);
/** Command groups a cache file records at most; a run of another one then uses it without adding to it. */
const MAX_GROUPS = 32;
/** A run's mark in its caches' directory while it runs (see loadWithCodeCache). */
const RUNNING = /^running\.(\d+)$/;

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
 * A short, stable name for the V8 flags this process runs with (`node --…` and NODE_OPTIONS): V8
 * takes a cache only from the same flags (and says so: `cachedDataRejected`), so caches made under
 * other flags live apart instead of being made again at every switch. A cache key, not a secret:
 * FNV-1a over the flags' text.
 */
function flagsName(env: NodeJS.ProcessEnv): string {
  return nameKey(`${process.execArgv.join('\0')}\0\0${env.NODE_OPTIONS ?? ''}`);
}

/**
 * The directory for the caches of one installed build on this Node. V8 takes a cache only from its
 * own version and flags, so each Node version, architecture and set of flags has its own; each
 * install of formctl (a global one, a project's) its own below that, named by the device and inode
 * of its `dist/cli` directory, so that two installs do not take turns at one file.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv, cliDir: string): string {
  const st = statSync(cliDir);
  return join(cacheDir(env), 'code', `${process.version}-${process.arch}-${flagsName(env)}`, `${st.dev}-${st.ino}`);
}

/**
 * A file's identity for its cache: inode, size and change time. The build replaces a file by
 * renaming a new one over it, npm installs a new file, and an edit in place sets the change time,
 * so a changed file has another inode or change time even where npm gives every file the same
 * modification time.
 */
function identityOf(fd: number): { identity: string; size: number } {
  const st = fstatSync(fd);
  return { identity: `${st.dev}:${st.ino}:${st.size}:${st.ctimeMs}`, size: st.size };
}

/** Node's CommonJS wrapper, the file's first line on a line of its own so that line numbers in stacks stay the file's. */
const WRAP_HEAD = Buffer.from('(function (exports, require, module, __filename, __dirname) {\n', 'latin1');
const WRAP_TAIL = Buffer.from('\n})', 'latin1');

/**
 * The file's text inside Node's CommonJS wrapper, as one string made at once: read into a buffer
 * between the wrapper's head and tail, then decoded. Wrapping a string read first (a template) made
 * V8 flatten the two into a second copy of the ~0.8 MB for the compiler: two large strings, which
 * filled V8's young generation and cost a collection at every run (docs/performance.md).
 */
function wrappedSource(fd: number, size: number): string {
  const bytes = Buffer.allocUnsafe(WRAP_HEAD.length + size + WRAP_TAIL.length);
  WRAP_HEAD.copy(bytes, 0);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, bytes, WRAP_HEAD.length + at, size - at, at);
    if (n === 0) break;
    at += n;
  }
  const end = WRAP_HEAD.length + at;
  WRAP_TAIL.copy(bytes, end);
  return bytes.toString('utf8', 0, end + WRAP_TAIL.length);
}

/**
 * The cached code for a file of this identity, and the groups it was made by; undefined when there
 * is none that fits. V8 checks a cache's header, not its code, and damaged code may end the process
 * or run wrong (docs/performance.md, "A code cache of what ran"): so only a file as a run of formctl
 * left it is offered, one whose modification time is still the one that run gave it (SEALED_MS).
 * That costs one fstat, where a checksum of the code cost loading node:zlib (1–2 ms a run).
 */
function readCache(cacheFile: string, identity: string): { data: Buffer; groups: string[] } | undefined {
  let bytes: Buffer;
  try {
    const fd = openSync(cacheFile, 'r');
    try {
      if (fstatSync(fd).mtimeMs !== SEALED_MS) return undefined;
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const eol = bytes.indexOf(10);
  if (eol < 0) return undefined;
  const [magic, id, size, groups] = bytes.subarray(0, eol).toString('latin1').split(' ');
  const data = bytes.subarray(eol + 1);
  if (magic !== MAGIC || id !== identity || size !== String(data.length) || groups === undefined) return undefined;
  return { data, groups: groups.split(',') };
}

/**
 * Takes the caches out of use when a run that used them died (its mark is left and its process is
 * gone): V8 checks a cache's header, not its code, and a damaged one can end the process at once, at
 * every run, before it could write a cache again. A run killed for another reason costs the next
 * one its caches, made again at its exit; a run that found such a mark offers V8 no cache at all
 * (another run may not have finished removing them). Then marks this run. Never throws.
 */
function guardAgainstCrashes(dir: string): { mark: string | undefined; distrust: boolean } {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { mark: undefined, distrust: false };
  }
  const dead = names.filter((n) => {
    const m = RUNNING.exec(n);
    return m !== null && Number(m[1]) !== process.pid && !processAlive(Number(m[1]));
  });
  // Another run may be removing the same files at the same moment: each removal is its own try.
  if (dead.length > 0) for (const n of [...names.filter((n) => n.endsWith('.v8')), ...dead]) rmSync(join(dir, n), { force: true });
  const mark = join(dir, `running.${process.pid}`);
  try {
    writeFileSync(mark, '');
  } catch {
    return { mark: undefined, distrust: dead.length > 0 };
  }
  return { mark, distrust: dead.length > 0 };
}

/**
 * Requires `entry` (a CommonJS file of the build) with the code cache and returns its exports. The
 * caches of the files it loaded are written when the process exits, for files whose cache was
 * missing, stale or made by runs of other command groups (the group the CLI records,
 * src/code-cache-group.ts).
 */
export function loadWithCodeCache(entry: string, env: NodeJS.ProcessEnv, nodeRequire: (id: string) => unknown): unknown {
  // Stacks mapped to src/ (node --enable-source-maps) come from Node's loader only.
  if (env.NODE_DISABLE_COMPILE_CACHE || process.sourceMapsEnabled) return nodeRequire(entry);
  let dir: string;
  try {
    dir = codeCacheDir(env, dirname(entry));
  } catch {
    return nodeRequire(entry);
  }
  const { mark, distrust } = guardAgainstCrashes(dir);
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
      const read = identityOf(fd);
      identity = read.identity;
      source = wrappedSource(fd, read.size);
    } finally {
      closeSync(fd);
    }
    const cacheFile = join(dir, `${basename(file)}.v8`);
    const cached = distrust ? undefined : readCache(cacheFile, identity);
    const script = new Script(source, {
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
    try {
      (script.runInThisContext() as (...a: unknown[]) => void).call(module.exports, module.exports, require, module, file, here);
    } catch (err) {
      // As Node's loader: a file that failed to load is not handed out half-made to a later require.
      modules.delete(file);
      throw err;
    }
    return module.exports;
  };

  process.once('exit', () => {
    saveCaches(dir, loaded, codeCacheGroup() ?? '-');
    if (mark !== undefined) rmSync(mark, { force: true });
  });
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
      const data = l.script.createCachedData();
      const head = Buffer.from(`${MAGIC} ${l.identity} ${data.length} ${groups.join(',')}\n`, 'latin1');
      // The code on disk before the seal and the rename: after a power cut, a cache whose blocks
      // were never written must not carry the seal (the file system may keep the rename and its
      // times, but not the data). Once per group and install, at the end of a first run.
      const fd = openSync(tmp, 'w', 0o600);
      try {
        writeFileSync(fd, Buffer.concat([head, data]));
        fdatasyncSync(fd);
        const sealed = new Date(SEALED_MS);
        futimesSync(fd, sealed, sealed);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, l.cacheFile);
    } catch {
      rmSync(tmp, { force: true });
    }
  }
  pruneCaches(dir, loaded);
  // This install's and this Node's directories are in use: the next pruning (by any install) keeps them.
  const now = new Date();
  for (const d of [dir, dirname(dir)]) {
    try {
      utimesSync(d, now, now);
    } catch {
      // Pruned later than it could be at worst.
    }
  }
  pruneOld(dirname(dir), dir);
  pruneOld(dirname(dirname(dir)), dirname(dir));
}

/**
 * Removes the caches of files the installed build no longer has (chunks of an older version,
 * named by their content), so that the directory does not grow with every upgrade: a cache whose
 * file is in none of the directories this run loaded files from goes; so does a temporary file of
 * a run that is gone (killed while it wrote).
 */
function pruneCaches(dir: string, loaded: readonly Loaded[]): void {
  try {
    const present = new Set<string>();
    for (const d of new Set(loaded.map((l) => dirname(l.file)))) for (const name of readdirSync(d)) present.add(`${name}.v8`);
    for (const name of readdirSync(dir)) {
      const tmp = /\.(\d+)\.tmp$/.exec(name);
      if ((name.endsWith('.v8') && !present.has(name)) || (tmp !== null && !processAlive(Number(tmp[1])))) unlinkSync(join(dir, name));
    }
  } catch {
    // A cache left behind costs disk space only.
  }
}

/** Days after which the caches of another install or Node version, unchanged since, are removed. */
const OLD_DAYS = 30;

/** Removes the directories in `parent` other than `own` (other installs, other Node versions) that no run has written to for OLD_DAYS. */
function pruneOld(parent: string, own: string): void {
  try {
    const before = Date.now() - OLD_DAYS * 86_400_000;
    for (const e of readdirSync(parent, { withFileTypes: true })) {
      const p = join(parent, e.name);
      if (p !== own && e.isDirectory() && statSync(p).mtimeMs < before) rmSync(p, { recursive: true, force: true });
    }
  } catch {
    // As for pruneCaches.
  }
}
