import { spawnTracked as spawn } from '../helpers/processes.js';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runFormctl, tempHome } from '../helpers/cli.js';
import { sandboxForTest, useSandboxFixture } from '../helpers/fixture.js';
import { startStubServer } from '../helpers/http.js';
import { FLAVORS, type TestSandbox } from '../helpers/sandbox.js';

/** What the sandbox itself sends for an export, fetched without formctl (sync CSV or job → file_url). */
async function sandboxCsv(sb: TestSandbox, columns: Record<string, boolean>): Promise<Buffer> {
  const headers = { authorization: `Bearer ${sb.tokens.all}`, 'content-type': 'application/json', accept: 'application/json' };
  const res = await fetch(`${sb.url}/open/forms/${sb.formId}/submissions/export`, { method: 'POST', headers, body: JSON.stringify({ columns }) });
  if (res.headers.get('content-type')?.includes('csv')) return Buffer.from(await res.arrayBuffer());
  const { job_id } = (await res.json()) as { job_id: string };
  for (;;) {
    const s = (await (await fetch(`${sb.url}/open/forms/${sb.formId}/submissions/export/${job_id}/status`, { headers })).json()) as {
      status: string;
      file_url: string;
    };
    if (s.status === 'completed') return Buffer.from(await (await fetch(s.file_url)).arrayBuffer());
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('submission export (e2e)', () => {
  // 30 submissions; a threshold of 20 makes the export async.
  const fx = useSandboxFixture({ seed: 30, exportAsyncThreshold: 20, exportJobStepMs: 20 });

  it('async export: polls, downloads, and writes the exact bytes the sandbox generated', async () => {
    const out = join(fx.work, 'async.csv');
    const r = await runFormctl(['submission', 'export', String(fx.sb.formSlug), '--columns', 'email,name,created_at', '-o', out, '--poll-interval', '0.1'], {
      env: fx.env,
    });
    // The rows done out of the total, with a bar; not the job's id and a bare percentage. stderr is
    // not a terminal here: the last status only, once (test/e2e/export-progress.test.ts).
    expect(r.stderr).toBe('Exporting: completed ▕██████████▏ 30/30 rows\n');
    expect(r.code).toBe(0);
    const expected = await sandboxCsv(fx.sb, { email: true, name: true, created_at: true });
    expect(readFileSync(out).equals(expected)).toBe(true);
    expect(expected.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(readdirSync(fx.work)).toEqual(['async.csv']);
    // People's answers: the file is the user's alone, whatever the umask.
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it.each(FLAVORS)('sync export (below the threshold) on the %s flavour to the server-given name, byte-identical, --json report', async (flavor) => {
    const { sb: small, env, work: dir } = await sandboxForTest({ flavor, seed: 5 });
    const r = await runFormctl(['submission', 'export', String(small.formId), '--json'], { env, cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const name = `${small.formSlug}-submission-data.csv`;
    expect(readdirSync(dir)).toEqual([name]);
    const expected = await sandboxCsv(small, { name: true, email: true, rating: true, comments: true, created_at: true });
    expect(readFileSync(join(dir, name)).equals(expected)).toBe(true);
    expect(JSON.parse(r.stdout)).toEqual({ file: name, bytes: expected.length, job_id: null });
  });

  it('-o - writes the CSV to stdout; an unknown column exits 2 listing the valid ones', async () => {
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '--columns', 'name', '-o', '-', '--poll-interval', '0.1'], {
      env: fx.env,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe((await sandboxCsv(fx.sb, { name: true })).toString('utf8'));
    const bad = await runFormctl(['submission', 'export', String(fx.sb.formId), '--columns', 'name,shoe'], { env: fx.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      `error: Unknown column id for form "Customer feedback (demo)" (id ${fx.sb.formId}): shoe.\nhint: Valid columns: name (Name), email (Email), rating (Rating), comments (Comments), created_at, status, meta.attribution.<utm_source|utm_medium|utm_campaign|utm_id|utm_term|utm_content|utm_source_platform|utm_creative_format|utm_marketing_tactic|gclid|gbraid|wbraid|dclid|fbclid|ttclid|msclkid>\n`,
    );
  });

  it('an empty --columns, or --columns with --all-columns, is refused before any request (the form is not even read)', async () => {
    for (const [args, error] of [
      [['--columns', ''], '--columns needs at least one column id.'],
      [['--columns', ' , '], '--columns needs at least one column id.'],
      [['--columns', 'name', '--all-columns'], 'Use either --columns or --all-columns, not both.'],
      [['--columns', '', '--since', '1d'], '--columns needs at least one column id.'],
    ] as const) {
      const r = await runFormctl(['--debug', 'submission', 'export', String(fx.sb.formId), ...args], { env: fx.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: ${error}\n`);
      expect(r.stderr).not.toContain('[debug] >');
    }
    const hint = await runFormctl(['submission', 'export', String(fx.sb.formSlug), '--columns', ''], { env: fx.env });
    expect(hint.stderr).toBe(
      `error: --columns needs at least one column id.\nhint: Name them, e.g. --columns name,email,created_at (field ids or names: formctl form get ${String(fx.sb.formSlug)} --json properties); or leave --columns out for every field.\n`,
    );
  });

  it('--no-wait prints the job id; export-status --download fetches it later', async () => {
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '--no-wait'], { env: fx.env });
    expect(r.code).toBe(0);
    const jobId = r.stdout.trim();
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.stderr).toContain(
      `note: export job ${jobId} runs in the background; fetch it with: formctl submission export-status ${fx.sb.formId} ${jobId} --download`,
    );
    const out = join(fx.work, 'later.csv');
    const d = await runFormctl(['submission', 'export-status', String(fx.sb.formId), jobId, '--download', '-o', out, '--poll-interval', '0.1'], {
      env: fx.env,
    });
    expect(d.code).toBe(0);
    expect(readFileSync(out).equals(await sandboxCsv(fx.sb, { name: true, email: true, rating: true, comments: true, created_at: true }))).toBe(true);
    const st = await runFormctl(['submission', 'export-status', String(fx.sb.formId), jobId, '--json'], { env: fx.env });
    expect(JSON.parse(st.stdout)).toMatchObject({ job_id: jobId, status: 'completed', progress: 100 });
    // The file's link downloads every answer without a token: printed only when named.
    expect(JSON.parse(st.stdout)).not.toHaveProperty('file_url');
    expect(st.stderr).toBe(
      `note: the job's file_url is left out (anyone holding it can download every answer); name it to print it: --json file_url. To download the file: formctl submission export-status ${fx.sb.formId} ${jobId} --download\n`,
    );
    const link = await runFormctl(['submission', 'export-status', String(fx.sb.formId), jobId, '--json', 'file_url'], { env: fx.env });
    expect(link.code).toBe(0);
    expect(JSON.parse(link.stdout)).toEqual({ file_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//) });
    expect(link.stderr).toBe('');
    const human = await runFormctl(['submission', 'export-status', String(fx.sb.formId), jobId], { env: fx.env });
    expect(human.stdout).toContain('file\tready\n');
    expect(human.stdout + human.stderr).not.toContain(JSON.parse(link.stdout).file_url);
    const gone = await runFormctl(['submission', 'export-status', String(fx.sb.formId), 'no-such-job'], { env: fx.env });
    expect(gone.code).toBe(6);
    expect(gone.stderr).toContain('error: Export job no-such-job was not found');
  });

  it('--no-wait on the deployed flavour (job status closed to tokens): refused before the export is sent, exit 2, no job id', async () => {
    // Refused whatever the export's size: the service is known by its status routes, before anything is sent.
    const { sb: deployed, env, work: dir } = await sandboxForTest({ flavor: 'deployed', seed: 5 });
    // In a directory of its own: a formctl that sent the export would save the CSV there.
    const r = await runFormctl(['submission', 'export', String(deployed.formId), '--no-wait'], { env, cwd: dir });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --no-wait cannot work on this service: it does not let API tokens read the status of an export job (the deployed OpnForm service answers 404 with an empty message), so a job id could never be fetched. Nothing was exported.\n' +
        `hint: Run \`formctl submission export ${deployed.formId}\` without --no-wait: a small export is saved at once, a larger one is exported in chunks of 1,000 rows.\n`,
    });
    const debug = await runFormctl(['--debug', 'submission', 'export', String(deployed.formId), '--no-wait'], {
      env,
      cwd: dir,
    });
    expect(debug.code).toBe(2);
    // The first run's answer (closed to tokens) is remembered for this service: no probe again.
    expect(debug.stderr.split('\n').filter((l) => l.startsWith('[debug] > '))).toEqual([`[debug] > GET ${deployed.url}/open/forms/${deployed.formId}`]);
    // Without that memory (a fresh cache), one probe of the code's status path decides it.
    const fresh = mkdtempSync(join(tmpdir(), 'formctl-cache-'));
    try {
      const probe = await runFormctl(['--debug', 'submission', 'export', String(deployed.formId), '--no-wait'], {
        env: { ...env, FORMCTL_CACHE_DIR: fresh },
        cwd: dir,
      });
      expect(probe.code).toBe(2);
      expect(probe.stderr.split('\n').filter((l) => l.startsWith('[debug] > '))).toEqual([
        `[debug] > GET ${deployed.url}/open/forms/${deployed.formId}`,
        `[debug] > GET ${deployed.url}/open/forms/${deployed.formId}/submissions/export/status/00000000-0000-0000-0000-000000000000`,
      ]);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
    // What the hint says works.
    const out = join(dir, 'deployed.csv');
    const all = await runFormctl(['submission', 'export', String(deployed.formId), '-o', out], { env });
    expect(all.stderr).toBe('');
    expect(all.code).toBe(0);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n').length).toBe(6);
  });
});

describe('interrupted export (e2e)', () => {
  it("kill -9 leaves a .part with its owner record; the next run takes it over, while a running export's .part is refused", async () => {
    const home = tempHome();
    const dir = mkdtempSync(join(tmpdir(), 'formctl-kill9-'));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let slow = true;
    const stub = await startStubServer((req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 7, slug: 'slow', title: 'Slow', visibility: 'public', properties: [{ id: 'a', type: 'text', name: 'A' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/csv' });
      if (!slow) {
        res.end('"id","A"\n"1","x"\n');
        return;
      }
      // The export's header line first (formctl saves nothing before it is seen), then endless rows.
      res.write('"id","A"\n');
      const timer = setInterval(() => res.write(chunk), 20);
      res.on('close', () => clearInterval(timer));
    });
    const env = { PATH: process.env.PATH, NO_COLOR: '1', ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: 't' };
    try {
      const out = join(dir, 'slow.csv');
      const start = () => spawn(process.execPath, [BIN, 'submission', 'export', '7', '-o', out], { cwd: ROOT, env, stdio: 'ignore' });
      const running = start();
      while (!(existsSync(`${out}.part`) && statSync(`${out}.part`).size > 0)) await new Promise((r) => setTimeout(r, 20));
      const owner = JSON.parse(readFileSync(`${out}.part.owner`, 'utf8')) as { pid: number };
      expect(owner.pid).toBe(running.pid);
      // While it runs: refused, naming the process, and nothing sent (the form lookup is not made either).
      const refused = await runFormctl(['submission', 'export', '7', '-o', out], { env: { ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: 't' } });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`is running (process ${running.pid} on this machine`);
      running.kill('SIGKILL');
      await new Promise((r) => running.once('exit', r));
      expect(existsSync(`${out}.part`)).toBe(true);
      slow = false;
      const again = await runFormctl(['submission', 'export', '7', '-o', out], { env: { ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: 't' } });
      expect([again.code, again.stderr]).toEqual([0, '']);
      expect(readFileSync(out, 'utf8')).toBe('"id","A"\n"1","x"\n');
      expect(readdirSync(dir)).toEqual(['slow.csv']);
    } finally {
      await stub.close();
      home.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // SIGTERM is what `timeout`, a CI cancel or a plain `kill` sends, SIGHUP what a closing terminal
  // sends: each cleans up as Ctrl-C does.
  // "twice" is one interruption delivered twice, a few milliseconds apart, as GNU `timeout` sends it
  // (to the command, then to its process group) and as a parent forwarding the terminal's Ctrl-C
  // does: it is not a second Ctrl-C, so the cleanup still runs.
  it.each([
    ['SIGINT', 'once', 130],
    ['SIGTERM', 'once', 143],
    ['SIGINT', 'twice', 130],
    ['SIGTERM', 'twice', 143],
    // SIGHUP: the terminal the command ran in closed.
    ['SIGHUP', 'once', 129],
  ] as const)('%s mid-download (%s) exits %i and leaves neither the file nor a .part', async (signal, times, code) => {
    const home = tempHome();
    const dir = mkdtempSync(join(tmpdir(), 'formctl-sigint-'));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    // A slow server: the CSV trickles out until the client goes away.
    const stub = await startStubServer((req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 7, slug: 'slow', title: 'Slow', visibility: 'public', properties: [{ id: 'a', type: 'text', name: 'A' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename=slow-submission-data.csv' });
      // The export's header line first (formctl saves nothing before it is seen), then endless rows.
      res.write('"id","A"\n');
      const timer = setInterval(() => res.write(chunk), 20);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const out = join(dir, 'slow.csv');
      const child = spawn(process.execPath, [BIN, 'submission', 'export', '7', '-o', out], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, NO_COLOR: '1', ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: 't' },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, as under `timeout`.
        detached: times === 'twice',
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | string | null>((r) => child.on('close', (code, by) => r(code ?? by)));
      // Wait until part of the CSV is on disk, then press Ctrl-C.
      while (!(existsSync(`${out}.part`) && statSync(`${out}.part`).size > 0)) await new Promise((r) => setTimeout(r, 20));
      child.kill(signal);
      if (times === 'twice') {
        // A moment later, so that the first has been delivered (two at once are merged by the kernel).
        await new Promise((r) => setTimeout(r, 3));
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // Already gone: the one signal did it all.
        }
      }
      // A second signal that comes once the cleanup is done, while Node is shutting down (its signal
      // handlers gone), ends the process by that signal: nothing is left to clean up by then.
      expect(times === 'twice' ? [code, signal] : [code]).toContain(await exited);
      expect(readdirSync(dir)).toEqual([]);
      expect(stderr).toBe('');
    } finally {
      await stub.close();
      home.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
