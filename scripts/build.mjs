// Bundles src/ into dist/ with esbuild. The CLI (dist/cli/) is CommonJS, code-split so that every
// lazily imported command group (and each heavy dependency path) is its own file: esbuild splits only
// ES modules, so it is built as ES modules first and each file is then turned into CommonJS by esbuild
// itself (below). The sandbox (dist/sandbox.js, imported by scripts and benches) stays an ES module.
// Files are written atomically, chunks before entry points, so a build never breaks a formctl
// process that is running from dist/ at the same moment (parallel test runs).
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build, transformSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outdir = join(root, 'dist');
const cliDir = join(outdir, 'cli');
const BUNDLED = new Set(['commander', '@commander-js/extra-typings', 'undici']);
// The one file of the CLI that holds an import() (of a package): see toCommonJs.
const IMPORTER = 'import.cjs';

// Node's built-in modules are bundled as CommonJS shims over `process.getBuiltinModule()` (Node
// 20.16+), not imported through the ESM loader. An ESM import of a built-in gets a facade that
// reads every export at once, lazy getters included: on Node 22 and later node:http's export of
// WebSocket then loads Node's whole undici, its fetch and its WebAssembly parser (+26 ms of CPU on
// Node 24), node:fs's `promises` loads fs/promises, and so on. The shim is an object whose
// prototype is a Proxy that loads the module on the first read of any name and answers from it, so
// a module imported but not used on a command's path (node:child_process by Commander, node:zlib
// for compressed answers, node:https for https:// services) costs nothing, and every name the
// running Node has is there. The shim has no own property: esbuild's interop (`__toESM`) copies
// a module's own properties into getters of its own, which for one getter per export (as the shim
// was until 2026-11-28) made ~220 getters twice over at start (docs/performance.md).
const builtinsWithoutFacade = (plain = new Set()) => ({
  name: 'builtins-without-esm-facade',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      // A dynamic import() of a shim would give only its `default` (esbuild's chunk for a CommonJS
      // module): import built-ins statically, which costs nothing until a member is read.
      if (args.kind === 'dynamic-import') return { errors: [{ text: `import ${args.path} statically: the build loads a built-in on its first use` }] };
      // A shim has no side effects: one imported by a module whose exports go unused is left out.
      return plain.has(args.path) ? { path: args.path, external: true } : { path: args.path, namespace: 'node-builtin', sideEffects: false };
    });
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => {
      // Probed quietly: loading node:sqlite prints an ExperimentalWarning on Node 22 and later.
      const warn = process.emitWarning;
      process.emitWarning = () => undefined;
      let mod;
      try {
        mod = process.getBuiltinModule(args.path);
      } finally {
        process.emitWarning = warn;
      }
      // A built-in this Node lacks (node:sqlite, required lazily by undici's cache store), or one that
      // is itself a function (node:events is EventEmitter, node:stream is Stream, which classes extend):
      // read at once, as it is.
      if (typeof mod !== 'object' || mod === null)
        return { contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`, loader: 'js' };
      return {
        contents: [
          `let m;`,
          `const load = () => (m ??= process.getBuiltinModule(${JSON.stringify(args.path)}));`,
          `module.exports = Object.create(new Proxy({}, {`,
          // What esbuild's interop and a promise probe on any module: no built-in exports either name.
          `  get: (_, key) => (key === '__esModule' || key === 'then' ? undefined : load()[key]),`,
          `  has: (_, key) => key in load(),`,
          `}));`,
        ].join('\n'),
        loader: 'js',
      };
    });
  },
});

// Built-ins that Node has loaded before any command runs (or that every command needs at once, as
// node:path for the config's paths, or node:stream and node:string_decoder, which node:http loads
// anyway), on every Node line: the CommonJS CLI requires them as they are, since a shim of one would
// cost its getters and a file of its own for nothing. Any other one (node:http, node:crypto,
// node:child_process, node:zlib, node:os, whose home directory a run needs only without $HOME, …)
// is a shim, loaded on first use (docs/performance.md).
const LOADED_AT_START = new Set(
  ['buffer', 'events', 'fs', 'module', 'path', 'process', 'querystring', 'stream', 'string_decoder', 'timers', 'url', 'util'].map((n) => `node:${n}`),
);

const common = {
  plugins: [builtinsWithoutFacade()],
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  // Dependencies stay in node_modules (several are CommonJS with dynamic requires), except three,
  // bundled from their public entry points: commander (every command needs it: one module instead
  // of seven CommonJS files), @commander-js/extra-typings (types over commander plus a re-export of
  // its classes: bundled, it adds a few lines and shares the one bundled commander instead of
  // loading a second copy from node_modules) and undici (only for a proxy: one chunk instead of
  // ~100 CommonJS files; docs/performance.md).
  external: Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name)),
  // Whitespace and syntax only (names stay, so a --debug stack still names its functions): the
  // undici chunk shrinks from 1.08 MB to 0.73 MB, which Node parses whenever it loads it (Node 20
  // has no compile cache; Node 24's holds top-level code only; docs/performance.md).
  minifyWhitespace: true,
  minifySyntax: true,
  define: { __FORMCTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  write: false,
};

// The CLI, as one CommonJS file (dist/cli/main.cjs): Node's ESM loader costs a command that sends
// one request more CPU than the request itself (it links every module of the graph, and an ES module
// import of a Node built-in such as node:http evaluates all its exports, some of which load more of
// Node: node:http's load Node's internal undici, node:fs's its streams and readline). A CommonJS file
// loads by require(), and a built-in's exports are read only when used (docs/performance.md).
//
// One file, not code-split: a module reached only by import() (a command group, the program, a
// lazily loaded helper) is still evaluated only when it is imported (esbuild wraps it in a function
// run on first import), and the code cache loader (src/startup/code-cache.ts) reads, checks and
// hands V8 one file and one cache instead of ~45 for a one-request command, which costs less CPU
// even for a command that has to read the whole file (docs/performance.md, "One file for the CLI").
// The exceptions: undici, the largest package and needed only behind a proxy, is a file of its own
// (dist/cli/undici.cjs, below), which the CLI requires when it imports 'undici'; and the sandbox (a
// seventh of the CLI's code, for one command that runs a server) is the build's ES module
// dist/sandbox.js, which scripts and benches import too, imported through dist/cli/import.cjs by
// `formctl sandbox`. Every run reads the CLI's file, and V8 makes a function of every function in it
// from the code cache, run or not: what a command never runs costs each command a little
// (docs/performance.md, "No built-in a one-request command does not use").
const UNDICI_FILE = 'undici.cjs';
// proper-lockfile (the lock of the shared rate budget, the config file, a form's update and an
// incremental export) with graceful-fs, retry and signal-exit, CommonJS all, as one file of its own
// that the CLI requires when it imports 'proper-lockfile' (lockfileApart): through Node's ESM loader
// from node_modules its import cost a command ~10 ms of CPU (Node 24), paid by every run near the
// rate limit (src/api/ratelimit.ts, lockedNow); required from dist/cli/, it has no ESM loader, no
// package resolution, and its code is in the loader's V8 code cache (docs/performance.md).
const LOCKFILE_FILE = 'lockfile.cjs';
/** The build's own files the CLI imports (see runnableByTheLoader), by the package they hold. */
const OWN_FILES = new Map([
  ['undici', UNDICI_FILE],
  ['proper-lockfile', LOCKFILE_FILE],
]);
const SANDBOX_FROM_CLI = '../sandbox.js';
const sandboxApart = {
  name: 'sandbox-apart',
  setup(b) {
    b.onResolve({ filter: /\/sandbox\/index\.js$/ }, (args) => {
      if (!args.importer.includes(join('src', 'commands', 'sandbox'))) return undefined;
      return args.kind === 'dynamic-import'
        ? { path: SANDBOX_FROM_CLI, external: true }
        : { errors: [{ text: 'import the sandbox with import() only: the CLI loads dist/sandbox.js for `formctl sandbox` alone' }] };
    });
  },
};
/** Sends the CLI's import() of `pkg` to the build's own file of it; a static import of it stops the build (`why`: when the CLI loads it). */
const packageApart = (pkg, why) => ({
  name: `${pkg}-apart`,
  setup(b) {
    b.onResolve({ filter: new RegExp(`^${pkg}$`) }, (args) =>
      args.kind === 'dynamic-import'
        ? { path: `./${OWN_FILES.get(pkg)}`, external: true }
        : { errors: [{ text: `import ${pkg} with import() only: the CLI loads it only ${why}` }] },
    );
  },
});
const undiciApart = packageApart('undici', 'for a proxy (src/api/proxy.ts)');
const lockfileApart = packageApart('proper-lockfile', 'to take a lock');
const cliBuild = await build({
  ...common,
  entryPoints: { main: 'src/main.ts' },
  plugins: [undiciApart, lockfileApart, sandboxApart, builtinsWithoutFacade(LOADED_AT_START)],
  outdir: cliDir,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // Inline, so that the step below maps its output back to src/ through it.
  sourcemap: 'inline',
  metafile: true,
});

/**
 * The CLI's file after esbuild, with its import()s made runnable by the code cache loader, whose
 * vm.Script code cannot call import() without an experimental flag: an import() of a file of the
 * build (undici.cjs, lockfile.cjs) becomes a require() in a promise, giving what Node's import()
 * gives for a CommonJS file: its module.exports as `default`, and its names (the code imports
 * proper-lockfile's `{ lock }` as well as `.default`); an import() of a package from node_modules goes
 * through dist/cli/import.cjs, which Node's own loader compiles, since several are ES modules only
 * (chalk, ora, conf, inquirer) and Node 20 cannot require() those.
 */
function runnableByTheLoader(file) {
  const imports = cliBuild.metafile.outputs[relative(root, file.path)].imports;
  let code = file.text;
  const dynamic = [...new Set(imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path))];
  const importer = `./${IMPORTER}`;
  for (const target of dynamic) {
    // A package, or the sandbox's ES module: imported by Node's own loader, through import.cjs.
    const literal = `import(${JSON.stringify(target)})`;
    if (!code.includes(literal)) throw new Error(`${file.path}: no ${literal} to rewrite`);
    const own = [...OWN_FILES.values()].some((name) => target === `./${name}`);
    if (!own && target.startsWith('.') && target !== SANDBOX_FROM_CLI) throw new Error(`${file.path}: ${literal} names no file of the build`);
    const replacement = own
      ? `Promise.resolve().then(()=>{const m=require(${JSON.stringify(target)});return{...m,default:m}})`
      : `require(${JSON.stringify(importer)})(${JSON.stringify(target)})`;
    code = code.split(literal).join(replacement);
  }
  if (/\bimport\(/.test(code.replace(/\/\/# sourceMappingURL=.*$/m, ''))) {
    // Checked loosely: a string or comment holding "import(" would stop the build, never pass it by.
    throw new Error(`${file.path}: an import() is left after the rewrite; the code cache cannot run it`);
  }
  const out = transformSync(code, {
    format: 'cjs',
    loader: 'js',
    platform: 'node',
    target: 'node20.18',
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'external',
    sourcefile: basename(file.path),
    logLevel: 'warning',
  });
  return [
    { path: file.path, contents: `${out.code}//# sourceMappingURL=${basename(file.path)}.map\n` },
    { path: `${file.path}.map`, contents: out.map },
  ];
}
/**
 * A package from its public entry point, as one CommonJS file of the CLI (`dist/cli/<name>.cjs`).
 * Its licence comments go to a file beside it, as they are (undici's name a person with a letter
 * outside ASCII): the CLI's files must be ASCII (below).
 */
