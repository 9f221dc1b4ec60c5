import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { createFactory } from '../../../src/factory.js';
import { buildProgram } from '../../../src/program.js';
import { type FakeIO, fakeIO } from '../../helpers/io.js';

/** The complete Commander tree (every group loaded) on a fake terminal, as the help and completion tests walk it. */
export async function fullProgram(o: { tty?: boolean } = {}): Promise<{ program: Command; io: FakeIO }> {
  const io = fakeIO({ tty: o.tty ?? false });
  const f = createFactory({
    io: io.io,
    env: { NO_COLOR: '1' },
    signal: new AbortController().signal,
    globals: { debug: false, timeoutMs: 30_000, maxWaitMs: 60_000, noInput: true, noColor: true },
  });
  return { program: await buildProgram(f, [], { all: true }), io };
}
