// formctl's executable: the build bundles this file with the code cache loader (./code-cache.ts) into
// bin/formctl.js, package.json's `bin` (scripts/build.mjs). It checks Node, answers `--version`, the
// root help and a cached Tab without loading the CLI, and otherwise runs dist/cli/main.cjs with a
// code cache of what the CLI ran. One file: requiring the loader as a file of its own cost every
// command ~0.5 ms more (Node's resolution, read and compile of a second file; docs/performance.md).
// CommonJS (bin/package.json), as the CLI is: Node's ESM loader is never started.
// The CLI needs process.getBuiltinModule (Node 20.16, 22.3): Node 20 from 20.18.1 (package.json's
// engines), then 22.3 and newer. Node 21 (never an LTS line, out of support) and the first 22
// releases lack it, and are refused here rather than failing later with "is not a function"
// (docs/contributing.md, "Node versions").
import { readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const [major = 0, minor = 0, patch = 0] = process.versions.node.split('.').map(Number);
const atLeast = (m: number, n: number, p: number) => major > m || (major === m && (minor > n || (minor === n && patch >= p)));
if (major === 20 ? !atLeast(20, 18, 1) : !atLeast(22, 3, 0)) {
  process.stderr.write(`error: formctl needs Node.js 20.18.1 or newer on the Node 20 line, or 22.3 or newer; this is ${process.version}.\n`);
  process.exit(1);
}
const args = process.argv.slice(2);
const only = (...flags: string[]) => args.length === 1 && flags.includes(args[0]!);

/** A file of the package (a path from its root), as text, or undefined when it cannot be read. */
function read(file: string): string | undefined {
  try {
    return readFileSync(join(__dirname, '..', file), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Writes text to stdout with plain synchronous writes: process.stdout is a stream Node sets up on
 * first use (for a pipe, a socket), which costs more than `node -e 0` spends in all (measured in
 * docs/performance.md). A reader that has gone (`formctl --help | true`) is success, as for any
 * command; anything unusual (a non-blocking stdout that is full) is left to the stream.
 */
function print(text: string): void {
  const bytes = Buffer.from(text);
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(1, bytes, at);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPIPE') process.stdout.write(bytes.subarray(at));
  }
}

/** The cached answer of `formctl __complete <words…>`, or undefined (a miss, an unusual line, any error). */
function fromCompletionCache(): string | undefined {
  try {
    const table = read('dist/completion-table.json');
    if (table === undefined) return undefined;
    // src/completion/fast.ts, bundled by the build as dist/complete.cjs: loaded only for a Tab.
    const fast = require(join(__dirname, '..', 'dist', 'complete.cjs')) as typeof import('../completion/fast.js');
    return fast.answerFromCache(args.slice(1), process.env, JSON.parse(table) as Parameters<typeof fast.answerFromCache>[2], Date.now());
  } catch {
    return undefined;
  }
}

/** Runs the command line: the cheapest answers here, anything else by the CLI. */
function start(): void {
  if (only('--version', '-v')) {
    // The answer Commander gives, without loading it.
    print(`${(JSON.parse(read('package.json') ?? '{}') as { version?: string }).version}\n`);
    return;
  }
  // The root help is fixed text (80 columns), rendered by the build with the CLI itself.
  const help = args.length === 0 || only('--help', '-h') ? read('dist/root-help.txt') : undefined;
  // A Tab on an id slot whose answer is in the completion cache: answered here, without the CLI
  // (src/completion/fast.ts, bundled as dist/complete.cjs); anything else goes on to the CLI.
  const answer = help === undefined && args[0] === '__complete' ? fromCompletionCache() : undefined;
  if (help !== undefined) {
    print(help);
    return;
  }
  if (answer !== undefined) {
    print(answer);
    return;
  }
  // The CLI's own files run with a code cache of the functions a command ran (./code-cache.ts,
  // required here so that the answers above do not run its module); this file's `require` serves
  // the built-ins they ask for (the build leaves them no other package: dist/cli/import.cjs imports
  // those, under Node's compile cache).
  let main: { cli: () => Promise<void> } | undefined;
  try {
    const { loadWithCodeCache } = require('./code-cache.js') as typeof import('./code-cache.js');
    main = loadWithCodeCache(join(__dirname, '..', 'dist', 'cli', 'main.cjs'), process.env, require) as typeof main;
  } catch (err) {
    process.stderr.write(`error: ${(err as Error)?.message ?? err}\n`);
    process.exitCode = 1;
  }
  void main?.cli();
}

start();
