import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('wait notes of requests in flight together', () => {
  const globals = { debug: false, timeoutMs: 5_000, maxWaitMs: 5_000, noInput: true, noColor: true };
  const NOTE = 'note: rate limited (HTTP 429); retrying in 1 s (Ctrl-C to stop).\n';

  it('are one note for waits that overlap (a bulk run at --concurrency 4), and a later wait gets its own', async () => {
    // Each request is refused once with Retry-After: 1, then answered.
    const refused = new Set<string>();
    const stub = await startStubServer((req, res) => {
      if (refused.has(req.url!)) return json(res, 200, {});
      refused.add(req.url!);
      return json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '1' });
    });
    // The shared rate budget in a cache of its own: the 429s are recorded there.
    const cache = mkdtempSync(join(tmpdir(), 'formctl-notes-'));
    try {
      const io = fakeIO();
      const f = createFactory({ io: io.io, env: { FORMCTL_CACHE_DIR: cache }, signal: new AbortController().signal, globals });
      const client = f.apiFor(stub.url, 'tok_test');
      await Promise.all([1, 2, 3, 4].map((id) => client.request({ path: `/open/forms/5/submissions/${id}` })));
      expect(io.err()).toBe(NOTE);
      // The waits are over: the next one is a new wait, with its note.
      await client.request({ path: '/open/forms/5/submissions/5' });
      expect(io.err()).toBe(NOTE + NOTE);
    } finally {
      await stub.close();
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
