import { run } from '../../src/main.js';
import { type RunOptions, type RunResult, tempHome } from './cli.js';
import { fakeIO } from './io.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs formctl in-process (src/main.ts `run`) against `url`, with TTY or piped streams, in a
 * throw-away home, logged in with the token "test-token" unless `env` says otherwise.
 */
export async function runCli(args: string[], o: { url: string; tty?: boolean; env?: NodeJS.ProcessEnv }): Promise<CliRun> {
  const home = tempHome();
  const io = fakeIO({ tty: o.tty ?? false });
  try {
    const env = { ...home.env, NO_COLOR: '1', FORMCTL_BASE_URL: o.url, FORMCTL_TOKEN: 'test-token', ...o.env };
    const code = await run(args, env, { stdin: io.stdin, stdout: io.stdout, stderr: io.stderr });
    return { code, out: io.out(), err: io.err() };
  } finally {
    home.cleanup();
  }
}

/**
 * `runFormctl` (test/helpers/cli.ts) without the process: the same arguments and result, run by
 * src/main.ts `run` in this process with piped (non-TTY) streams, `input` on stdin and the same
 * clean environment (PATH, NO_COLOR=1 and what the test passes). For suites that drive many
 * commands against the sandbox; a spawned smoke test in test/e2e keeps the binary honest.
 */
export async function runInProcess(args: string[], o: Pick<RunOptions, 'env' | 'input'> = {}): Promise<RunResult> {
  const io = fakeIO({ stdin: o.input === undefined ? '' : o.input.toString() });
  const code = await run(args, { PATH: process.env.PATH, NO_COLOR: '1', ...o.env }, { stdin: io.stdin, stdout: io.stdout, stderr: io.stderr });
  return { code, stdout: io.out(), stderr: io.err() };
}
