import { describe, expect, it } from 'vitest';
import { createFactory } from '../../../src/factory.js';
import { json, startStubServer } from '../../helpers/http.js';
import { fakeIO } from '../../helpers/io.js';

describe('a wait note on a terminal', () => {
  it('clears the progress line first, so the note stands on its own line', async () => {
    let n = 0;
    const stub = await startStubServer((_req, res) =>
      n++ === 0 ? json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '1' }) : json(res, 200, []),
    );
    try {
      const io = fakeIO({ tty: true });
      const f = createFactory({
        io: io.io,
        env: {},
        signal: new AbortController().signal,
        globals: { debug: false, timeoutMs: 5_000, maxWaitMs: 5_000, noInput: true, noColor: true },
      });
      // A bulk run's live line, drawn in place.
      io.io.stderr.write('\r\x1b[2K12/60 lines · 12 ok · 0 failed');
      await f.apiFor(stub.url, 'tok_test').request({ path: '/open/workspaces' });
      expect(io.err()).toBe('\r\x1b[2K12/60 lines · 12 ok · 0 failed\r\x1b[2Knote: rate limited (HTTP 429); retrying in 1 s (Ctrl-C to stop).\n');
    } finally {
      await stub.close();
    }
  });
});
