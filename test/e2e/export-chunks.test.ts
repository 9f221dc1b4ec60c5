import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { startTestSandbox } from '../helpers/sandbox.js';

// A chunked export reads the next chunk's ids from the list while the current chunk downloads
// (src/export/chunked.ts). When the export fails, that read must stop with it: left running, it went
// on against the client being closed and printed "the connection failed … retrying" notes after the
// error, and the command waited for its retries before exiting.
describe('a chunked export that fails (deployed flavour, e2e)', () => {
  it('stops reading the list with it: one error, no retry notes, no file', async () => {
    const home = tempHome();
    const work = mkdtempSync(join(tmpdir(), 'formctl-export-chunk-fail-'));
    // 2,500 submissions make the export go in chunks; a threshold of 10 makes the service answer a
    // chunk of 1,000 ids with a job, which formctl cannot use for a chunk: the export fails there.
    const sb = await startTestSandbox({ flavor: 'deployed', seed: 2500, exportAsyncThreshold: 10 });
    try {
      const out = join(work, 'answers.csv');
      const r = await runFormctl(['submission', 'export', String(sb.formId), '-o', out], { env: { ...home.env, ...sb.env } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('error: The service answered an export of 1000 chosen submissions with a job, not the CSV');
      expect(r.stderr).not.toMatch(/retrying|connection failed|UND_ERR/i);
      expect(readdirSync(work)).toEqual([]);
    } finally {
      await sb.close();
      home.cleanup();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
