// `npm run test:unit` (test/unit and test/sandbox) is the inner loop: no build, and no process of
// its own. A test that runs the built binary, a shell or any other program lives in test/e2e.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../../vitest.config.js';
import { ROOT } from '../helpers/cli.js';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.ts') || e.name.endsWith('.mjs') ? [join(dir, e.name)] : [],
  );
}

// An import statement (at the start of a line, possibly over several lines) of what starts processes.
const SPAWNS =
  /^import\s[^;]*?from\s*'(?:node:child_process|[./]*helpers\/(?:readme|tmux|tls)\.js)'|^import\s*\{[^}]*\b(?:BIN|runFormctl)\b[^}]*\}\s*from\s*'[./]*helpers\/cli\.js'/m;

// An import that reaches node:child_process's spawn, exec, execFile or fork: by name, or through the
// whole module (`import * as cp`, a default import). node:child_process spawn has no stop on the
// test's end and, in a clean environment, no marker for the global teardown; spawnSync and the
// other *Sync calls wait for their child, so they may stay.
const DIRECT_SPAWN =
  /^import\s*(?:\*\s*as\s+\w+|(?!type\b)\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s*as\s+\w+))?|\{[^}]*\b(?:spawn|exec|execFile|fork)\b[^}]*\})\s*from\s*'node:child_process'/m;

describe('the fast test run', () => {
  it('no unit or sandbox test starts a process: neither the built binary nor a shell', () => {
    const spawning = [...testFiles(join(ROOT, 'test', 'unit')), ...testFiles(join(ROOT, 'test', 'sandbox'))]
      .filter((file) => SPAWNS.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(spawning).toEqual([]);
  });

  it('the rule sees each way a test starts a process', () => {
    for (const text of [
      "import { spawnSync } from 'node:child_process';",
      "import { BIN, ROOT } from '../../helpers/cli.js';",
      "import { runFormctl, tempHome } from '../helpers/cli.js';",
      "import { startTmux } from '../../helpers/tmux.js';",
      "import {\n  execFile,\n  spawn,\n} from 'node:child_process';",
    ])
      expect(SPAWNS.test(text), text).toBe(true);
    expect(SPAWNS.test("import { ROOT, tempHome } from '../../helpers/cli.js';")).toBe(false);
  });

  it('every e2e test and helper starts its long-lived processes through spawnTracked (test/helpers/processes.ts)', () => {
    const direct = [...testFiles(join(ROOT, 'test', 'e2e')), ...testFiles(join(ROOT, 'test', 'helpers'))]
      .filter((file) => !file.endsWith(join('helpers', 'processes.ts')))
      .filter((file) => DIRECT_SPAWN.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(direct).toEqual([]);
  });

  it('the spawnTracked rule sees each way of reaching spawn, and lets the waiting calls and types through', () => {
    for (const text of [
      "import { spawn } from 'node:child_process';",
      "import { execFile, type ChildProcess } from 'node:child_process';",
      "import * as cp from 'node:child_process';",
      "import cp from 'node:child_process';",
    ])
      expect(DIRECT_SPAWN.test(text), text).toBe(true);
    for (const text of [
      "import { spawnSync } from 'node:child_process';",
      "import { execFileSync, spawnSync } from 'node:child_process';",
      "import type { ChildProcess } from 'node:child_process';",
    ])
      expect(DIRECT_SPAWN.test(text), text).toBe(false);
  });

  it('a test that replaces a module (vi.mock) runs with a module cache of its own (ISOLATED in vitest.config.ts), and only such a test', () => {
    const all = ['unit', 'sandbox', 'e2e'].flatMap((d) => testFiles(join(ROOT, 'test', d))).filter((f) => f.endsWith('.test.ts'));
    const mocking = all.filter((file) => /\bvi\.(?:do)?mock\(/.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
    expect(mocking.sort()).toEqual([...ISOLATED].sort());
  });
});
