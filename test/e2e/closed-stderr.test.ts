import { spawnTracked as spawn } from '../helpers/processes.js';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, HANG_BOUND_MS, tempHome } from '../helpers/cli.js';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';

// `formctl … 2>&1 | head -2`: the reader of stderr goes away before the command is done. That
// changes nothing about the outcome: the command ends with its own exit code (an unhandled EPIPE
// on stderr ended it with 1, and a note written before the failure turned it into 0).

/** Runs the binary with its stderr's reader gone from the start; resolves with the exit code and stdout. */
function withStderrGone(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.destroy();
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const hang = setTimeout(() => child.kill('SIGKILL'), HANG_BOUND_MS);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(hang);
      resolve({ code, stdout });
    }),
  );
}

describe('stderr closed by its reader (e2e)', () => {
  let sb: TestSandbox;
  const home = tempHome();
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(async () => {
    await sb?.close();
    home.cleanup();
  });

  it('a failing command keeps its exit code (6, not found), its error line lost with the reader', async () => {
    expect(await withStderrGone(['form', 'get', '999'], { ...home.env, ...sb.env })).toEqual({ code: 6, stdout: '' });
  });

  it('a note written before the failure does not turn it into success (webhook send to a closed port: 11)', async () => {
    // A port that was free a moment ago: nothing answers there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    // Without --secret-file the command warns on stderr first, then the POST is refused.
    expect(await withStderrGone(['webhook', 'send', `http://127.0.0.1:${port}/hook`], home.env)).toEqual({ code: 11, stdout: '' });
  });

  it('a command that succeeds exits 0, its piped ✓ line lost with the reader', async () => {
    expect(await withStderrGone(['member', 'add', 'bea@example.com', '--role', 'user', '-w', '1'], { ...home.env, ...sb.env })).toEqual({
      code: 0,
      stdout: '',
    });
  });
});
