import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { csvRowIds } from '../helpers/sandbox.js';

// An export of chosen submissions (a time range, --incremental, a bulk delete's backup) goes in chunks
// of `submissionIds`. The deployed server answers every such chunk with the CSV at once (its async
// threshold is 1,000 ids, a chunk's most); the spec leaves the threshold open, and a spec sandbox
// started with a low --export-async-threshold answers a chunk of 30 ids with an export job, whose
// status a token can read. Such a chunk is waited for and its job's file taken as its CSV; before,
// the export failed (exit 1) with "answered … with a job, not the CSV".
describe('chosen submissions answered with an export job (spec flavour, threshold 10, e2e)', () => {
  const fx = useSandboxFixture({ seed: 30, exportAsyncThreshold: 10, homePerTest: true });
  const all = Array.from({ length: 30 }, (_, i) => 30 - i);

  it('export --since: the job is waited for and its file saved as the CSV, every row of the range', async () => {
    const out = join(fx.work, 'since.csv');
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '-o', out, '--since', '1d', '--json'], { env: fx.env });
    expect(r.stderr).not.toContain('error:');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: out, rows: 30, gone: 0, requests: { list: 1, export: 1 } });
    expect(csvRowIds(readFileSync(out, 'utf8'))).toEqual(all);
    expect(readdirSync(fx.work)).toEqual(['since.csv']);
  });

  it('export --incremental: the first run takes every row through the job and advances its state', async () => {
    const out = join(fx.work, 'inc.csv');
    const state = join(fx.work, 'state.json');
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '-o', out, '--incremental', state], { env: fx.env });
    expect(r.stderr).not.toContain('error:');
    expect(r.code).toBe(0);
    expect(csvRowIds(readFileSync(out, 'utf8'))).toEqual(all);
    expect(existsSync(state)).toBe(true);
  });

  // Last: it deletes submissions. 12 of them: more than the threshold, and few DELETEs to pace.
  it("a bulk delete's backup holds every row to delete (its chunk went to a job), then those rows are deleted", async () => {
    const chosen = all.slice(0, 12);
    const from = join(fx.work, 'ids.txt');
    writeFileSync(from, chosen.join('\n') + '\n');
    const backup = join(fx.work, 'backup.csv');
    const r = await runFormctl(['submission', 'delete', String(fx.sb.formId), '--from', from, '--backup', backup, '--yes', '--json'], { env: fx.env });
    expect(r.stderr).not.toContain('error:');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ selected: 12, deleted: 12, failed: 0 });
    expect(csvRowIds(readFileSync(backup, 'utf8'))).toEqual(chosen);
  });
});

// A range that holds no row still writes the CSV's header, from an export of one listed submission
// (its row dropped); with a threshold of 0 even that one id is answered with a job.
describe('the header of an empty range answered with an export job (spec flavour, threshold 0, e2e)', () => {
  const fx = useSandboxFixture({ seed: 3, exportAsyncThreshold: 0 });

  it('is taken from the job file: a header-only CSV, exit 0', async () => {
    const out = join(fx.work, 'empty.csv');
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '-o', out, '--until', '2000-01-01'], { env: fx.env });
    expect(r.stderr).not.toContain('error:');
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('\uFEFFid,')).toBe(true);
    expect(csvRowIds(text)).toEqual([]);
  });
});