const packageFile = (name, pkg, more = {}) =>
  build({
    ...common,
    entryPoints: { [name]: pkg },
    external: [],
    plugins: [builtinsWithoutFacade(LOADED_AT_START)],
    outdir: cliDir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    sourcemap: 'linked',
    legalComments: 'linked',
    ...more,
  });
// undici, required by the CLI's proxy agent.
const undiciBuild = await packageFile('undici', 'undici');
// proper-lockfile from its public entry point, as one CommonJS file required by the CLI's locks.
// Its dependencies require Node's built-ins by bare names (path, assert, events): esbuild leaves
// those as they are, so they are Node's own modules, as when loaded from node_modules.
// Its fs is Node's node:fs, not graceful-fs: proper-lockfile takes any fs (its `fs` option, which
// defaults to graceful-fs), and of what graceful-fs adds, none touches the calls a lock makes
// (mkdir, stat, utimes, rmdir; realpath only with `realpath: true`, which no lock of the CLI asks
// for): its queue retries open, readdir and the like on EMFILE, its polyfills mend chown errors,
// the sign of uid/gid in stats, reads that give EAGAIN, rename on Windows and what Node 0.x lacked.
// Loading it cost a lock ~2 ms of CPU (Node 24) for nothing: it reads fs.ReadStream, which loads
// Node's fs streams and fs/promises, and it patches the process's fs.close and process.cwd.
const lockfileBuild = await packageFile('lockfile', 'proper-lockfile', { alias: { 'graceful-fs': 'node:fs' } });
const cliFiles = [...undiciBuild.outputFiles, ...lockfileBuild.outputFiles, ...cliBuild.outputFiles.flatMap(runnableByTheLoader)];
// The code cache loader reads the CLI's files as Latin-1, which V8 takes as it is, where UTF-8 is
// checked and converted byte by byte (src/startup/code-cache.ts, wrappedSource): so every file it
// loads must be ASCII. esbuild escapes every other character in code (its default charset); a
// comment it keeps as written (a licence) would be read wrong, so the build stops instead.
for (const file of cliFiles) {
  if (!file.path.endsWith('.cjs')) continue;
  const at = Buffer.from(file.contents).findIndex((byte) => byte > 0x7f);
  if (at >= 0) throw new Error(`${relative(root, file.path)}: a byte outside ASCII at offset ${at}; the code cache loader reads the CLI's files as ASCII`);
}

