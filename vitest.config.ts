import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __FORMCTL_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/preload.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: e2e files spawn processes, so keep the pool small.
    maxWorkers: 2,
    // .ci/run reads the JSON report to print its "N passed, N failed" line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
