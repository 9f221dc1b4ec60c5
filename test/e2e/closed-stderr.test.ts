import { spawnTracked as spawn } from '../helpers/processes.js';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BIN, HANG_BOUND_MS, runFormctl } from '../helpers/cli.js';
import { sandboxForTest, useSandboxFixture } from '../helpers/fixture.js';

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
  const fx = useSandboxFixture();

  it('a failing command keeps its exit code (6, not found), its error line lost with the reader', async () => {
    expect(await withStderrGone(['form', 'get', '999'], fx.env)).toEqual({ code: 6, stdout: '' });
  });

  it('a note written before the failure does not turn it into success (webhook send to a closed port: 11)', async () => {
    // A port that was free a moment ago: nothing answers there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    // Without --secret-file the command warns on stderr first, then the POST is refused.
    expect(await withStderrGone(['webhook', 'send', `http://127.0.0.1:${port}/hook`], fx.home.env)).toEqual({ code: 11, stdout: '' });
  });

  it('a command that succeeds exits 0, its piped ✓ line lost with the reader', async () => {
    expect(await withStderrGone(['member', 'add', 'bea@example.com', '--role', 'user', '-w', '1'], fx.env)).toEqual({
      code: 0,
      stdout: '',
    });
  });

  it('a bulk update whose stdout and stderr reader goes away (2>&1 | head -1) still applies every line and ends with its own exit code', async () => {
    const seeded = await sandboxForTest({ seed: 20 });
    const env = seeded.env;
    const dir = seeded.work;
    const list = await runFormctl(['submission', 'list', String(seeded.sb.formId), '--json', 'id'], { env });
    const ids = (JSON.parse(list.stdout) as Array<{ id: number }>).map((r) => r.id);
    expect(ids.length).toBe(20);
    const file = join(dir, 'fix.ndjson');
    writeFileSync(file, ids.map((id) => JSON.stringify({ submission_id: String(id), data: { rating: 4 } })).join('\n') + '\n');
    // Async: the sandbox answers from this process, which a synchronous spawn would block.
    const piped = (from: string) =>
      new Promise<string>((resolve) => {
        const child = spawn(
          'bash',
          [
            '-c',
            `'${process.execPath}' '${BIN}' submission update ${seeded.sb.formId} --from '${from}' --yes 2>&1 | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`,
          ],
          { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'ignore'] },
        );
        let out = '';
        child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
        child.on('close', () => resolve(out));
      });
    expect(await piped(file)).toBe('0\n');
    const after = await runFormctl(['submission', 'list', String(seeded.sb.formId), '--json', 'data', '--jq', '[.[].data.rating] | unique'], { env });
    expect(JSON.parse(after.stdout)).toEqual([4]);
    // Lines refused locally (no such field) and the others applied: 10, as without the pipe.
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, ids.map((id, i) => JSON.stringify({ submission_id: String(id), data: i % 2 ? { rating: 3 } : { nope: 1 } })).join('\n') + '\n');
    expect(await piped(bad)).toBe('10\n');
  });
});
