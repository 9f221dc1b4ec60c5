import { spawnSync } from 'node:child_process';
import { spawnTracked as spawn } from '../helpers/processes.js';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// `--json` on a terminal is coloured, as gh does; piped (even with FORCE_COLOR), with NO_COLOR,
// --no-color or TERM=dumb it is plain. A real pseudo-terminal comes from util-linux `script`, which
// copies everything the program writes (escape codes included) to its own stdout.

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
const ESC = '\x1b[';

const fx = useSandboxFixture({ seed: 1 });

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs the built binary on a pty; returns what it wrote there (stdout and stderr together). */
async function onTerminal(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  // Asynchronous: the sandbox answering the binary runs in this process.
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, TERM: 'xterm-256color', ...fx.home.env, ...fx.sb.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.destroy();
  expect(code, out).toBe(0);
  return out;
}

// eslint-disable-next-line no-control-regex
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r\n/g, '\n');

describe.skipIf(!hasScript)('--json colour', () => {
  it('is coloured on a terminal: keys, strings and numbers each in their colour, the same JSON underneath', async () => {
    const out = await onTerminal(['form', 'get', String(fx.sb.formId), '--json', 'id,title,workspace_id']);
    expect(out).toContain(`${ESC}34m"id"${ESC}39m`);
    expect(out).toMatch(new RegExp(`\\x1b\\[36m${fx.sb.formId}\\x1b\\[39m`));
    // eslint-disable-next-line no-control-regex
    expect(out).toMatch(/\x1b\[32m"Customer feedback \(demo\)"\x1b\[39m/);
    expect(JSON.parse(plain(out))).toEqual({ id: fx.sb.formId, title: 'Customer feedback (demo)', workspace_id: fx.sb.workspaceId });

    const list = await onTerminal(['workspace', 'list', '--json', 'id,name']);
    expect(list).toContain(`${ESC}34m"name"${ESC}39m`);
    expect(JSON.parse(plain(list))).toHaveLength(1);
  });

  it('CI=true on a terminal still prints the table (CI only turns prompts off)', async () => {
    const out = plain(await onTerminal(['workspace', 'list'], { CI: 'true', NO_COLOR: '1' }));
    expect(out).toMatch(/^ID +NAME +ICON +READ-ONLY +DEFAULT$/m);
  });

  it.each([
    ['NO_COLOR', { NO_COLOR: '1' }, []],
    ['TERM=dumb', { TERM: 'dumb' }, []],
    ['--no-color', {}, ['--no-color']],
  ])('is plain on a terminal with %s', async (_name, env, flags) => {
    const out = await onTerminal([...flags, 'workspace', 'list', '--json', 'id,name'], env);
    expect(out).not.toContain(ESC);
    expect(JSON.parse(plain(out))).toHaveLength(1);
  });
});

it('is plain when piped, even with FORCE_COLOR', async () => {
  const r = await runFormctl(['workspace', 'list', '--json', 'id,name'], { env: { ...fx.home.env, ...fx.sb.env, NO_COLOR: '', FORCE_COLOR: '1' } });
  expect(r.code).toBe(0);
  expect(r.stdout).not.toContain(ESC);
  expect(JSON.parse(r.stdout)).toHaveLength(1);
});
