import { spawnSync } from 'node:child_process';
import { spawnTracked as spawn } from '../helpers/processes.js';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// A config (and cache) directory formctl may not write blocks only what saves: commands that
// read, with FORMCTL_TOKEN and FORMCTL_BASE_URL (or a profile it can read), work; the rate budget
// file is skipped; a save fails with one line naming the directory (exit 2).

// A rate limit, so that answers carry X-RateLimit-* and formctl would write a budget file.
const fx = useSandboxFixture({ rateLimit: 6000 });
let ro: string;
beforeAll(() => {
  chmodSync(fx.home.dir, 0o777);
  ro = join(fx.home.dir, 'ro');
  mkdirSync(join(ro, 'config'), { recursive: true });
  // An existing, read-only config directory holding a profile.
  writeFileSync(
    join(ro, 'config', 'config.json'),
    JSON.stringify({
      currentProfile: 'saved',
      profiles: { saved: { baseUrl: fx.sb.url, token: fx.sb.tokens.all, tokenOrigin: fx.sb.url, workspace: fx.sb.workspaceId } },
    }),
  );
  chmodSync(join(ro, 'config', 'config.json'), 0o644);
  chmodSync(join(ro, 'config'), 0o555);
  chmodSync(ro, 0o555);
});

// Root may write anywhere, so as root the commands run as `nobody`; that needs Node and the
// checkout to be reachable for `nobody` (not so in a checkout under a 0700 home directory).
const asRoot = process.getuid?.() === 0;
const canRun = !asRoot || spawnSync(process.execPath, [BIN, '--version'], { uid: 65534, gid: 65534, stdio: 'ignore' }).status === 0;
if (!canRun) console.warn('config-unwritable: skipped: running as root, and user 65534 cannot run Node or read this checkout');

function run(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, NO_COLOR: '1', HOME: fx.home.dir, FORMCTL_STATE_DIR: join(ro, 'state'), FORMCTL_CACHE_DIR: join(ro, 'cache'), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

const HINT = 'hint: formctl saves profiles there: make it writable, or set FORMCTL_CONFIG_DIR to a writable directory.\n';

describe.skipIf(!canRun)('an unwritable config directory', () => {
  it('one that cannot be created: reads work with FORMCTL_TOKEN and FORMCTL_BASE_URL; saves fail naming it', async () => {
    const dir = join(ro, 'missing');
    const env = { FORMCTL_CONFIG_DIR: dir, ...fx.sb.env };
    for (const args of [
      ['workspace', 'list', '--json', 'id'],
      ['form', 'list', '-w', String(fx.sb.workspaceId), '--json', 'id'],
      ['auth', 'status', '--json', 'valid'],
    ]) {
      const r = await run(args, env);
      expect([r.code, r.stderr], args.join(' ')).toEqual([0, '']);
      expect(r.stdout).not.toBe('');
    }
    expect(readdirSync(ro).sort()).toEqual(['config']);

    const set = await run(['config', 'set', 'base_url', fx.sb.url], env);
    expect(set).toEqual({ code: 2, stdout: '', stderr: `error: Cannot save settings in ${dir}: permission denied.\n${HINT}` });
    const login = await run(['auth', 'login', '--base-url', fx.sb.url, '--with-token'], { FORMCTL_CONFIG_DIR: dir }, fx.sb.tokens.all);
    expect(login.code).toBe(2);
    expect(login.stderr.endsWith(`error: Cannot save settings in ${dir}: permission denied.\n${HINT}`)).toBe(true);
  });

  it('one that exists read-only: its profile is used; saves fail naming it, and the file is unchanged', async () => {
    const dir = join(ro, 'config');
    const env = { FORMCTL_CONFIG_DIR: dir };
    const list = await run(['form', 'list', '--json', 'id'], env);
    expect([list.code, list.stderr]).toEqual([0, '']);
    const use = await run(['workspace', 'use', String(fx.sb.workspaceId)], env);
    expect(use).toEqual({ code: 2, stdout: '', stderr: `error: Cannot save settings in ${dir}: permission denied.\n${HINT}` });
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});
