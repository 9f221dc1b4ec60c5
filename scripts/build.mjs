// Bundles src/ into dist/ with esbuild: ESM, code-split so every lazily imported
// command group (and each heavy dependency path) is its own chunk.
// Files are written atomically, chunks before entry points, so a build never breaks a
// formctl process that is running from dist/ at the same moment (parallel test runs).
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outdir = join(root, 'dist');
const BUNDLED = new Set(['commander', '@commander-js/extra-typings', 'undici']);

// Node's built-in modules are bundled as CommonJS shims over `process.getBuiltinModule()` (Node
// 20.16+), not imported through the ESM loader. An ESM import of a built-in gets a facade that
// reads every export at once, lazy getters included: on Node 22 and later node:http's export of
// WebSocket then loads Node's whole undici, its fetch and its WebAssembly parser (+26 ms of CPU on
// Node 24), node:fs's `promises` loads fs/promises, and so on. The shim defines one getter per
// export (the names as this build's Node has them) and loads the module on the first read, so a
// module imported but not used on a command's path (node:child_process by Commander, node:zlib for
// compressed answers, node:https for https:// services) costs nothing (docs/performance.md).
const builtinsWithoutFacade = {
  name: 'builtins-without-esm-facade',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      // A dynamic import() of a shim would give only its `default` (esbuild's chunk for a CommonJS
      // module): import built-ins statically, which costs nothing until a member is read.
      if (args.kind === 'dynamic-import') return { errors: [{ text: `import ${args.path} statically: the build loads a built-in on its first use` }] };
      return { path: args.path, namespace: 'node-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => {
      const mod = process.getBuiltinModule(args.path);
      // A built-in this Node lacks (node:sqlite, required lazily by undici's cache store), or one that
      // is itself a function (node:events is EventEmitter, node:stream is Stream, which classes extend):
      // read at once, as it is.
      if (typeof mod !== 'object' || mod === null)
        return { contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`, loader: 'js' };
      const names = Object.getOwnPropertyNames(mod).filter((n) => !['length', 'name', 'prototype', 'caller', 'arguments'].includes(n));
      return {
        contents: [
          `let m;`,
          `const load = () => (m ??= process.getBuiltinModule(${JSON.stringify(args.path)}));`,
          `module.exports = Object.defineProperties({}, {`,
          ...names.map((n) => `  ${JSON.stringify(n)}: { get: () => load()[${JSON.stringify(n)}], enumerable: true },`),
          `});`,
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

const result = await build({
  plugins: [builtinsWithoutFacade],
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  // Dependencies stay in node_modules (several are CommonJS with dynamic requires), except three,
  // bundled from their public entry points: commander (every command needs it: one module instead
  // of seven CommonJS files through the ESM loader), @commander-js/extra-typings (types over
  // commander plus a re-export of its classes: bundled, it adds a few lines and shares the one
  // bundled commander instead of loading a second copy from node_modules) and undici (every
  // request needs it: one chunk, loaded on the first request, instead of ~100 CommonJS files;
  // docs/performance.md). Their require() of node:events and friends goes through the
  // createRequire banner below.
  external: Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name)),
  banner: { js: "import { createRequire as __formctlCreateRequire } from 'node:module';\nconst require = __formctlCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  // Whitespace and syntax only (names stay, so a --debug stack still names its functions): the
  // undici chunk shrinks from 1.08 MB to 0.73 MB, which Node parses on every run (Node 20 has no
  // compile cache; Node 24's holds top-level code only). Measured on `workspace list --json`:
  // 0.96x the CPU on Node 24 and 0.98x on Node 20 (docs/performance.md).
  minifyWhitespace: true,
  minifySyntax: true,
  define: { __FORMCTL_VERSION__: JSON.stringify(pkg.version) },
  sourcemap: 'linked',
  logLevel: 'warning',
  write: false,
});

const isEntry = (p) => !relative(outdir, p).startsWith('chunks');
// Entry points go last: a starting process reads them first, and they expect their chunks in place.
const ordered = [...result.outputFiles].sort((a, b) => Number(isEntry(a.path)) - Number(isEntry(b.path)));
const written = new Set();
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
const fast = await build({
  absWorkingDir: root,
  entryPoints: ['src/completion/fast.ts'],
  outfile: join(outdir, 'complete.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  write: false,
});
const tabled = spawnSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `process.stdout.write(await (await import(${JSON.stringify(pathToFileURL(join(outdir, 'main.js')).href)})).renderCompletionTable())`,
  ],
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
const chunksDir = join(outdir, 'chunks');
for (const p of [...readdirSync(outdir).map((name) => join(outdir, name)), ...readdirSync(chunksDir).map((name) => join(chunksDir, name))]) {
  if (p === chunksDir || written.has(p)) continue;
  if (Date.now() - statSync(p).mtimeMs > 10 * 60_000) unlinkSync(p);
}
