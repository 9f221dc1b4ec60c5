#!/usr/bin/env node
// Shim: checks Node, answers `--version` without loading anything, turns on the compile cache
// where Node has it, and hands over to dist/.
import module from 'node:module';

const [major, minor, patch] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && (minor < 18 || (minor === 18 && patch < 1)))) {
  process.stderr.write(`error: formctl needs Node.js 20.18.1 or newer; this is ${process.version}.\n`);
  process.exit(1);
}
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // The same answer Commander gives, without loading it and the CLI (docs/performance.md).
  const { readFileSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  // Node >= 22.1 caches compiled code across runs; a no-op on Node 20, which lacks it.
  module.enableCompileCache?.();
  const { cli } = await import('../dist/main.js');
  await cli();
}
