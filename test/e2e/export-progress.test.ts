// `submission export -o FILE` with stderr not a terminal (CI logs, `2>log`): the built binary, a job
// whose progress changes at every poll. A redrawn status line must not turn into one log line per
// poll: nothing while the job runs, the last status once (README, "submission export").
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type StubServer, json, startStubServer } from '../helpers/http.js';

const CSV = '\ufeffid,name,created_at\n1,Ada,2026-01-01 10:00:00\n';
const POLLS = 8;

describe('submission export progress in a log (e2e, built binary)', () => {
  let home: ReturnType<typeof tempHome>;
  let work: string;
  let stub: StubServer;
  let fail = false;

  beforeEach(async () => {
    home = tempHome();
    work = mkdtempSync(join(tmpdir(), 'formctl-export-log-'));
    fail = false;
    let polls = 0;
    stub = await startStubServer((req, res) => {
      if (req.method === 'GET' && req.url === '/open/forms/7')
        return json(res, 200, { id: 7, slug: 'f7', title: 'Form 7', visibility: 'public', properties: [{ id: 'name', type: 'text', name: 'Name' }] });
      if (req.method === 'POST' && req.url === '/open/forms/7/submissions/export')
        return json(res, 202, { message: 'queued', job_id: 'job-7', is_async: true });
      if (req.method === 'GET' && req.url === '/open/forms/7/submissions/export/job-7/status') {
        polls++;
        const processed = Math.min(polls * 100, 1200);
        if (fail && polls === POLLS) return json(res, 200, { status: 'failed', progress: 50, error_message: 'disk full' });
        if (polls < POLLS) return json(res, 200, { status: 'processing', progress: 0, processed_submissions: processed, total_submissions: 1200 });
        return json(res, 200, {
          status: 'completed',
          progress: 100,
          processed_submissions: 1200,
          total_submissions: 1200,
          file_url: `${stub.url}/files/job-7.csv`,
        });
      }
      if (req.method === 'GET' && req.url === '/files/job-7.csv') {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(Buffer.byteLength(CSV)) });
        res.end(CSV);
        return;
      }
      json(res, 404, { message: 'Not found.' });
    });
  });
  afterEach(async () => {
    await stub.close();
    home.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  const env = () => ({ ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: 'tok_log' });
  const statusPolls = () => stub.requests.filter((r) => r.url.endsWith('/status')).length;

  it('prints no line per poll and no carriage return: only the last status, once', async () => {
    const out = join(work, 'answers.csv');
    const r = await runFormctl(['submission', 'export', '7', '-o', out, '--poll-interval', '0.1'], { env: env(), timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    // The status changed at every one of the polls…
    expect(statusPolls()).toBe(POLLS);
    // …and the log holds one line.
    expect(r.stderr).toBe('Exporting: completed ▕██████████▏ 1,200/1,200 rows\n');
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe(CSV);
  });

  it('a failed job leaves the last status seen above the error', async () => {
    fail = true;
    const r = await runFormctl(['submission', 'export', '7', '-o', join(work, 'failed.csv'), '--poll-interval', '0.1'], { env: env(), timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(statusPolls()).toBe(POLLS);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toBe('Exporting: failed ▕█████░░░░░▏ 50%');
    expect(lines[1]).toMatch(/^error: .*disk full/);
    expect(r.stderr).not.toContain('\r');
    expect(r.stderr.match(/^Exporting/gm)).toHaveLength(1);
  });
});
