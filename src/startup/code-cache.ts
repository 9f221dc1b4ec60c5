// Loads the CLI (dist/cli/main.cjs and the chunks it requires) with a V8 code cache that holds the
// functions a command ran, not only the top-level code: bundled into bin/formctl.js with
// ./bin.ts, which calls it on every Node version (docs/performance.md, "A code cache of what ran").
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
import { codeCacheGroup, groupWord } from '../code-cache-group.js';
import { nameKey } from '../name-key.js';
import { cacheDir } from '../config/paths.js';
import { processAlive } from '../process-alive.js';

/** The first line of a cache file: what the code in it was made from. */
const MAGIC = 'formctl-code-cache/4';
/**
 * The modification time a run gives a cache file it wrote (2001-09-09T01:46:40Z), before it renames
 * it into place: any later write to the file (an edit, a tool, anything but a run of formctl) sets
 * it to the time of that write, and a cache file with another one is not offered to V8 (see readCache).
 */
const SEALED_MS = 1_000_000_000_000;
/** A file of the CLI that Node's own loader must compile: it holds the build's only import(). */
const NATIVE = new Set(['import.cjs']);
/**
 * The key of the caches of runs whose word named no command group of the CLI (a help topic, the root
 * help, a mistyped command): one cache for them all, and the one a word without a cache of its own
 * starts from.
 */
const OTHER = '-';
/** A cache file's name: the file it is for, the key of the command word whose runs made it. */
const CACHE_NAME = /^(.+)\.([0-9a-f]{8}|-)\.v8$/;
/** Caches kept per file of the CLI (one per command word a user has run): the oldest go beyond it. */
const MAX_KEYS = 40;
/** A run's mark in its caches' directory while it runs (see loadWithCodeCache). */
const RUNNING = /^running\.(\d+)$/;

interface Loaded {
  /** The CLI's file. */
  file: string;
  /** What the source was when it was read: a cache made from another file is never used. */
  identity: string;
  script: Script;
  /** The key of the cache V8 took for it; undefined when there was none it could take. */
  used: string | undefined;
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
  // Latin-1, which is ASCII here: the build refuses to write a file of the CLI that is not ASCII
  // (scripts/build.mjs; esbuild escapes every other character), and V8 takes a one-byte string as it
  // is, where UTF-8 is checked and converted byte by byte (~0.2 ms for the CLI's file, Node 24).
  return bytes.toString('latin1', 0, end + WRAP_TAIL.length);
}

/**
 * The cached code for a file of this identity; undefined when there is none that fits. V8 checks a
 * cache's header, not its code, and damaged code may end the process or run wrong
 * (docs/performance.md, "A code cache of what ran"): so only a file as a run of formctl left it is
 * offered, one whose modification time is still the one that run gave it (SEALED_MS). That costs
 * one fstat, where a checksum of the code cost loading node:zlib (1–2 ms a run).
 */
function readCache(cacheFile: string, identity: string): Buffer | undefined {
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
  const [magic, id, size, extra] = bytes.subarray(0, eol).toString('latin1').split(' ');
  const data = bytes.subarray(eol + 1);
  if (magic !== MAGIC || id !== identity || size !== String(data.length) || extra !== undefined) return undefined;
  return data;
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
 * Requires `entry` (a CommonJS file of the build) with the code cache and returns its exports.
 *
 * Each file has a cache per command word (`workspace`, `form`, …): V8 makes a function of every
 * function a cache holds, run or not, so a cache holding what every command a user ran needed cost
 * each command more the more groups had run (1.85 ms on Node 24 after 11 groups). The word is read
 * from argv before the CLI exists (groupWord) and named in the file name by a key (FNV-1a, as the
 * rate budget's files: no word of a command line is written anywhere). A word with no cache yet
 * starts from the OTHER one. When the process exits, the caches of the files it loaded are written
 * under its word's key if the CLI said the word named a command group (src/code-cache-group.ts),
 * else under OTHER, for files whose cache was missing or stale; a run that took its word's cache
 * writes nothing.
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
  const word = groupWord(process.argv.slice(2));
  const key = word === undefined ? OTHER : nameKey(word);
  const keys = key === OTHER ? [OTHER] : [key, OTHER];
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
    let cached: Buffer | undefined;
    let from: string | undefined;
    for (const k of distrust ? [] : keys) {
      cached = readCache(join(dir, `${basename(file)}.${k}.v8`), identity);
      from = k;
      if (cached !== undefined) break;
    }
    const script = new Script(source, {
      filename: file,
      lineOffset: -1,
      cachedData: cached,
    });
    loaded.push({ file, identity, script, used: cached !== undefined && !script.cachedDataRejected ? from : undefined });
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
    saveCaches(dir, loaded, codeCacheGroup() === undefined ? OTHER : key);
    if (mark !== undefined) rmSync(mark, { force: true });
  });
  return load(entry);
}

/**
 * Writes, under `key`, the caches of the files that had none V8 could take, and of those that
 * started from OTHER's for a word of their own. Never throws.
 */
function saveCaches(dir: string, loaded: readonly Loaded[], key: string): void {
  const stale = loaded.filter((l) => l.used === undefined || (l.used === OTHER && key !== OTHER));
  if (stale.length === 0) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  for (const l of stale) {
    const cacheFile = join(dir, `${basename(l.file)}.${key}.v8`);
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    try {
      const data = l.script.createCachedData();
      const head = Buffer.from(`${MAGIC} ${l.identity} ${data.length}\n`, 'latin1');
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
      renameSync(tmp, cacheFile);
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
 * file is in none of the directories this run loaded files from goes, and so does one named as an
 * older formctl named them; so does a temporary file of a run that is gone (killed while it
 * wrote). Beyond MAX_KEYS caches of one file (words of commands), the oldest written go.
 */
function pruneCaches(dir: string, loaded: readonly Loaded[]): void {
  try {
    const present = new Set<string>();
    for (const d of new Set(loaded.map((l) => dirname(l.file)))) for (const name of readdirSync(d)) present.add(name);
    const kept = new Map<string, string[]>();
    for (const name of readdirSync(dir)) {
      const tmp = /\.(\d+)\.tmp$/.exec(name);
      const cache = CACHE_NAME.exec(name);
      if ((name.endsWith('.v8') && (cache === null || !present.has(cache[1]!))) || (tmp !== null && !processAlive(Number(tmp[1])))) {
        unlinkSync(join(dir, name));
      } else if (cache !== null) {
        kept.set(cache[1]!, [...(kept.get(cache[1]!) ?? []), name]);
      }
    }
    for (const names of kept.values()) {
      if (names.length <= MAX_KEYS) continue;
      // Every cache has the same modification time (the seal): the change time is when it was written.
      const byAge = names.map((name) => ({ name, at: statSync(join(dir, name)).ctimeMs })).sort((a, b) => b.at - a.at);
      for (const { name } of byAge.slice(MAX_KEYS)) rmSync(join(dir, name), { force: true });
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
