// Startup, loaded by the shim bin/formctl.js. It answers `--version` without loading anything and
// hands over to the CLI:
// - Node >= 22.1: the ESM build (dist/main.js and its chunks) with Node's compile cache;
// - older Node (20): the same CLI bundled as one script, dist/single.js, compiled through
//   vm.Script with a V8 code cache kept in the cache directory; dist/main.js if anything is off.
// Why (measurements in docs/performance.md): on Node 20 every ESM chunk costs resolution, reads,
// compilation and linking, and nothing is cached between runs. Built-ins are taken with
// process.getBuiltinModule: an ESM `import` of a built-in builds a facade that evaluates all its
// lazy exports (node:fs then loads its streams and promises API).
// This file is its own esbuild entry, built as CommonJS (dist/boot.cjs): with the CommonJS shim, the
// Node 20 path never starts the ESM loader for commands that load no ESM package (--help: ~6 ms).
// It imports nothing; paths below are relative to dist/.

type Fs = typeof import('node:fs');
type V8 = typeof import('node:v8');
type Vm = typeof import('node:vm');
type NodeModule = typeof import('node:module');
type Trace = (line: string) => void;
interface CodeCache {
  path: string;
  key: string;
  data?: Buffer;
}

const builtin = process.getBuiltinModule as <T>(id: string) => T;
// Code cache file: "FMC1", uint32 LE length of a JSON header ({ key }), the header, V8's data.
// One file per Node version, architecture and command group (each holds the functions its command
// compiled: `--help` does not deserialize undici's); the key (bundle hash and length) must match.
const MAGIC = 'FMC1';
const nodeModule = builtin<NodeModule>('node:module');
const args = process.argv.slice(2);
const here = builtin<typeof import('node:url')>('node:url').pathToFileURL(__filename);

void start().catch((err: unknown) => {
  process.stderr.write(`error: ${(err as Error)?.message ?? String(err)}\n`);
  process.exitCode = 1;
});

/** Picks the fastest way to run the CLI on this Node. */
async function start(): Promise<void> {
  if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) {
    // The root help is fixed text (80 columns): the build renders it with the CLI itself.
    const help = readText(new URL('./root-help.txt', here));
    if (help !== undefined) {
      process.stdout.write(help);
      return;
    }
  }
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
    // The same answer Commander gives, without loading it and the CLI (docs/performance.md).
    const pkg = builtin<Fs>('node:fs').readFileSync(new URL('../package.json', here), 'utf8');
    process.stdout.write(`${(JSON.parse(pkg) as { version: string }).version}\n`);
  } else if (
    // FORMCTL_CODE_CACHE=0 is the escape hatch: always the ESM build, no cache file.
    'enableCompileCache' in nodeModule ||
    process.env.FORMCTL_CODE_CACHE === '0' ||
    !(await runSingle())
  ) {
    const { cli } = (await import(new URL('./main.js', here).href)) as { cli: () => Promise<void> };
    await cli();
  }
}

