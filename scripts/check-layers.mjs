#!/usr/bin/env node
// Checks that every import in src/ points down the layers described in docs/architecture.md
// ("Layers"), that no import circle exists, and that the sandbox and the client stay apart.
// Prints one offender per line ("file:line: what is wrong") and exits 1 when there is any.
//
// Usage: node scripts/check-layers.mjs [--root DIR]
//   --root DIR   check DIR/src instead of this project's src (the unit test uses a fixture tree);
//                the temporary allow-list below applies only to this project's own tree.
//
// Imports are read with the TypeScript parser (already a devDependency): `import … from`,
// `export … from`, `import('…')` (also in types) and `import x = require('…')`. Only relative
// specifiers are followed; packages and node: built-ins are not part of the layering.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The layers, highest first. A file may import files of its own layer or of any layer below it,
 * never of a layer above. A prefix ending in "/" names a directory, anything else one file.
 */
export const LAYERS = [
  // src/startup/: the executable (bin.ts, built as bin/formctl.js) and the loader it runs the CLI
  // with (its code cache), a separate bundle that nothing in the CLI imports.
  { name: 'main', paths: ['src/main.ts', 'src/startup/'] },
  // root-options.ts: the one argv pre-scan main.ts and program.ts share, with the root flags' defaults.
  { name: 'program', paths: ['src/program.ts', 'src/root-options.ts'] },
  { name: 'commands', paths: ['src/commands/'] },
  // The Factory is the commands' toolbox: it builds the API client, the config store, the
  // prompter and the I/O streams on demand. Commands take one; nothing below the commands does
  // (a domain module takes the client, streams or signal it needs as plain parameters).
  { name: 'factory', paths: ['src/factory.ts'] },
  {
    name: 'domain',
    paths: ['src/forms/', 'src/submissions/', 'src/members/', 'src/export/', 'src/webhooks/', 'src/completion/', 'src/sandbox/'],
  },
  // The HTTP client and resource calls, and the config file: both may use io, io uses neither
  // (a prompt that lists things from the API is a command's picker, src/commands/pickers.ts).
  { name: 'api/config', paths: ['src/api/', 'src/config/'] },
  { name: 'io', paths: ['src/io/'] },
  {
    name: 'leaf',
    paths: [
      'src/errors.ts',
      'src/sleep.ts',
      'src/version.ts',
      'src/process-alive.ts',
      'src/atomic-file.ts',
      'src/fs-reason.ts',
      'src/code-cache-group.ts',
      'src/closed-stdout.ts',
      'src/name-key.ts',
      'src/service/',
      'src/globals.d.ts',
    ],
  },
];

/**
 * Modules both the sandbox and the client may import: dependency-free facts about the machine
 * (process-alive.ts, atomic-file.ts, fs-reason.ts) or the service (src/service/). Each may import only other
 * modules of this list. A prefix ending in "/" names a directory.
 */
export const SHARED = ['src/process-alive.ts', 'src/atomic-file.ts', 'src/fs-reason.ts', 'src/service/'];
const isShared = (file) => SHARED.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));

/** The one sandbox module the client may load, and the only client directory that may load it. */
const SANDBOX_ENTRY = 'src/sandbox/index.ts';
const SANDBOX_STARTER = 'src/commands/sandbox/';

/**
 * TEMPORARY: known offenders whose files other work is rewriting. Each entry is "from -> to"
 * (paths from the project root). An entry that no longer matches an import is itself reported, so
 * the list can only shrink. Remove entries as their fixes land.
 */
const ALLOWED = [];

/** Every .ts file under dir, as paths relative to root with "/" separators. */
function tsFiles(root, dir) {
  const out = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...tsFiles(root, rel));
    else if (entry.name.endsWith('.ts')) out.push(rel);
  }
  return out.sort();
}

/** The layer index (0 = highest) of a file, or -1 when no layer claims it. */
export function layerOf(file) {
  return LAYERS.findIndex((l) => l.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
}

/** The command group directory of a file ("form" for src/commands/form/get.ts), if any. */
function commandGroup(file) {
  return /^src\/commands\/([^/]+)\//.exec(file)?.[1];
}

/** All relative imports of one source file: { spec, line, typeOnly, computed }. */
export function importsOf(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const add = (node, specNode, typeOnly) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    if (specNode && (ts.isStringLiteral(specNode) || ts.isNoSubstitutionTemplateLiteral(specNode))) {
      found.push({ spec: specNode.text, line, typeOnly, computed: false });
    } else {
      found.push({ spec: specNode ? specNode.getText(sf) : '', line, typeOnly, computed: true });
    }
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const c = node.importClause;
      // `import type …`, or `import { type A, type B }` with nothing else: erased at compile time.
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node, node.moduleSpecifier, node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found.filter((i) => i.computed || i.spec.startsWith('.'));
}

/** The file a relative specifier names (NodeNext: "./x.js" is ./x.ts), relative to root. */
function resolveSpec(root, from, spec) {
  const abs = resolve(root, dirname(from), spec);
  const candidates = spec.endsWith('.js') ? [abs.slice(0, -3) + '.ts', abs.slice(0, -3) + '.d.ts', abs] : [abs];
  const hit = candidates.find((c) => existsSync(c)) ?? candidates[0];
  return relative(root, hit).split(sep).join('/');
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(nodes, edges) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const e of edges.get(v) ?? []) {
      if (!idx.has(e.to)) {
        strong(e.to);
        low.set(v, Math.min(low.get(v), low.get(e.to)));
      } else if (onStack.has(e.to)) {
        low.set(v, Math.min(low.get(v), idx.get(e.to)));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (edges.get(v) ?? []).some((e) => e.to === v)) out.push(scc.sort());
    }
  };
  for (const n of nodes) if (!idx.has(n)) strong(n);
  return out;
}

