import { spawnTracked as spawn } from '../helpers/processes.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runFormctl, tempHome } from '../helpers/cli.js';

const home = tempHome();
afterAll(() => home.cleanup());

/** Spawns `formctl sandbox …`, resolves with the first stdout line and a way to stop it. */
function startSandboxProcess(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...home.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', resolve);
    child.once('close', () => reject(new Error(`sandbox exited before printing: ${stderr}`)));
  });
  return { child, firstLine, exited, stderr: () => stderr };
}

describe('formctl sandbox', () => {
  it('--port 0 --json prints one JSON line, serves requests, and closes cleanly on SIGINT with the data file flushed', async () => {
    const data = join(home.dir, 'sandbox.json');
    const p = startSandboxProcess(['--port', '0', '--json', '--data', data, '--seed', '2', '--profile-name', 'sbx']);
    const info = JSON.parse(await p.firstLine);
    expect(Object.keys(info).sort()).toEqual(['flavor', 'form_id', 'form_slug', 'tokens', 'url', 'users', 'workspace_id']);
    expect(info.flavor).toBe('spec');
    expect(info.users.map((u: { email: string }) => u.email)).toEqual(['admin@example.com', 'bea@example.com']);
    expect(info.users[0].token).toBe(info.tokens.all);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Object.keys(info.tokens).sort()).toEqual(['all', 'forms', 'noIntegrations', 'readonly']);

    const created = await runFormctl(['--profile', 'sbx', 'workspace', 'create', '--name', 'Persisted', '--json', 'id'], { env: home.env });
    expect(created.code).toBe(0);
    const wsId = JSON.parse(created.stdout).id as number;

    p.child.kill('SIGINT');
    expect(await p.exited, p.stderr()).toBe(0);
    expect(p.stderr()).toBe('');
    const state = JSON.parse(readFileSync(data, 'utf8'));
    expect(state.meta.tokens.all).toBe(info.tokens.all);
    expect(JSON.stringify(state)).toContain('"Persisted"');

    // The next start resumes from the file: same tokens, the workspace is still there.
    const again = startSandboxProcess(['--port', '0', '--json', '--data', data, '--profile-name', 'sbx']);
    const info2 = JSON.parse(await again.firstLine);
    expect(info2.tokens).toEqual(info.tokens);
    expect(info2.users).toEqual(info.users);
    const list = await runFormctl(['--profile', 'sbx', 'workspace', 'list', '--json', 'id'], { env: home.env });
    expect(JSON.parse(list.stdout)).toContainEqual({ id: wsId });
    again.child.kill('SIGINT');
    expect(await again.exited, again.stderr()).toBe(0);
  });

  it('--profile-name never replaces a profile the user saved (exit 2, the profile untouched), nor one made by a sandbox and then logged into again', async () => {
    const p = startSandboxProcess(['--port', '0', '--json']);
    try {
      const info = JSON.parse(await p.firstLine) as { url: string; tokens: { all: string } };
      const login = await runFormctl(['--profile', 'mine', 'auth', 'login', '--with-token', '--base-url', info.url], { env: home.env, input: info.tokens.all });
      expect(login.code, login.stderr).toBe(0);
      const config = join(home.dir, 'config', 'config.json');
      const before = readFileSync(config, 'utf8');

      const r = await runFormctl(['sandbox', '--port', '0', '--profile-name', 'mine'], { env: home.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `error: A profile named "mine" already exists (${info.url}) and was not made by formctl sandbox.\n` +
          'hint: Choose another --profile-name, or run `formctl profile remove mine` first.\n',
      );
      expect(readFileSync(config, 'utf8')).toBe(before);

      // A sandbox profile the user then logs into again is the user's own from then on.
      const own = startSandboxProcess(['--port', '0', '--json', '--profile-name', 'own']);
      JSON.parse(await own.firstLine);
      own.child.kill('SIGINT');
      expect(await own.exited, own.stderr()).toBe(0);
      const relogin = await runFormctl(['--profile', 'own', 'auth', 'login', '--with-token', '--base-url', info.url], {
        env: home.env,
        input: info.tokens.all,
      });
      expect(relogin.code, relogin.stderr).toBe(0);
      const again = await runFormctl(['sandbox', '--port', '0', '--profile-name', 'own'], { env: home.env });
      expect(again.code).toBe(2);
      expect(JSON.parse(readFileSync(config, 'utf8')).profiles.own.baseUrl).toBe(info.url);
    } finally {
      p.child.kill('SIGINT');
      await p.exited;
    }
  });

  it('text mode prints the URL, the tokens and copy-paste lines', async () => {
    const p = startSandboxProcess(['--port', '0', '--rate-limit', '0']);
    const first = await p.firstLine;
    expect(first).toMatch(/^✓ Sandbox listening on http:\/\/127\.0\.0\.1:\d+ \(API under \/open\/\), state in memory$/);
    await new Promise((r) => setTimeout(r, 50));
    p.child.kill('SIGINT');
    expect(await p.exited, p.stderr()).toBe(0);
  });

  it('--flavor deployed and --user: the flavour, every user and its token are printed; --user takes an address', async () => {
    const p = startSandboxProcess(['--port', '0', '--json', '--flavor', 'deployed', '--user', 'carol@example.com', '--user', 'dan@example.com']);
    const info = JSON.parse(await p.firstLine);
    expect(info.flavor).toBe('deployed');
    expect(info.users.map((u: { email: string }) => u.email)).toEqual(['admin@example.com', 'bea@example.com', 'carol@example.com', 'dan@example.com']);
    const carol = info.users[2];
    const list = await runFormctl(['workspace', 'list', '--json', 'id'], { env: { ...home.env, FORMCTL_BASE_URL: info.url, FORMCTL_TOKEN: carol.token } });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
    p.child.kill('SIGINT');
    expect(await p.exited, p.stderr()).toBe(0);
    const bad = await runFormctl(['sandbox', '--port', '0', '--user', 'carol'], { env: home.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: --user must be an email address, got "carol".\n');
    const flavor = await runFormctl(['sandbox', '--port', '0', '--flavor', 'live'], { env: home.env });
    expect(flavor.code).toBe(2);
    expect(flavor.stderr).toMatch(/--flavor/);
  });

  it('a corrupt data file is a one-line error (exit 2) and the file is left alone', async () => {
    const bad = join(home.dir, 'corrupt.json');
    writeFileSync(bad, '{"oops":');
    const r = await runFormctl(['sandbox', '--port', '0', '--data', bad], { env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: Sandbox data file .*corrupt\.json is not valid sandbox state: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(bad, 'utf8')).toBe('{"oops":');
  });

  it('bad option values are usage errors', async () => {
    const r = await runFormctl(['sandbox', '--port', '70000'], { env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --port must be a whole number from 0 to 65535, got "70000".\n');
  });

  it('--export-async-threshold is refused with --flavor deployed, whose threshold is a constant (no sandbox starts)', async () => {
    const r = await runFormctl(['sandbox', '--port', '0', '--flavor', 'deployed', '--export-async-threshold', '10'], { env: home.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "error: --export-async-threshold cannot be used with --flavor deployed: the deployed server's threshold is fixed at 1000 submissions.\n" +
        'hint: Drop --export-async-threshold, or leave out --flavor deployed to try export jobs on a small form.\n',
    );
  });
});