/** A file's text, or undefined when it cannot be read. */
function readText(url: URL): string | undefined {
  try {
    return builtin<Fs>('node:fs').readFileSync(url, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Runs dist/single.js with a V8 code cache. Returns false, having run nothing, when the bundle is
 * missing or unusable (the caller falls back to dist/main.js). Cache problems are never errors:
 * a missing, stale, corrupt or unwritable cache only costs the compile it would have saved.
 */
async function runSingle(): Promise<boolean> {
  const fs = builtin<Fs>('node:fs');
  const file = builtin<typeof import('node:url')>('node:url').fileURLToPath(new URL('./single.js', here));
  let source: string;
  try {
    // The build checks that the bundle is ASCII, so latin1 reads it exactly, without UTF-8 decoding.
    source = fs.readFileSync(file, 'latin1');
  } catch {
    return false;
  }
  const header = /^\/\/ formctl single ([0-9a-f]{32})\n/.exec(source.slice(0, 64));
  if (!header) return false;
  const trace: Trace = process.env.FORMCTL_STARTUP_TRACE === '1' ? (line) => process.stderr.write(`[startup] ${line}\n`) : () => {};
  const cache = readCodeCache(fs, `${header[1]}:${source.length}`, commandWord(args), trace);
  const v8 = builtin<V8>('node:v8');
  const vm = builtin<Vm>('node:vm');
  let main: { cli: () => Promise<void>; script: import('node:vm').Script; stale: boolean };
  try {
    // V8 in Node 20 checks a code cache's checksum only with this flag (a damaged cache would crash
    // the deserializer). It is on only around compiling: a changed flag set also makes V8 refuse
    // the code cache node embeds for its own built-ins, which would slow every later require.
    if (cache.data) v8.setFlagsFromString('--verify-snapshot-checksum');
    let script: import('node:vm').Script;
    try {
      script = new vm.Script(source, { filename: file, cachedData: cache.data });
    } finally {
      if (cache.data) v8.setFlagsFromString('--no-verify-snapshot-checksum');
    }
    const stale = cache.data !== undefined && script.cachedDataRejected === true;
    trace(`code cache ${cache.data ? (stale ? 'rejected' : 'used') : 'absent'}: ${cache.path}`);
    const wrapper = script.runInThisContext() as (...a: unknown[]) => void;
    const mod = { exports: {} as { cli: () => Promise<void> } };
    wrapper.call(mod.exports, mod.exports, bundleRequire(nodeModule.createRequire(file)), mod, (specifier: string) => import(specifier));
    main = { cli: mod.exports.cli, script, stale };
  } catch (err) {
    trace(`single-file bundle unusable, using dist/main.js: ${(err as Error)?.message ?? err}`);
    return false;
  }
  await main.cli();
  // Written after the command ran, so that it holds the functions the command compiled.
  if (!cache.data || main.stale) writeCodeCache(fs, v8, cache, main.script, trace);
  return true;
}

/**
 * require for the bundle. Commander requires node:child_process at load (with node:net, ~4 ms) for
 * executable subcommands, which formctl has none of: it gets the module on first use. formctl's
 * own code imports child_process with import(), which is not affected.
 */
function bundleRequire(require: NodeJS.Require): (id: string) => unknown {
  let childProcess: object | undefined;
  const load = (): object => (childProcess ??= require('node:child_process') as object);
  const lazy = new Proxy(
    {},
    {
      get: (_, key) => (load() as Record<PropertyKey, unknown>)[key],
      has: (_, key) => key in load(),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_, key) => {
        const d = Reflect.getOwnPropertyDescriptor(load(), key);
        return d && { ...d, configurable: true };
      },
    },
  );
  return (id) => (id === 'node:child_process' ? lazy : require(id));
}

/** The command group argv names (its first word that is not an option or an option's value), for the cache file name. */
function commandWord(argv: string[]): string {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--profile' || a === '--timeout' || a === '--max-wait') i++;
    else if (!a.startsWith('-')) return /^[a-z][a-z0-9_-]{0,19}$/.test(a) ? a : 'other';
  }
  return 'root';
}

/** Cache directory as src/config/paths.ts computes it (not imported: this file loads nothing of the CLI). */
function cacheDir(): string {
  const env = process.env;
  if (env.FORMCTL_CACHE_DIR) return env.FORMCTL_CACHE_DIR;
  const path = builtin<typeof import('node:path')>('node:path');
  return path.join(env.XDG_CACHE_HOME || path.join(builtin<typeof import('node:os')>('node:os').homedir(), '.cache'), 'formctl');
}

function readCodeCache(fs: Fs, key: string, group: string, trace: Trace): CodeCache {
  const path = `${cacheDir()}/code-cache/single-${process.version}-${process.arch}-${group}.bin`;
  const none: CodeCache = { path, key };
  let buf: Buffer;
  try {
    buf = fs.readFileSync(path);
  } catch {
    return none;
  }
  try {
    if (buf.length < 8 || buf.toString('latin1', 0, 4) !== MAGIC) throw new Error('bad magic');
    const len = buf.readUInt32LE(4);
    const meta = JSON.parse(buf.toString('utf8', 8, 8 + len)) as { key?: string };
    if (meta.key !== key) throw new Error('built from another dist/single.js');
    const data = buf.subarray(8 + len);
    if (data.length === 0) throw new Error('no data');
    return { path, key, data };
  } catch (err) {
    trace(`code cache ignored: ${(err as Error).message}`);
    return none;
  }
}

function writeCodeCache(fs: Fs, v8: V8, cache: CodeCache, script: import('node:vm').Script, trace: Trace): void {
  try {
    // The same V8 flags as when the cache is read (see runSingle), or V8 refuses the cache: the
    // checksum on, and Liftoff-only (set by the API client before undici compiles its WASM parser)
    // off for the moment, with the two defaults it turned off. Nothing runs WebAssembly any more
    // at this point; Liftoff-only is put back all the same.
    v8.setFlagsFromString('--no-liftoff-only');
    v8.setFlagsFromString('--wasm-tier-up');
    v8.setFlagsFromString('--wasm-dynamic-tiering');
    v8.setFlagsFromString('--verify-snapshot-checksum');
    let data: Buffer;
    try {
      data = script.createCachedData();
    } finally {
      v8.setFlagsFromString('--no-verify-snapshot-checksum');
      v8.setFlagsFromString('--liftoff-only');
    }
    const meta = Buffer.from(JSON.stringify({ key: cache.key }));
    const head = Buffer.alloc(8);
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(meta.length, 4);
    const dir = cache.path.slice(0, cache.path.lastIndexOf('/'));
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Atomic: concurrent runs each write their own temporary file and rename it over the cache.
    const tmp = `${cache.path}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, Buffer.concat([head, meta, data]), { mode: 0o600 });
      fs.renameSync(tmp, cache.path);
    } catch (err) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        // Nothing to clean up.
      }
      throw err;
    }
    trace(`code cache written: ${cache.path} (${data.length} bytes)`);
  } catch (err) {
    trace(`code cache not written: ${(err as Error).message}`);
  }
}
