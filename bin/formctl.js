#!/usr/bin/env node
'use strict';
// Shim: checks Node, turns on Node's compile cache where Node has it (>= 22.1), and hands over to
// dist/boot.cjs (which, on Node 20, runs the CLI with formctl's own V8 code cache).
// CommonJS (bin/package.json): an ES module entry makes Node 20 start its ESM loader, ~6 ms.
const [major, minor, patch] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && (minor < 18 || (minor === 18 && patch < 1)))) {
  process.stderr.write(`error: formctl needs Node.js 20.18.1 or newer; this is ${process.version}.\n`);
  process.exit(1);
}
require('node:module').enableCompileCache?.();
require('../dist/boot.cjs');
