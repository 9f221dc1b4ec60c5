// scripts/check-layers.mjs keeps the layers of docs/architecture.md ("Layers"): this runs its check
// on the project (so `npm test` and `npm run test:unit` fail on an import that points up or a circle)
// and on small fixture trees that show it does fail, with one file:line per offender. The check runs
// in this process (`checkLayers`, the function the script's command line calls): a node process per
// tree, each loading the TypeScript parser, cost seconds on a busy machine.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

const SCRIPT = join(ROOT, 'scripts', 'check-layers.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const { checkLayers } = (await import(pathToFileURL(SCRIPT).href)) as { checkLayers: (root?: string) => string[] };

/** What `node scripts/check-layers.mjs [--root DIR]` prints on stdout, and its exit status. */
function check(root?: string) {
  const problems = checkLayers(root);
  return { status: problems.length ? 1 : 0, lines: problems.length ? problems : ['check-layers: every import points down; no circles'] };
}

/** A tree under a temporary root: path (from the root) → file text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'formctl-layers-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The smallest tree every layer of which is in order. */
const CLEAN = {
  'src/main.ts': "import { build } from './program.js';\nexport const run = () => import('./commands/pickers.js').then(() => build());\n",
  'src/program.ts': "import { COMMANDS } from './commands/registry.js';\nexport const build = () => COMMANDS;\n",
  'src/commands/registry.ts':
    "import type { Factory } from '../factory.js';\nimport { label } from '../forms/label.js';\nexport const COMMANDS: Array<(f: Factory) => string> = [() => label()];\n",
  'src/commands/pickers.ts': "import type { Factory } from '../factory.js';\nexport const pick = (f: Factory) => f;\n",
  'src/commands/sandbox/index.ts': "export const start = () => import('../../sandbox/index.js');\n",
  // A command group uses the commands' shared modules and the rooms below, not another group.
  'src/commands/form/get.ts':
    "import { pick } from '../pickers.js';\nimport { label } from '../../forms/label.js';\nimport { line } from './common.js';\nexport const get = [pick, label, line];\n",
  'src/commands/form/common.ts': "export const line = 'x';\n",
  'src/factory.ts': "import { readAll } from './io/iostreams.js';\nimport 'node:fs';\nexport interface Factory { read: typeof readAll }\n",
  'src/forms/label.ts': "import { CliError } from '../errors.js';\nexport const label = () => String(CliError);\n",
  'src/io/iostreams.ts':
    "import { CliError } from '../errors.js';\nimport type { Options } from 'commander';\nexport const readAll = (o?: Options) => [CliError, o];\n",
  'src/errors.ts': 'export class CliError extends Error {}\n',
  'src/process-alive.ts': 'export const alive = (pid: number) => pid > 0;\n',
  'src/sandbox/index.ts':
    "import { alive } from '../process-alive.js';\nimport type { Store } from './store.js';\nexport const s: Store | undefined = alive(1) ? undefined : undefined;\n",
  // A circle of type-only imports inside the sandbox is erased at compile time: allowed.
  'src/sandbox/store.ts': "import type { Ctx } from './context.js';\nexport interface Store { ctx?: Ctx }\n",
  'src/sandbox/context.ts': "import { type Store } from './store.js';\nexport interface Ctx { store?: Store }\n",
};

describe('scripts/check-layers.mjs', () => {
  it('passes on this project: every import in src/ points down and none makes a circle', () => {
    const r = check();
    expect(r.lines).toEqual(['check-layers: every import points down; no circles']);
    expect(r.status).toBe(0);
  });

  it('passes on a small tree whose layers are in order', () => {
    const r = check(tree(CLEAN));
    expect(r.lines).toEqual(['check-layers: every import points down; no circles']);
    expect(r.status).toBe(0);
  });

  it('fails on imports that point up, circles, one command group reaching into another, the sandbox crossing over and a file in no layer, one file:line each', () => {
    const root = tree({
      ...CLEAN,
      // io reaches up into the commands (static, dynamic and re-export forms).
      'src/io/limit.ts': "import { pick } from '../commands/pickers.js';\nexport const n = pick;\nexport const later = () => import('../factory.js');\n",
      'src/forms/label.ts': "export { build } from '../program.js';\nexport const label = () => 'x';\n",
      // A circle of type-only imports outside the sandbox still counts.
      'src/api/client.ts': "import type { Budget } from './ratelimit.js';\nexport interface Client { b?: Budget }\n",
      'src/api/ratelimit.ts': "\nimport type { Client } from './client.js';\nexport interface Budget { c?: Client }\n",
      // A value circle inside the sandbox counts too; and the sandbox may not import client modules.
      'src/sandbox/router.ts': "import { route } from './routes.js';\nimport { CliError } from '../errors.js';\nexport const r = [route, CliError];\n",
      'src/sandbox/routes.ts': "import { r } from './router.js';\nexport const route = () => r;\n",
      // Only the sandbox command may start the sandbox, and only through its entry.
      'src/commands/registry.ts': "import { r } from '../sandbox/router.js';\nexport const COMMANDS = [r];\n",
      'src/newroom/thing.ts': 'export const x = 1;\n',
      'src/commands/submission/list.ts': "import { line } from '../form/common.js';\nexport const l = line;\n",
      'src/export/sink.ts': 'const name = "./x.js";\nexport const load = () => import(name);\n',
      'src/submissions/bulk-run.ts': "import { gone } from './missing.js';\nexport const g = gone;\n",
      // io is below the client and the config: terminal I/O that calls the API is a command's job (a picker).
      'src/io/prompt.ts': "import { Client } from '../api/client.js';\nimport { CliError } from '../errors.js';\nexport const p = [Client, CliError];\n",
      // src/ reaching out of itself (a test helper, a build script) would ship that file in the bundle.
      'src/webhooks/sign.ts': "import { fake } from '../../test/helpers/fake.js';\nexport const s = fake;\n",
      'test/helpers/fake.ts': 'export const fake = 1;\n',
    });
    const r = check(root);
    expect(r.status).toBe(1);
    expect(r.lines.sort()).toEqual(
      [
        'src/api/client.ts:1: import circle: src/api/client.ts:1 -> src/api/ratelimit.ts:2 -> src/api/client.ts',
        'src/submissions/bulk-run.ts:1: imports "./missing.js", which is no file in src/',
        'src/commands/registry.ts:1: imports src/sandbox/router.ts; the client loads the sandbox only through src/sandbox/index.ts, from src/commands/sandbox/',
        'src/commands/submission/list.ts:1: src/commands/submission/list.ts imports src/commands/form/common.ts, a file of another command group; move what they share to src/commands/ or down to a domain room',
        'src/export/sink.ts:2: import(name) has a computed specifier, which this check cannot follow; name the module literally',
        'src/forms/label.ts:1: src/forms/label.ts (domain) imports src/program.ts (program), a higher layer',
        'src/io/limit.ts:1: src/io/limit.ts (io) imports src/commands/pickers.ts (commands), a higher layer',
        'src/io/limit.ts:3: src/io/limit.ts (io) imports src/factory.ts (factory), a higher layer',
        'src/io/prompt.ts:1: src/io/prompt.ts (io) imports src/api/client.ts (api/config), a higher layer',
        'src/newroom/thing.ts:1: belongs to no layer; add its directory to LAYERS in scripts/check-layers.mjs and to docs/architecture.md',
        'src/sandbox/router.ts:1: import circle: src/sandbox/router.ts:1 -> src/sandbox/routes.ts:1 -> src/sandbox/router.ts',
        'src/webhooks/sign.ts:1: imports test/helpers/fake.ts, outside src/; src/ imports only its own files and packages',
        'src/sandbox/router.ts:2: the sandbox imports src/errors.ts; it may import only src/sandbox/ and the shared modules (src/process-alive.ts, src/atomic-file.ts, src/fs-reason.ts, src/service/)',
      ].sort(),
    );
  });
});
