// Bundles src/ into dist/ with esbuild: ESM, code-split so every lazily imported
// command group (and each heavy dependency path) is its own chunk.
// Files are written atomically, chunks before entry points, so a build never breaks a
// formctl process that is running from dist/ at the same moment (parallel test runs).
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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

const isEntry = (p) => !relative(outdir, p).startsWith('chunks');
const ordered = [...result.outputFiles].sort((a, b) => Number(isEntry(a.path)) - Number(isEntry(b.path)));
const written = new Set();
for (const file of ordered) {
  mkdirSync(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, file.contents);
  renameSync(tmp, file.path);
  written.add(file.path);
}
// Chunks from older builds are removed once they are unlikely to be in use by a running process.
const chunksDir = join(outdir, 'chunks');
for (const name of readdirSync(chunksDir)) {
  const p = join(chunksDir, name);
  if (!written.has(p) && Date.now() - statSync(p).mtimeMs > 10 * 60_000) unlinkSync(p);
}
