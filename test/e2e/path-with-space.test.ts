// A clone in a directory whose path holds a space ("~/My Projects/formctl") builds, runs its demo
// and its tests: no script may read a file URL's `.pathname` (which keeps the space as %20).
// The copy is cheap: src, scripts, bin, examples, test and the config files; node_modules is a link.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { spawnTracked } from '../helpers/processes.js';

let top: string;
let dir: string;

/** Runs a command in the copy with a clean environment; resolves with its exit code and output. */
function run(cmd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnTracked(cmd, args, {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: top, CI: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

beforeAll(() => {
  top = mkdtempSync(join(tmpdir(), 'formctl-space-'));
  dir = join(top, 'My Projects', 'formctl');
  mkdirSync(dir, { recursive: true });
  for (const entry of ['src', 'scripts', 'bin', 'examples', 'test', 'package.json', 'tsconfig.json', 'vitest.config.ts']) {
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
});
afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('a clone under a path with a space', () => {
  it('npm run build writes dist/ there, and the binary it built runs', async () => {
    const build = await run('npm', ['run', '--silent', 'build']);
    expect(build.out).toBe('');
    expect(build.code).toBe(0);
    const version = await run(process.execPath, ['bin/formctl.js', '--version']);
    expect(version).toEqual({ code: 0, out: expect.stringMatching(/^\d+\.\d+\.\d+\S*\n$/) as string });
    const help = await run(process.execPath, ['bin/formctl.js', 'workspace', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: formctl workspace/);
  });

  it('the demo runs there (after the build above)', async () => {
    const demo = await run(process.execPath, ['scripts/demo.mjs']);
    expect(demo.code, demo.out).toBe(0);
  });

  it("the test runner runs there (vitest with the project's config: global setup, preload, helpers)", async () => {
    const tests = await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/unit/test-layout.test.ts', '--reporter=dot']);
    expect(tests.code, tests.out).toBe(0);
    expect(tests.out).toMatch(/Tests\s+\d+ passed/);
  });
});
