import { spawnTracked as spawn } from '../helpers/processes.js';
import { readdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, HANG_BOUND_MS, runFormctl } from '../helpers/cli.js';
import { type CountingProxy, type Tamper, startCountingProxy } from '../helpers/counting-proxy.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// `-o -` with an export of more than one chunk is all or nothing (docs/submission-update.md, "Exports
// to stdout"): a chunk refused after chunk 1 passed must not leave part of the CSV on stdout, where a
// script that does not check the exit code would take it for the export. The CSV is collected in a
// temp file in the cache directory and copied to stdout once every chunk passed; the temp file goes
// on every path. The fault is injected by a proxy in front of the deployed sandbox (1,200 rows: two chunks).

const htmlPage = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!DOCTYPE html>\n<html><body>502 Bad Gateway</body></html>\n');
};

describe('an export of more than one chunk to stdout (deployed flavour, 1,200 rows, e2e)', () => {
  let proxy: CountingProxy;
  /** From which export POST of a run on (0-based) every answer is an HTML page; undefined: none. */
  let brokenFrom: number | undefined;
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 1200 });
  let spool: string;
  beforeAll(async () => {
    spool = join(fx.home.dir, 'cache', 'export');
    const isExport = (path: string) => path === `/open/forms/${fx.sb.formId}/submissions/export`;
    // The export POSTs of a run: the whole form (a job), then chunk 1, then chunk 2 (up to 3 times).
    let base = 0;
    const tamper: Tamper = (req, nth) => {
      if (req.method !== 'POST' || !isExport(req.path)) return undefined;
      return brokenFrom !== undefined && nth - base >= brokenFrom ? htmlPage : undefined;
    };
    proxy = await startCountingProxy(fx.sb.url, tamper);
    runs = (args: string[]) => {
      base = proxy.passed.filter((p) => p.method === 'POST' && isExport(p.path)).length;
      return runFormctl(['submission', 'export', String(fx.sb.formId), ...args], {
        env: { ...fx.home.env, FORMCTL_BASE_URL: proxy.url, FORMCTL_TOKEN: fx.sb.tokens.all },
        timeoutMs: 60_000,
      });
    };
  });
  afterAll(async () => {
    await proxy?.close();
  });
  let runs: (args: string[]) => ReturnType<typeof runFormctl>;

  it('a chunk 2 refused 3 times: exit 1, nothing on stdout, no temp file left', async () => {
    brokenFrom = 2;
    const r = await runs(['-o', '-']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error: Chunk 2 of the export of form \d+: the service sent an HTML page, not the CSV \(asked 3 times\)/);
    expect(readdirSync(spool)).toEqual([]);
  });

  it('a --since range of more than 1,000 rows whose chunk 2 is refused: exit 1, nothing on stdout', async () => {
    // The range export sends no whole-form POST: its POSTs are chunk 1, then chunk 2.
    brokenFrom = 1;
    const r = await runs(['--since', '3650d', '-o', '-', '--columns', 'name']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error: Chunk 2 of the export of form \d+: the service sent an HTML page, not the CSV \(asked 3 times\)/);
    expect(readdirSync(spool)).toEqual([]);
  });

  it('every chunk passes: the whole CSV on stdout, one header, and no temp file left', async () => {
    brokenFrom = undefined;
    const r = await runs(['-o', '-']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toMatch(/^id,/);
    expect(lines).toHaveLength(1201);
    expect(r.stdout.split('\uFEFF')).toHaveLength(2);
    expect(readdirSync(spool)).toEqual([]);
  });

  it('a reader gone before the CSV comes (| head that ended): exit 0, and the temp file holding the whole CSV is removed', async () => {
    brokenFrom = undefined;
    const child = spawn(process.execPath, [BIN, 'submission', 'export', String(fx.sb.formId), '-o', '-'], {
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...fx.home.env, FORMCTL_BASE_URL: proxy.url, FORMCTL_TOKEN: fx.sb.tokens.all },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const hang = setTimeout(() => child.kill('SIGKILL'), HANG_BOUND_MS);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The pipe's reader is gone: the CSV's first write to stdout is EPIPE, once it was collected whole.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(hang);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/error|EPIPE/);
    expect(readdirSync(spool)).toEqual([]);
  });
});
