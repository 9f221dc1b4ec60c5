// Ctrl-C on `formctl sandbox` at a terminal: when a request still in progress holds the close, the
// sandbox says so once a second Ctrl-C would count (src/main.ts), and says nothing when it closes at once.
import { describe, expect, it } from 'vitest';
import { type SandboxRunOptions, WAIT_NOTICE_MS, sandboxRun } from '../../../src/commands/sandbox/index.js';
import { fakeIO } from '../../helpers/io.js';
import { fakeSandboxHandle } from '../../helpers/sandbox.js';

const NOTICE = '\nnote: Waiting for requests still in progress to end; Ctrl-C stops it now.\n';

/** Runs the command with a fake sandbox whose close() ends when the test says; returns the pieces. */
function run(o: { tty: boolean; json?: boolean }) {
  const fake = fakeIO({ tty: o.tty });
  const io = fake.io;
  const controller = new AbortController();
  let closeNow!: () => void;
  let closing!: () => void;
  const closeCalled = new Promise<void>((r) => (closing = r));
  const handle = fakeSandboxHandle(() => {
    closing();
    return new Promise<void>((r) => (closeNow = r));
  });
  const done = sandboxRun({
    flavor: 'spec',
    host: '127.0.0.1',
    port: 0,
    ...(o.json ? { json: true } : {}),
    io,
    config: () => Promise.reject(new Error('not used')),
    signal: controller.signal,
    start: () => Promise.resolve(handle),
  } as unknown as SandboxRunOptions);
  return { err: () => fake.err(), done, closeCalled, closeNow: () => closeNow(), stop: () => controller.abort() };
}

describe('sandbox: Ctrl-C while a request holds the close', () => {
  it('says, at a terminal, what it waits for and that another Ctrl-C stops it now', async () => {
    const r = run({ tty: true });
    r.stop();
    await r.closeCalled;
    // Said once the close has taken WAIT_NOTICE_MS: wait for it as it comes, then let the close end.
    for (let turn = 0; turn < 200 && !r.err().includes(NOTICE); turn++) await new Promise((t) => setTimeout(t, WAIT_NOTICE_MS / 20));
    expect(r.err()).toContain(NOTICE);
    r.closeNow();
    await r.done;
    expect(r.err().split(NOTICE)).toHaveLength(2);
  });

  it('says nothing when the close ends at once, nor when stderr is no terminal or the output is JSON', async () => {
    for (const o of [{ tty: true }, { tty: false }, { tty: true, json: true }]) {
      const r = run(o);
      r.stop();
      await r.closeCalled;
      if (o.tty && !o.json) r.closeNow();
      else {
        // Past the notice's time, then the close ends: still nothing said.
        await new Promise((t) => setTimeout(t, WAIT_NOTICE_MS * 1.5));
        r.closeNow();
      }
      await r.done;
      expect(r.err(), JSON.stringify(o)).not.toContain('Waiting for requests');
    }
  });
});
