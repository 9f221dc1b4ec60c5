import { spawnTracked as spawn } from '../helpers/processes.js';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runFormctl } from '../helpers/cli.js';
import { sandboxForTest } from '../helpers/fixture.js';

describe('global options and waits', () => {
  it('a bad --timeout or --max-wait is a one-line usage error (exit 2), not a silent exit', async () => {
    for (const [args, want] of [
      [
        ['--timeout', 'abc', 'workspace', 'list'],
        /^error: option '--timeout <seconds>' argument 'abc' is invalid\. Use a number of seconds above 0\.\nhint: see `formctl --help`\n$/,
      ],
      [
        ['workspace', 'list', '--max-wait', '-5'],
        /^error: option '--max-wait <seconds>' argument '-5' is invalid\. Use a number of seconds \(0 or more\)\.\nhint: see `formctl --help`\n$/,
      ],
      [['--timeout', '0', 'workspace', 'list'], /argument '0' is invalid\. Use a number of seconds above 0\.\nhint: see `formctl --help`\n$/],
    ] as const) {
      const r = await runFormctl([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(want);
      expect(r.stdout).toBe('');
    }
  });

  it('says why it waits when rate limited, and Ctrl-C during the wait exits 130 at once', async () => {
    const fx = await sandboxForTest({ rateLimit: 1 });
    // Use up the window: the next request gets 429 with Retry-After of up to 60 s.
    await fetch(`${fx.sb.url}/open/workspaces`, { headers: { authorization: `Bearer ${fx.sb.tokens.all}` } });
    const child = spawn(process.execPath, [BIN, 'workspace', 'list'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...fx.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const noted = new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('retrying in')) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await noted;
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/^note: rate limited \(HTTP 429\); retrying in \d+ s \(Ctrl-C to stop\)\.\n/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
