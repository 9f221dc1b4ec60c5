import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Unit and sandbox files share their worker's modules with the files before them (`isolate: false`):
 * re-importing src/, undici and the sandbox for each of ~100 files cost three times the tests' own
 * time on 2 cores (test:unit 96 s against 29 s on a loaded machine). Files that replace a module
 * (`vi.mock`) need a module cache of their own: they are listed here (test/unit/test-layout.test.ts
 * keeps the list true). The end-to-end files, whose time is their processes', stay isolated.
 */
export const ISOLATED = ['test/unit/config/publish-new.test.ts'];

export default defineConfig({
  define: { __FORMCTL_VERSION__: JSON.stringify(pkg.version) },
  test: {
    setupFiles: ['test/helpers/preload.ts'],
    // Marks the run, and fails it when a process a test started outlives it (test/helpers/processes.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
    // Tests wait for events (a ready line, an exit), not for a time; these bounds only stop a test
    // that hangs, so they are generous enough for a loaded 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each file in a child process of its own: what a test spawns is the worker's child, never the
    // runner's (the global teardown tells them apart by that).
    pool: 'forks',
    // Two cores: e2e files spawn processes, so keep the pool small.
    maxWorkers: 2,
    // .ci/run reads the JSON report to print its "N passed, N failed" line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/sandbox/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['test/e2e/**/*.test.ts', ...ISOLATED], isolate: true } },
    ],
  },
});