// The sandbox, as an ES module (scripts and benches import dist/sandbox.js). Its bundled commander
// and undici require() node:events and friends through the createRequire banner.
const sandbox = await build({
  ...common,
  entryPoints: { sandbox: 'src/sandbox/index.ts' },
  outdir,
  splitting: true,
  format: 'esm',
  banner: { js: "import { createRequire as __formctlCreateRequire } from 'node:module';\nconst require = __formctlCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
});

/**
 * A small CommonJS bundle of one entry, at `outfile` (the executable, or a file it requires instead
 * of the CLI): no ESM loader, and Node's built-ins required as they are when Node has loaded them at
 * start, else as lazy shims (loaded on first use).
 */
function smallCjsBundle(entry, outfile, plain = LOADED_AT_START, more = {}) {
  return build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    plugins: [builtinsWithoutFacade(plain)],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.18',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    write: false,
    ...more,
  });
}

// The executable, bin/formctl.js (package.json's `bin`): src/startup/bin.ts with the CLI's loader and
// its code cache of what ran (src/startup/code-cache.ts) in one file, which Node reads and compiles
// at every start (a loader in a file of its own cost each command ~0.5 ms more: docs/performance.md);
// and the one file of the CLI that Node's loader compiles itself: the import() of the packages that
// are ES modules only. Written before the CLI's files: the root help below is rendered through it.
// Every run of the CLI uses node:vm: required as it is, not through a shim's getters. Not minified
// beyond whitespace and syntax: a --debug stack names its functions.
const BIN = join(root, 'bin', 'formctl.js');
const binBuild = await smallCjsBundle('src/startup/bin.ts', BIN, new Set([...LOADED_AT_START, 'node:vm']), {
  banner: { js: '#!/usr/bin/env node\n// Built by scripts/build.mjs from src/startup/bin.ts and the modules it imports: edit those, not this file.' },
});
const importerCode = [
  "'use strict';",
  '// Imports a package for the CLI (scripts/build.mjs, toCommonJs): compiled by Node, not by the code',
  '// cache loader (src/startup/code-cache.ts), so its import() runs without an experimental flag.',
  "// Node's compile cache (Node >= 22.1) serves the packages: turned on at the first import, so that a",
  '// command that imports none (most that send one request) does not load node:module for it.',
  'let compileCache = false;',
  'module.exports = (specifier) => {',
  "  if (!compileCache) require('node:module').enableCompileCache?.();",
  '  compileCache = true;',
  '  return import(specifier);',
  '};',
  '',
].join('\n');
for (const [file, contents, mode] of [
  [BIN, binBuild.outputFiles[0].contents, 0o755],
  [join(cliDir, IMPORTER), importerCode, 0o644],
]) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.${process.pid}.tmp`, contents, { mode });
  chmodSync(`${file}.${process.pid}.tmp`, mode);
  renameSync(`${file}.${process.pid}.tmp`, file);
}
const isEntry = (p) => !p.includes(`${join('/', 'chunks')}/`) && ![...OWN_FILES.values()].includes(basename(p));
// Entry points go last: a starting process reads them first, and they expect their chunks (and the
// CLI its undici.cjs and lockfile.cjs) in place.
const ordered = [...cliFiles, ...sandbox.outputFiles].sort((a, b) => Number(isEntry(a.path)) - Number(isEntry(b.path)));
const written = new Set([join(cliDir, IMPORTER)]);
for (const file of ordered) {
  mkdirSync(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, file.contents);
  renameSync(tmp, file.path);
  written.add(file.path);
}
// The root help, rendered by the CLI just built (`formctl help` prints the same text as `--help`),
// so that bin/formctl.js can answer `formctl --help` without loading the CLI.
const rendered = spawnSync(process.execPath, [join(root, 'bin', 'formctl.js'), 'help'], {
  env: { ...process.env, NO_COLOR: '1' },
  encoding: 'utf8',
});
if (rendered.status !== 0 || !rendered.stdout.startsWith('Usage: formctl')) {
  throw new Error(`rendering the root help failed (exit ${rendered.status}): ${rendered.stderr}`);
}
const helpFile = join(outdir, 'root-help.txt');
writeFileSync(`${helpFile}.${process.pid}.tmp`, rendered.stdout);
renameSync(`${helpFile}.${process.pid}.tmp`, helpFile);
written.add(helpFile);

// The cache-hit path of `formctl __complete` (src/completion/fast.ts), which bin/formctl.js runs
// before loading the CLI: a small CommonJS bundle (loaded by require, no ESM loader) of the same
// cache, key and formatting modules the CLI uses, and the table of the command tree it walks,
// rendered by the CLI just built (docs/completion.md).
// node:crypto only once a key needs it (a token from the environment), as in the CLI.
const fast = await smallCjsBundle('src/completion/fast.ts', join(outdir, 'complete.cjs'));
const tabled = spawnSync(
  process.execPath,
  ['-e', `require(${JSON.stringify(join(cliDir, 'main.cjs'))}).renderCompletionTable().then((table) => process.stdout.write(table))`],
  { env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8' },
);
if (tabled.status !== 0 || !tabled.stdout.startsWith('{')) throw new Error(`rendering the completion table failed (exit ${tabled.status}): ${tabled.stderr}`);
for (const [file, contents] of [
  [join(outdir, 'completion-table.json'), tabled.stdout],
  [fast.outputFiles[0].path, fast.outputFiles[0].contents],
]) {
  writeFileSync(`${file}.${process.pid}.tmp`, contents);
  renameSync(`${file}.${process.pid}.tmp`, file);
  written.add(file);
}
// Files from older builds (chunks, or entry points a build no longer makes) are removed once they are
// unlikely to be in use by a running process, so that dist/ (which npm packs) holds only this build.
// dist/cli/chunks/ is from builds before the CLI was one file: it goes once it is empty (npm never
// packs it: package.json's files leave it out, test/e2e/package-files.test.ts).
const dirs = [outdir, join(outdir, 'chunks'), cliDir, join(cliDir, 'chunks')].filter((dir) => existsSync(dir));
for (const p of dirs.flatMap((dir) => readdirSync(dir).map((name) => join(dir, name)))) {
  if (dirs.includes(p) || written.has(p)) continue;
  if (Date.now() - statSync(p).mtimeMs > 10 * 60_000) unlinkSync(p);
}
const oldChunks = join(cliDir, 'chunks');
if (existsSync(oldChunks) && readdirSync(oldChunks).length === 0) rmdirSync(oldChunks);
