import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// The built binary against the deployed flavour: a 1,200-row form exports in chunks once the job's
// status proves closed to tokens, and the next export starts no job (docs/service.md, "Export").
describe('export of 1,200 rows on the deployed flavour (built binary)', () => {
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 1200, exportJobStepMs: 5 });

  const posts = (stderr: string) => stderr.split('\n').filter((l) => /^\[debug\] > POST .*\/submissions\/export$/.test(l)).length;
  const rows = (file: string) => {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    return { lines: lines.length, headers: lines.filter((l) => l === lines[0]).length };
  };

  it('1,200 rows with one header, twice; the second run starts no server job', async () => {
    const env = { ...fx.home.env, ...fx.sb.env };
    const first = await runFormctl(['--debug', 'submission', 'export', String(fx.sb.formId), '-o', join(fx.work, 'a.csv')], { env, timeoutMs: 60_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(rows(join(fx.work, 'a.csv'))).toEqual({ lines: 1201, headers: 1 });
    // The POST that made the job, then two chunks of ids.
    expect(posts(first.stderr)).toBe(3);
    const second = await runFormctl(['--debug', 'submission', 'export', String(fx.sb.formId), '-o', join(fx.work, 'b.csv')], { env, timeoutMs: 60_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(rows(join(fx.work, 'b.csv'))).toEqual({ lines: 1201, headers: 1 });
    expect(posts(second.stderr)).toBe(2);
    expect(second.stderr).toContain('without starting a job');
    expect(second.stderr).not.toContain('/status');
  }, 90_000);
});
