#!/usr/bin/env node
// Shim: checks Node, turns on the compile cache where Node has it, and hands over to dist/.
import module from 'node:module';

const [major, minor, patch] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && (minor < 18 || (minor === 18 && patch < 1)))) {
  process.stderr.write(`error: formctl needs Node.js 20.18.1 or newer; this is ${process.version}.\n`);
  process.exit(1);
}
// Node >= 22.1 caches compiled code across runs; a no-op on Node 20, which lacks it.
module.enableCompileCache?.();

const { cli } = await import('../dist/main.js');
await cli();
