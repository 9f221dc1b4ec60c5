import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';

// The built binary against the deployed flavour: a 1,200-row form exports in chunks once the job's
// status proves closed to tokens, and the next export starts no job (docs/service.md, "Export").
describe('export of 1,200 rows on the deployed flavour (built binary)', () => {
  let sb: TestSandbox;
  let home: ReturnType<typeof tempHome>;
  let work: string;
  beforeAll(async () => {
    sb = await startTestSandbox({ flavor: 'deployed', seed: 1200, exportJobStepMs: 5 });
    home = tempHome();
    work = mkdtempSync(join(tmpdir(), 'formctl-memo-'));
  });
  afterAll(async () => {
    await sb.close();
    home.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  const posts = (stderr: string) => stderr.split('\n').filter((l) => /^\[debug\] > POST .*\/submissions\/export$/.test(l)).length;
  const rows = (file: string) => {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    return { lines: lines.length, headers: lines.filter((l) => l === lines[0]).length };
  };

  it('1,200 rows with one header, twice; the second run starts no server job', async () => {
    const env = { ...home.env, ...sb.env };
    const first = await runFormctl(['--debug', 'submission', 'export', String(sb.formId), '-o', join(work, 'a.csv')], { env, timeoutMs: 60_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(rows(join(work, 'a.csv'))).toEqual({ lines: 1201, headers: 1 });
    // The POST that made the job, then two chunks of ids.
    expect(posts(first.stderr)).toBe(3);
    const second = await runFormctl(['--debug', 'submission', 'export', String(sb.formId), '-o', join(work, 'b.csv')], { env, timeoutMs: 60_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(rows(join(work, 'b.csv'))).toEqual({ lines: 1201, headers: 1 });
    expect(posts(second.stderr)).toBe(2);
    expect(second.stderr).toContain('without starting a job');
    expect(second.stderr).not.toContain('/status');
  }, 90_000);
});
