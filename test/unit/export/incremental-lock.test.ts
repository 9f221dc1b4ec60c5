import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { type SubmissionExportOptions, submissionExportRun } from '../../../src/commands/submission/export.js';
import { fakeIO } from '../../helpers/io.js';
import { startTestSandbox } from '../../helpers/sandbox.js';

const rows = (file: string) =>
  readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n')
    .slice(1);

// Two runs of one series at once (a nightly job that overlaps the previous one): each row must still
// land in one file only. The second run waits for the first, then finds nothing new.
it('two runs of the same --incremental STATE at once export each row once', async () => {
  const sb = await startTestSandbox({ seed: 12 });
  const dir = mkdtempSync(join(tmpdir(), 'formctl-incremental-lock-'));
  const client = new ApiClient({ baseUrl: sb.url, token: sb.tokens.all, userAgent: 'formctl-test', timeoutMs: 5_000, maxWaitMs: 1_000, retryBaseMs: 1 });
  const run = (name: string) =>
    submissionExportRun({
      io: fakeIO().io,
      api: async () => client,
      now: () => Date.now(),
      sleep: async () => undefined,
      form: String(sb.formId),
      wait: true,
      pollInterval: 1_000,
      waitTimeout: 60_000,
      incremental: join(dir, 'state.json'),
      output: join(dir, name),
      baseUrl: async () => sb.url,
    } as SubmissionExportOptions);
  try {
    await Promise.all([run('a.csv'), run('b.csv')]);
    const all = [...rows(join(dir, 'a.csv')), ...rows(join(dir, 'b.csv'))];
    expect(all.length).toBe(12);
    expect(new Set(all.map((r) => r.split(',')[0])).size).toBe(12);
  } finally {
    await client.close();
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
