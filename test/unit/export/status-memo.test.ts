import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSED_STATUS_TTL_MS, ExportStatusMemo, straightToChunks } from '../../../src/export/status-memo.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('what a service said about its export status route, remembered per origin', () => {
  it('believes "closed" for 7 days, per origin, then asks again; only forms above 1,000 submissions skip the job', () => {
    dir = mkdtempSync(join(tmpdir(), 'formctl-memo-'));
    const clock = { t: 1_800_000_000_000 };
    const memo = new ExportStatusMemo(join(dir, 'service'), () => clock.t);
    const api = 'https://api.example.com';
    expect(memo.closedSince(api)).toBeUndefined();
    expect(straightToChunks(memo, api, 5000)).toBe(false);
    memo.rememberClosed(api);
    expect(memo.closedSince(api)).toBe(clock.t);
    expect(memo.closedSince('https://other.example.com')).toBeUndefined();
    expect(straightToChunks(memo, api, 1001)).toBe(true);
    expect(straightToChunks(memo, api, 1000)).toBe(false);
    expect(straightToChunks(memo, api, undefined)).toBe(false);
    clock.t += CLOSED_STATUS_TTL_MS - 1;
    expect(straightToChunks(memo, api, 1001)).toBe(true);
    clock.t += 1;
    expect(memo.closedSince(api)).toBeUndefined();
    expect(straightToChunks(memo, api, 1001)).toBe(false);
  });

  it('a broken or foreign file, or no cache directory, remembers nothing and fails nothing', () => {
    dir = mkdtempSync(join(tmpdir(), 'formctl-memo-'));
    const none = new ExportStatusMemo(undefined, () => 1);
    none.rememberClosed('https://a');
    expect(none.closedSince('https://a')).toBeUndefined();
    // A cache "directory" that is a file: the write fails quietly.
    writeFileSync(join(dir, 'file'), 'x');
    const blocked = new ExportStatusMemo(join(dir, 'file', 'service'), () => 1);
    expect(() => blocked.rememberClosed('https://a')).not.toThrow();
    expect(blocked.closedSince('https://a')).toBeUndefined();
  });
});