/** One shortest circle through `start` inside the component, as the edges that make it. */
function circleThrough(start, members, edges) {
  const inside = new Set(members);
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const e of edges.get(v) ?? []) {
      if (!inside.has(e.to)) continue;
      if (e.to === start) {
        const path = [e];
        for (let p = prev.get(v); p; p = prev.get(p.from)) path.unshift(p);
        return path;
      }
      if (!prev.has(e.to)) {
        prev.set(e.to, e);
        queue.push(e.to);
      }
    }
  }
  return [];
}

/** Checks root/src; returns the offender lines (empty when the tree is clean). */
export function checkLayers(root = projectRoot) {
  const useAllowList = resolve(root) === resolve(projectRoot);
  const allowed = new Set(useAllowList ? ALLOWED : []);
  const usedAllowances = new Set();
  const problems = [];
  const files = tsFiles(root, 'src');
  const edges = new Map();

  for (const file of files) {
    const from = layerOf(file);
    if (from < 0) problems.push(`${file}:1: belongs to no layer; add its directory to LAYERS in scripts/check-layers.mjs and to docs/architecture.md`);
    const list = [];
    edges.set(file, list);
    for (const imp of importsOf(file, readFileSync(join(root, file), 'utf8'))) {
      const at = `${file}:${imp.line}`;
      if (imp.computed) {
        problems.push(`${at}: import(${imp.spec}) has a computed specifier, which this check cannot follow; name the module literally`);
        continue;
      }
      const to = resolveSpec(root, file, imp.spec);
      if (!to.startsWith('src/')) {
        // A test helper or a build script imported from src/ would ship in the bundle.
        problems.push(`${at}: imports ${to}, outside src/; src/ imports only its own files and packages`);
        continue;
      }
      const pair = `${file} -> ${to}`;
      if (allowed.has(pair)) {
        usedAllowances.add(pair);
        continue;
      }
      if (!existsSync(join(root, to))) {
        problems.push(`${at}: imports "${imp.spec}", which is no file in src/`);
        continue;
      }
      const inSandbox = file.startsWith('src/sandbox/');
      const toSandbox = to.startsWith('src/sandbox/');
      if (inSandbox && !toSandbox && !isShared(to)) {
        problems.push(`${at}: the sandbox imports ${to}; it may import only src/sandbox/ and the shared modules (${SHARED.join(', ')})`);
      } else if (!inSandbox && toSandbox && (to !== SANDBOX_ENTRY || !file.startsWith(SANDBOX_STARTER))) {
        problems.push(`${at}: imports ${to}; the client loads the sandbox only through ${SANDBOX_ENTRY}, from ${SANDBOX_STARTER}`);
      } else if (isShared(file) && !isShared(to)) {
        problems.push(`${at}: ${file} is shared with the sandbox and may import only other shared modules, not ${to}`);
      }
      // One command group does not reach into another's files: what two groups share lives in
      // src/commands/*.ts (flag helpers, pickers) or down in a domain room.
      const group = commandGroup(file);
      const toGroup = commandGroup(to);
      if (group && toGroup && group !== toGroup) {
        problems.push(`${at}: ${file} imports ${to}, a file of another command group; move what they share to src/commands/ or down to a domain room`);
      }
      const target = layerOf(to);
      if (from >= 0 && target >= 0 && target < from) {
        problems.push(`${at}: ${file} (${LAYERS[from].name}) imports ${to} (${LAYERS[target].name}), a higher layer`);
      }
      // Type-only imports between sandbox modules are erased at compile time (verbatimModuleSyntax
      // keeps only value imports), so they cannot make a load-order circle; the sandbox's model,
      // store and routes describe each other's shapes, and that is all these are.
      if (imp.typeOnly && inSandbox && toSandbox) continue;
      list.push({ from: file, to, line: imp.line });
    }
  }

  for (const scc of cycles(files, edges)) {
    const path = circleThrough(scc[0], scc, edges);
    const trail = path.map((e) => `${e.from}:${e.line}`).join(' -> ');
    problems.push(
      `${scc[0]}:${path[0]?.line ?? 1}: import circle: ${trail} -> ${scc[0]}${scc.length > path.length ? ` (${scc.length} files in this knot: ${scc.join(', ')})` : ''}`,
    );
  }
  for (const pair of allowed) {
    if (!usedAllowances.has(pair)) problems.push(`scripts/check-layers.mjs:1: the allow-list entry "${pair}" matches no import any more; remove it`);
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root');
  const root = at >= 0 ? resolve(process.argv[at + 1] ?? '.') : projectRoot;
  const problems = checkLayers(root);
  for (const p of problems) process.stdout.write(`${p}\n`);
  if (problems.length) {
    process.stderr.write(`check-layers: ${problems.length} problem${problems.length === 1 ? '' : 's'} (the layers are described in docs/architecture.md)\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write('check-layers: every import points down; no circles\n');
  }
}
