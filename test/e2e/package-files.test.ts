import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// What npm packs: the build's files, never the chunks an older build left in dist/cli/chunks (the
// CLI is one file now; scripts/build.mjs removes them only once no running process can need them).
describe('the package', () => {
  it.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'main.cjs')))('holds the CLI, its undici and loader, and no dist/cli/chunks left by an older build', () => {
    const dir = mkdtempSync(join(tmpdir(), 'formctl-pack-'));
    try {
      for (const f of ['package.json', 'bin', 'dist', 'completions']) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
      mkdirSync(join(dir, 'dist', 'cli', 'chunks'), { recursive: true });
      writeFileSync(join(dir, 'dist', 'cli', 'chunks', 'chunk-OLD.cjs'), 'module.exports = 1;\n');
      const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, npm_config_loglevel: 'error' },
      });
      expect(r.status, r.stderr).toBe(0);
      const files = (JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
      const built = ['bin/formctl.js', 'dist/cli/main.cjs', 'dist/cli/undici.cjs', 'dist/cli/lockfile.cjs', 'dist/cli/import.cjs', 'dist/sandbox.js'];
      for (const f of built) expect(files).toContain(f);
      expect(files.filter((f) => f.startsWith('dist/cli/chunks/'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
