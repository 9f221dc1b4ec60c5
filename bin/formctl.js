#!/usr/bin/env node
'use strict';
// Shim: checks Node, answers `--version` and the root help without loading the CLI, and otherwise
// hands over to dist/cli/main.cjs through dist/load.cjs, which keeps a code cache of what the CLI ran.
// CommonJS (bin/package.json), as the CLI is: Node's ESM loader is never started (docs/performance.md).
// The CLI needs process.getBuiltinModule (Node 20.16, 22.3): Node 20 from 20.18.1 (package.json's
// engines), then 22.3 and newer. Node 21 (never an LTS line, out of support) and the first 22
// releases lack it, and are refused here rather than failing later
// with "is not a function" (docs/contributing.md, "Node versions").
const [major, minor, patch] = process.versions.node.split('.').map(Number);
const atLeast = (m, n, p) => major > m || (major === m && (minor > n || (minor === n && patch >= p)));
if (major === 20 ? !atLeast(20, 18, 1) : !atLeast(22, 3, 0)) {
  process.stderr.write(`error: formctl needs Node.js 20.18.1 or newer on the Node 20 line, or 22.3 or newer; this is ${process.version}.\n`);
  process.exit(1);
}
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
const only = (...flags) => args.length === 1 && flags.includes(args[0]);

/** A file's text, or undefined when it cannot be read. */
function read(file) {
  try {
    return fs.readFileSync(path.join(__dirname, '..', file), 'utf8');
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
function print(text) {
  const bytes = Buffer.from(text);
  let at = 0;
  try {
    while (at < bytes.length) at += fs.writeSync(1, bytes, at);
  } catch (err) {
    if (err.code !== 'EPIPE') process.stdout.write(bytes.subarray(at));
  }
}

/** The cached answer of `formctl __complete <words…>`, or undefined (a miss, an unusual line, any error). */
function fromCompletionCache() {
  try {
    const table = read('dist/completion-table.json');
    if (table === undefined) return undefined;
    return require('../dist/complete.cjs').answerFromCache(args.slice(1), process.env, JSON.parse(table), Date.now());
  } catch {
    return undefined;
  }
}

if (only('--version', '-v')) {
  // The answer Commander gives, without loading it.
  print(`${JSON.parse(read('package.json')).version}\n`);
} else {
  // The root help is fixed text (80 columns), rendered by the build with the CLI itself.
  const help = args.length === 0 || only('--help', '-h') ? read('dist/root-help.txt') : undefined;
  // A Tab on an id slot whose answer is in the completion cache: answered here, without the CLI
  // (src/completion/fast.ts, bundled as dist/complete.cjs); anything else goes on to the CLI.
  const answer = help === undefined && args[0] === '__complete' ? fromCompletionCache() : undefined;
  if (help !== undefined) {
    print(help);
  } else if (answer !== undefined) {
    print(answer);
  } else {
    // The CLI's own files run with a code cache of the functions a command ran
    // (src/startup/code-cache.ts); this require serves the built-ins they ask for (the build leaves
    // them no other package: dist/cli/import.cjs imports those, under Node's compile cache).
    let main;
    try {
      main = require('../dist/load.cjs').loadWithCodeCache(path.join(__dirname, '..', 'dist', 'cli', 'main.cjs'), process.env, require);
    } catch (err) {
      process.stderr.write(`error: ${err?.message ?? err}\n`);
      process.exitCode = 1;
    }
    main?.cli();
  }
}
