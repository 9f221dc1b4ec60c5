import { spawnTracked as spawn } from '../helpers/processes.js';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runFormctl, tempHome } from '../helpers/cli.js';
import { type StubServer, json, startStubServer } from '../helpers/http.js';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { verifySignature } from '../../src/webhooks/signature.js';

// `formctl sandbox --tls`: https:// with a private CA, as many self-hosted servers run. The data
// paths run over it from the built binary, which trusts the CA through NODE_EXTRA_CA_CERTS (read by
// Node at start), and fail cleanly without it.

const home = tempHome();
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'formctl-tls-e2e-'));
});
afterAll(() => {
  home.cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe('the data paths over https, from the built binary', () => {
  let sb: TestSandbox;
  let deployed: TestSandbox;
  let receiver: StubServer;
  /** formctl trusting the sandbox's CA, with no base URL or token from the environment. */
  const trusting = (caFile: string) => ({ ...home.env, NODE_EXTRA_CA_CERTS: caFile });
  const cli = (args: string[], o: { cwd?: string } = {}) => runFormctl(args, { env: { ...trusting(sb.caFile!), ...sb.env }, ...o });

  beforeAll(async () => {
    // 30 answers over a threshold of 20: the export is an async job whose file_url is https too.
    sb = await startTestSandbox({ tls: true, seed: 30, exportAsyncThreshold: 20, exportJobStepMs: 20, allowPrivateWebhooks: true });
    deployed = await startTestSandbox({ tls: true, flavor: 'deployed', seed: 5 });
    receiver = await startStubServer((_req, res) => json(res, 200, { ok: true }));
  });
  afterAll(async () => {
    await sb?.close();
    await deployed?.close();
    await receiver?.close();
  });

  it('the sandbox serves https:// and writes its CA file; close removes the file it chose', async () => {
    expect(sb.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(readFileSync(sb.caFile!, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----\n[^]+\n-----END CERTIFICATE-----\n?$/);
    const other = await startTestSandbox({ tls: true });
    const file = other.caFile!;
    expect(existsSync(file)).toBe(true);
    await other.close();
    expect(existsSync(dirname(file))).toBe(false);
  });

  it('auth login --with-token to https://localhost, then workspace list and form list through the profile', async () => {
    const port = new URL(sb.url).port;
    const env = trusting(sb.caFile!);
    const login = await runFormctl(['auth', 'login', '--profile', 'tls', '--base-url', `https://localhost:${port}`, '--with-token'], {
      env,
      input: sb.tokens.all,
    });
    // Piped, a login says in one line on stderr whom it logged in as (the sandbox's admin).
    expect(login).toEqual({ code: 0, stdout: '', stderr: `Logged in to localhost:${port} as Ada Admin (admin@example.com), profile tls\n` });
    const workspaces = await runFormctl(['--profile', 'tls', 'workspace', 'list', '--json', 'id,name'], { env });
    expect(workspaces.code, workspaces.stderr).toBe(0);
    expect(JSON.parse(workspaces.stdout)).toEqual([{ id: sb.workspaceId, name: "Ada's Workspace" }]);
    const forms = await runFormctl(['--profile', 'tls', 'form', 'list', '--json', 'id'], { env });
    expect(forms.code, forms.stderr).toBe(0);
    expect(JSON.parse(forms.stdout)).toEqual([{ id: sb.formId }]);
  });

  it('form update changes the form over https', async () => {
    const r = await cli(['form', 'update', String(sb.formId), '--title', 'Over TLS', '--json', 'title']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ title: 'Over TLS' });
    const read = await cli(['form', 'get', String(sb.formId), '--json', 'title']);
    expect(JSON.parse(read.stdout)).toEqual({ title: 'Over TLS' });
  });

  it('an async export job: its file_url is https, and formctl downloads the file from it', async () => {
    const started = await cli(['submission', 'export', String(sb.formId), '--no-wait']);
    expect(started.code, started.stderr).toBe(0);
    const jobId = started.stdout.trim();
    const out = join(work, 'async.csv');
    const d = await cli(['submission', 'export-status', String(sb.formId), jobId, '--download', '-o', out, '--poll-interval', '0.1']);
    expect(d.code, d.stderr).toBe(0);
    const link = await cli(['submission', 'export-status', String(sb.formId), jobId, '--json', 'file_url']);
    expect(JSON.parse(link.stdout)).toEqual({ file_url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\//) });
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\ufeff/);
    expect(lines).toHaveLength(31);
  });

  it('a sync export (deployed flavour) downloads over https', async () => {
    const dir = mkdtempSync(join(work, 'sync-'));
    const r = await runFormctl(['submission', 'export', String(deployed.formId), '--json'], {
      env: { ...trusting(deployed.caFile!), ...deployed.env },
      cwd: dir,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { file: string; bytes: number; job_id: null };
    expect(report.job_id).toBeNull();
    expect(readdirSync(dir)).toEqual([report.file]);
    const lines = readFileSync(join(dir, report.file), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(readFileSync(join(dir, report.file)).length).toBe(report.bytes);
  });

  it('a webhook created over https is delivered, signed, when an answer comes in', async () => {
    const secret = 'tls-test-secret-0123456789abcdef';
    const file = join(work, 'secret.txt');
    writeFileSync(file, secret);
    const form = String(sb.formId);
    const created = await cli(['webhook', 'create', form, '--url', `${receiver.url}/hook`, '--secret-file', file, '--allow-private']);
    expect(created.code, created.stderr).toBe(0);
    const r = await cli(['webhook', 'trigger', form, '--data', 'Rating=4', '--data', 'email=ada@example.com', '--data', 'name=Ada']);
    expect(r.code, r.stderr).toBe(0);
    await sb.admin.deliveries();
    expect(receiver.requests).toHaveLength(1);
    const delivery = receiver.requests[0]!;
    expect(verifySignature(secret, delivery.body, String(delivery.headers['x-webhook-signature'])).valid).toBe(true);
    expect(JSON.parse(delivery.body)).toMatchObject({ form_id: sb.formId });
  });

  it('without the CA, a command fails at once with exit 11: one error line about the certificate and a hint naming NODE_EXTRA_CA_CERTS, no retry, no stack', async () => {
    const r = await runFormctl(['workspace', 'list'], { env: { ...home.env, ...sb.env } });
    expect(r.code).toBe(11);
    expect(r.stdout).toBe('');
    // Retrying cannot help (the same certificate comes back), so no "retrying" note precedes the error.
    const [error, hint, ...rest] = r.stderr.split('\n');
    expect(error).toMatch(/^error: .*certificate.*UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    expect(hint).toMatch(/^hint: .*NODE_EXTRA_CA_CERTS/);
    expect(rest).toEqual(['']);
  });

  it('webhook send to an https receiver without its CA: the same error about the certificate, its hint naming NODE_EXTRA_CA_CERTS', async () => {
    // The sandbox's https port stands in for a receiver whose CA this machine does not trust.
    const r = await runFormctl(['webhook', 'send', `${sb.url}/hook`, '--json'], { env: home.env });
    expect(r.code).toBe(11);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter((l) => !l.startsWith('warning: '));
    expect(lines[0]).toMatch(/^error: .*certificate.*UNABLE_TO_VERIFY_LEAF_SIGNATURE.*\(POST https:\/\/.*\/hook\)\.$/);
    expect(lines[1]).toMatch(/^hint: .*NODE_EXTRA_CA_CERTS/);
    expect(lines.slice(2)).toEqual(['']);
  });
});

/** Spawns `formctl sandbox …` with a ready file; resolves with its JSON, and a way to stop it. */
function startSandboxProcess(args: string[], readyFile: string) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--rate-limit', '0', '--ready-file', readyFile, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...home.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // The text banner ends with the copy-paste lines; its last line says the start is complete.
  const banner = new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      stdout += `${line}\n`;
      if (existsSync(readyFile) && /^ {2}(formctl|echo) /.test(line)) resolve(stdout);
    });
    child.once('close', () => reject(new Error(`sandbox exited early: ${stderr}`)));
  });
  return { child, banner, exited, stderr: () => stderr, stop: () => child.exitCode === null && child.kill('SIGINT') };
}

describe('formctl sandbox --tls (the command)', () => {
  it('prints the https URL, the CA file and its NODE_EXTRA_CA_CERTS line; the ready file and --profile-name carry them; exit removes the CA file', async () => {
    const ready = join(work, 'ready.json');
    const p = startSandboxProcess(['--tls', '--profile-name', 'tlsbox'], ready);
    try {
      const text = await p.banner;
      const info = JSON.parse(readFileSync(ready, 'utf8')) as { url: string; ca_file: string };
      expect(info.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(info.ca_file).toMatch(/\/ca\.pem$/);
      expect(text).toContain(`✓ Sandbox listening on ${info.url} (API under /open/), state in memory\n`);
      expect(text).toContain(
        `CA certificate: ${info.ca_file} (removed on exit)\nformctl (and any Node program) trusts it with:\n  export NODE_EXTRA_CA_CERTS=${info.ca_file}\n`,
      );
      // The saved profile points at the https URL; formctl reaches it once it trusts the CA.
      const list = await runFormctl(['--profile', 'tlsbox', 'workspace', 'list', '--json', 'id'], { env: { ...home.env, NODE_EXTRA_CA_CERTS: info.ca_file } });
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout)).toEqual([{ id: 1 }]);
      p.stop();
      expect(await p.exited, p.stderr()).toBe(0);
      expect(existsSync(info.ca_file)).toBe(false);
      expect(existsSync(dirname(info.ca_file))).toBe(false);
    } finally {
      p.stop();
    }
  });

  it('--ca-file writes the CA where asked (absolute in the output) and keeps it after exit; --json carries ca_file', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--tls', '--ca-file', 'mine-ca.pem', '--json'], {
      cwd: work,
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...home.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('close', () => reject(new Error('sandbox exited early')));
      });
      const info = JSON.parse(line) as { url: string; ca_file: string };
      expect(info.ca_file).toBe(join(work, 'mine-ca.pem'));
      expect(info.url).toMatch(/^https:/);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(readFileSync(info.ca_file, 'utf8')).toContain('-----BEGIN CERTIFICATE-----');
    } finally {
      if (child.exitCode === null) child.kill('SIGINT');
    }
  });

  it('--ca-file without --tls is a usage error (exit 2)', async () => {
    const r = await runFormctl(['sandbox', '--port', '0', '--ca-file', 'x.pem'], { env: home.env, cwd: ROOT });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --ca-file needs --tls.\n');
  });
});
