// Bundles src/ into dist/ with esbuild: ESM, code-split so every lazily imported
// command group (and each heavy dependency path) is its own chunk.
// Files are written atomically, chunks before entry points, so a build never breaks a
// formctl process that is running from dist/ at the same moment (parallel test runs).
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outdir = join(root, 'dist');

const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  // Dependencies stay in node_modules (several are CommonJS with dynamic requires), except
  // commander: every command needs it, and one bundled copy loads ~7 ms faster than its seven
  // CommonJS files through the ESM loader (docs/performance.md). Its require() of node:events and
  // friends goes through the createRequire banner below.
  external: Object.keys(pkg.dependencies).filter((name) => name !== 'commander'),
  banner: { js: "import { createRequire as __formctlCreateRequire } from 'node:module';\nconst require = __formctlCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  define: { __FORMCTL_VERSION__: JSON.stringify(pkg.version) },
  sourcemap: 'linked',
  logLevel: 'warning',
  write: false,
});

// The same CLI as one script, for Node versions without module.enableCompileCache (Node 20):
// dist/boot.cjs compiles it with vm.Script and a V8 code cache (docs/performance.md). No ESM
// loader work per chunk, built-ins through require (no ESM facades). Modules stay lazily
// initialised (esbuild's __esm wrappers) and the heavy dependencies stay external, reached through
// the __formctlImport dist/boot.cjs passes in (vm.Script cannot run import() on Node 20 without
// --experimental-vm-modules). The first line names a hash of the rest: the code cache key.
// In the single-file bundle, undici's Agent and request are bundled too (one code cache, no
// CommonJS resolution and compilation per file: ~20 ms of a one-request command). Two of its
// modules are left to node_modules: the llhttp WASM blobs (150 KB of base64, read only when a
// connection opens). And undici's HTTP/2 client gets a stand-in for node:http2: it reads constants
// at load time but connects over HTTP/2 only with `allowH2`, which formctl does not set; node:http2
// (with node:tls) costs ~8 ms to load, so the real module is loaded on first use.
const undiciLean = {
  name: 'undici-lean',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/llhttp\/llhttp(_simd)?-wasm\.js$/ }, (a) =>
      a.importer.includes('/node_modules/undici/') ? { path: `undici/lib/llhttp/${a.path.slice('../llhttp/'.length)}`, external: true } : undefined,
    );
    b.onResolve({ filter: /^node:http2$/ }, (a) => {
      if (!a.importer.includes('/node_modules/undici/')) return undefined;
      if (!a.importer.endsWith('/lib/dispatcher/client-h2.js')) throw new Error(`unexpected node:http2 import in ${a.importer}`);
      const used = new Set([...readFileSync(a.importer, 'utf8').matchAll(/\bhttp2\.(\w+)/g)].map((m) => m[1]));
      const unknown = [...used].filter((name) => name !== 'connect' && name !== 'constants');
      if (unknown.length) throw new Error(`undici's client-h2.js uses http2.${unknown.join(', http2.')}: extend the stand-in in scripts/build.mjs`);
      return { path: 'http2', namespace: 'lazy-http2' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-http2' }, async () => {
      const { constants } = await import('node:http2');
      return {
        loader: 'js',
        contents: `let http2;\nmodule.exports = { constants: ${JSON.stringify(constants)}, connect(...args) { http2 ??= require('node:http2'); return http2.connect(...args); } };\n`,
      };
    });
  },
};

const single = await build({
  absWorkingDir: root,
  entryPoints: ['src/main.ts'],
  outfile: join(outdir, 'single.js'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  external: Object.keys(pkg.dependencies).filter((name) => name !== 'commander' && name !== 'undici'),
  plugins: [undiciLean],
  charset: 'ascii', // dist/boot.cjs reads it as latin1 (no UTF-8 decoding); comments go with the whitespace
  minifyWhitespace: true,
  legalComments: 'linked', // undici's bundled formdata-polyfill notice (not ASCII) goes to single.LEGAL.txt
  define: { __FORMCTL_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: '(function (exports, require, module, __formctlImport) {' }, // esbuild adds "use strict" (ESM sources)
  footer: { js: '})' },
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  write: false,
});
const dynamicExternals = new Set();
for (const out of Object.values(single.metafile.outputs)) {
  for (const i of out.imports) if (i.external && i.kind === 'dynamic-import') dynamicExternals.add(i.path);
}
const singleFiles = single.outputFiles.map((file) => {
  if (file.path.endsWith('.map')) {
    // One line more at the top (the hash line below).
    const map = JSON.parse(file.text);
    map.mappings = `;${map.mappings}`;
    return { path: file.path, contents: Buffer.from(JSON.stringify(map)) };
  }
  if (!file.path.endsWith('.js')) return file;
  let text = file.text;
  for (const spec of dynamicExternals) text = text.split(`import(${JSON.stringify(spec)})`).join(`__formctlImport(${JSON.stringify(spec)})`);
  // An import() left would throw inside vm.Script on Node 20: fail the build instead.
  const left = text.match(/\bimport\((?!\))/g);
  if (left) throw new Error(`dist/single.js: ${left.length} import() call(s) not rewritten`);
  const nonAscii = /[^\x00-\x7f]/.exec(text);
  if (nonAscii) throw new Error(`dist/single.js is not ASCII: …${text.slice(nonAscii.index - 60, nonAscii.index + 10)}`);
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 32);
  return { path: file.path, contents: Buffer.from(`// formctl single ${hash}\n${text}`, 'latin1') };
});

// dist/boot.cjs, required by the (CommonJS) shim: picks the single script with its code cache, or
// dist/main.js. Its own build, importing nothing, and CommonJS so that the Node 20 path does not
// start the ESM loader unless a command imports an ES module package.
const boot = await build({
  absWorkingDir: root,
  entryPoints: ['src/startup/boot.ts'],
  outfile: join(outdir, 'boot.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  logLevel: 'warning',
  write: false,
});

const isEntry = (p) => !relative(outdir, p).startsWith('chunks');
// boot.cjs goes last: it is what a starting process reads first, and it expects the rest in place.
const ordered = [...result.outputFiles, ...singleFiles, ...boot.outputFiles].sort((a, b) => Number(isEntry(a.path)) - Number(isEntry(b.path)));
const written = new Set();
for (const file of ordered) {
  mkdirSync(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, file.contents);
  renameSync(tmp, file.path);
  written.add(file.path);
}
// The root help, rendered by the CLI just built (`formctl help` prints the same text as `--help`),
// so that dist/boot.cjs can answer `formctl --help` without loading the CLI.
const rendered = spawnSync(process.execPath, [join(root, 'bin', 'formctl.js'), 'help'], {
  env: { ...process.env, FORMCTL_CODE_CACHE: '0', NO_COLOR: '1' },
  encoding: 'utf8',
});
if (rendered.status !== 0 || !rendered.stdout.startsWith('Usage: formctl')) {
  throw new Error(`rendering the root help failed (exit ${rendered.status}): ${rendered.stderr}`);
}
const helpFile = join(outdir, 'root-help.txt');
writeFileSync(`${helpFile}.${process.pid}.tmp`, rendered.stdout);
renameSync(`${helpFile}.${process.pid}.tmp`, helpFile);

// Chunks from older builds are removed once they are unlikely to be in use by a running process.
const chunksDir = join(outdir, 'chunks');
for (const name of readdirSync(chunksDir)) {
  const p = join(chunksDir, name);
  if (!written.has(p) && Date.now() - statSync(p).mtimeMs > 10 * 60_000) unlinkSync(p);
}
