import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// A chunked export reads the next chunk's ids from the list while the current chunk downloads
// (src/export/chunked.ts). When the export fails, that read must stop with it: left running, it went
// on against the client being closed and printed "the connection failed … retrying" notes after the
// error, and the command waited for its retries before exiting.
describe('a chunked export that fails (deployed flavour, e2e)', () => {
  // 2,500 submissions make the export go in chunks; a threshold of 10 makes the service answer a
  // chunk of 1,000 ids with a job whose status tokens cannot read (the deployed flavour's route), so
  // its file cannot be fetched: the export fails there. No
  // deployed server answers so (its threshold is a constant, docs/sandbox.md, "Behaviour the spec leaves open": sync or async), and `formctl
  // sandbox --flavor deployed` refuses the option; the in-process sandbox takes it as a way to fail a chunk.
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 2500, exportAsyncThreshold: 10 });

  it('stops reading the list with it: one error, no retry notes, no file', async () => {
    const out = join(fx.work, 'answers.csv');
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '-o', out], { env: fx.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: The service answered the export of 1,000 chosen submissions (chunk 1 of the export of form 1) with export job');
    expect(r.stderr).toContain('The deployed OpnForm server answers up to 1,000 chosen submissions with the CSV at once: this service differs from it.');
    expect(r.stderr).not.toMatch(/retrying|connection failed|UND_ERR/i);
    expect(readdirSync(fx.work)).toEqual([]);
  });
});
