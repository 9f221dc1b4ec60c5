// `formctl sandbox --host` on an interface other machines may reach: every token it prints has every
// ability, so it warns on stderr at start, and serves all the same. Loopback says nothing.
import { describe, expect, it } from 'vitest';
import { type SandboxRunOptions, sandboxRun } from '../../../src/commands/sandbox/index.js';
import type { SandboxOptions } from '../../../src/sandbox/index.js';
import { fakeIO } from '../../helpers/io.js';
import { fakeSandboxHandle } from '../../helpers/sandbox.js';

const WARNING = (host: string) =>
  `warning: the sandbox listens on ${host}, where other machines may reach it: anyone who does can use its tokens (each has every ability) and read or change its data. Pass --host 127.0.0.1 unless that is what you want.\n`;

/** Runs the command with a fake sandbox, already asked to stop; resolves with stderr and the host it was started on. */
async function startOn(host: string, o: { json?: boolean } = {}): Promise<{ err: string; started: string | undefined }> {
  const fake = fakeIO();
  const controller = new AbortController();
  controller.abort();
  let started: string | undefined;
  const handle = fakeSandboxHandle();
  await sandboxRun({
    flavor: 'spec',
    host,
    port: 0,
    ...(o.json ? { json: true } : {}),
    io: fake.io,
    config: () => Promise.reject(new Error('not used')),
    signal: controller.signal,
    start: (opts: SandboxOptions) => ((started = opts.host), Promise.resolve(handle)),
  } as unknown as SandboxRunOptions);
  return { err: fake.err(), started };
}

describe('sandbox --host', () => {
  it('an address other machines may reach (every interface, or one of them): a warning on stderr, and the sandbox starts there', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '[::]']) {
      expect(await startOn(host)).toEqual({ err: WARNING(host), started: host });
    }
    // With --json too: stdout keeps its one line, the warning is on stderr.
    expect((await startOn('0.0.0.0', { json: true })).err).toBe(WARNING('0.0.0.0'));
  });

  it('loopback (the default, another 127.x address, ::1, localhost) says nothing', async () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', 'LOCALHOST']) {
      expect(await startOn(host), host).toEqual({ err: '', started: host });
    }
  });
});
