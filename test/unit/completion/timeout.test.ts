// A tab press waits for the service at most 2 s, or FORMCTL_COMPLETE_TIMEOUT seconds (a far service,
// a busy machine: the end-to-end completion tests set it, so that a loaded machine cannot empty an answer).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPLETE_TIMEOUT_MS, cachedValueSource, completeTimeoutMs } from '../../../src/completion/values.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-complete-timeout-'));
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

/** Asks for workspaces from a service that answers `after` ms later; resolves with what the tab press offers, and when. */
let asked = 0;
async function ask(env: NodeJS.ProcessEnv, after: number): Promise<{ values: string[]; at: number }> {
  const start = Date.now();
  // A cache of its own each time: an answer cached by the call before would hide the wait.
  const cache = join(dir, `cache-${asked++}`);
  const source = cachedValueSource({
    env: { FORMCTL_CACHE_DIR: cache, FORMCTL_TOKEN: 'fsk_t', FORMCTL_BASE_URL: 'http://127.0.0.1:9', ...env },
    now: () => new Date(),
    fetch: () => new Promise((resolve) => setTimeout(() => resolve(['1\tAcme']), after)),
  });
  let done: { values: string[]; at: number } | undefined;
  void source({ kind: 'workspace' }).then((c) => (done = { values: c.map((x) => x.value), at: Date.now() - start }));
  await vi.advanceTimersByTimeAsync(10_000);
  return done!;
}

describe('the completion time limit', () => {
  it('offers nothing after 2 s by default; FORMCTL_COMPLETE_TIMEOUT moves the limit', async () => {
    expect(await ask({}, 3_000)).toEqual({ values: [], at: COMPLETE_TIMEOUT_MS });
    expect(await ask({ FORMCTL_COMPLETE_TIMEOUT: '5' }, 3_000)).toEqual({ values: ['1'], at: 3_000 });
    expect(await ask({ FORMCTL_COMPLETE_TIMEOUT: '2.5' }, 3_000)).toEqual({ values: [], at: 2_500 });
  });

  it('anything but a positive number of seconds is the default', () => {
    for (const v of ['', ' ', 'abc', '0', '-3', 'Infinity']) expect(completeTimeoutMs({ FORMCTL_COMPLETE_TIMEOUT: v }), v).toBe(2_000);
    expect(completeTimeoutMs({})).toBe(2_000);
    expect(completeTimeoutMs({ FORMCTL_COMPLETE_TIMEOUT: '90' })).toBe(90_000);
  });
});
