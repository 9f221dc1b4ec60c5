// The one start path (docs/performance.md): bin/formctl.js runs dist/cli/main.cjs on every Node
// version, and dist/cli/import.cjs turns on Node's compile cache where Node has it (>= 22.1) when the
// CLI first imports a package from node_modules. No timings here: only that the cache is written
// where Node keeps it, by a command that imports a package and not by one that imports none, and
// that a cached run prints what an uncached one does.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, runFormctl } from '../helpers/cli.js';

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const hasCompileCache = major > 22 || (major === 22 && minor >= 1);

let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-startup-'));
  // Node keeps its compile cache under the temporary directory unless told otherwise.
  env = { HOME: dir, TMPDIR: dir, FORMCTL_CONFIG_DIR: join(dir, 'config'), FORMCTL_STATE_DIR: join(dir, 'state'), FORMCTL_CACHE_DIR: join(dir, 'cache') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every file below `d`, or none when it does not exist. */
const filesIn = (d: string): string[] =>
  existsSync(d)
    ? readdirSync(d, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];

describe('start-up', () => {
  it.skipIf(!hasCompileCache)(
    "turns on Node's compile cache for the packages: a command that imports one writes it, a second run prints the same from it; a command that imports none does not turn it on",
    async () => {
      const cacheDir = join(dir, 'node-compile-cache');
      // No package: the CLI's own file runs from its code cache (src/startup/code-cache.ts) and node:module is not loaded.
      const help = await runFormctl(['help', 'exit-codes'], { env });
      expect([help.code, help.stderr]).toEqual([0, '']);
      expect(filesIn(cacheDir)).toEqual([]);
      // `config set` saves through conf, a package: imported through dist/cli/import.cjs.
      const cold = await runFormctl(['config', 'set', 'workspace', '5'], { env });
      expect([cold.code, cold.stderr]).toEqual([0, '']);
      expect(filesIn(cacheDir).length).toBeGreaterThan(0);
      const warm = await runFormctl(['config', 'set', 'workspace', '5'], { env });
      expect(warm).toEqual(cold);
      // Switched off by Node's own variable, the CLI prints the same again and writes nothing new.
      rmSync(cacheDir, { recursive: true, force: true });
      const off = await runFormctl(['config', 'set', 'workspace', '5'], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } });
      expect(off).toEqual(cold);
      expect(filesIn(cacheDir)).toEqual([]);
    },
  );

  it('runs the same CLI on Node without a compile cache: usage errors exit 2, commands run', async () => {
    const r = await runFormctl(['workspace', '--nope'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--nope'/);
    const ok = await runFormctl(['help', 'environment'], { env });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('FORMCTL_TOKEN');
  });

  it('`--version` and `-v` print the package version, and `--help` the same text as `help`', async () => {
    const { version } = JSON.parse((await import('node:fs')).readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) expect(await runFormctl([flag], { env })).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await runFormctl(['help'], { env });
    expect(await runFormctl(['--help'], { env })).toEqual(help);
  });

  it('`--version` and `--help` into a pipe whose reader has gone are success, as for any command: exit 0, nothing on stderr', () => {
    // `true` leaves the pipe long before Node has started, so formctl's one write meets no reader (EPIPE).
    for (const flag of ['--help', '--version']) {
      const script = `'${process.execPath}' '${BIN}' ${flag} 2>"$ERRFILE" | true; echo "\${PIPESTATUS[0]}"; cat "$ERRFILE"`;
      const r = spawnSync('bash', ['-c', script], { env: { ...env, PATH: process.env.PATH, ERRFILE: join(dir, 'err.txt') }, encoding: 'utf8' });
      expect(r.stdout).toBe('0\n');
    }
  });
});
