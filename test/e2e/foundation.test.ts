import { spawnTracked as spawn } from '../helpers/processes.js';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

const fx = useSandboxFixture({ seed: 1500 });

/** Runs `formctl … | head -c1` in a real shell pipe and returns formctl's own exit status and stderr. */
function pipedToHead(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const quoted = args.map((a) => `'${a}'`).join(' ');
    const script = `'${process.execPath}' '${BIN}' ${quoted} 2>"$ERRFILE" | head -c1 >/dev/null; echo "\${PIPESTATUS[0]}"; cat "$ERRFILE"`;
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env: { PATH: process.env.PATH, NO_COLOR: '1', ERRFILE: `${fx.home.dir}/err.txt`, ...env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const [status, ...rest] = out.split('\n');
      resolve({ status: status!, stderr: rest.join('\n') });
    });
  });
}

describe('foundation end to end', () => {
  it('a closed pipe (| head -c1) is success: exit 0, nothing on stderr', async () => {
    const env = { ...fx.home.env, ...fx.sb.env };
    const r = await pipedToHead(['api', `/open/forms/${fx.sb.formId}/submissions`], env);
    expect(r).toEqual({ status: '0', stderr: '' });
    const ndjson = await pipedToHead(['api', `/open/forms/${fx.sb.formId}/submissions`, '--paginate'], env);
    expect(ndjson).toEqual({ status: '0', stderr: '' });
  });

  it('--version, --help and help topics exit 0', async () => {
    const v = await runFormctl(['--version'], { env: fx.home.env });
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const h = await runFormctl(['help', 'exit-codes'], { env: fx.home.env });
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('  130  Interrupted (Ctrl-C)\n');
    const e = await runFormctl(['help', 'environment'], { env: fx.home.env });
    expect(e.stdout).toMatch(/\n {2}FORMCTL_TOKEN +Token to use instead of the profile's \(CI\)\. Never printed\.\n/);
  });

  it('unknown command: suggestion and exit 2', async () => {
    const r = await runFormctl(['profiel', 'list'], { env: fx.home.env });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', "error: unknown command 'profiel'\n(Did you mean profile?)\nhint: see `formctl --help`\n"]);
  });

  it('--debug traces requests without the token', async () => {
    const r = await runFormctl(['workspace', 'list', '--debug'], { env: { ...fx.home.env, ...fx.sb.env } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\[debug\] > GET http:\/\/127\.0\.0\.1:\d+\/open\/workspaces/);
    expect(r.stderr).toMatch(/\[debug\] < 200 GET \/open\/workspaces/);
    expect(r.stderr + r.stdout).not.toContain(fx.sb.tokens.all);
  });
});
