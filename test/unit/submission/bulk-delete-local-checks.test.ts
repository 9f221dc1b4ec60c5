import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SubmissionBulkDeleteOptions, submissionBulkDeleteRun } from '../../../src/commands/submission/delete-bulk.js';
import { UsageError } from '../../../src/errors.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { fakeIO } from '../../helpers/io.js';

// Bad local input is refused before any request (the house rule): an explicit --backup that is
// taken is known without the service, so the client is never asked for.
describe('submission delete --backup FILE, checked before any request', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'formctl-bulk-delete-local-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function opts(o: Partial<SubmissionBulkDeleteOptions>): { o: SubmissionBulkDeleteOptions; apiCalls: () => number } {
    let calls = 0;
    const o2 = {
      io: fakeIO().io,
      api: () => {
        calls++;
        return Promise.reject(new Error('no request was expected'));
      },
      prompter: () => ({}) as Prompter,
      form: '42',
      now: () => Date.now(),
      sleep: async () => undefined,
      yes: true,
      before: { kind: 'ago', ms: 86_400_000 },
      ...o,
    } as SubmissionBulkDeleteOptions;
    return { o: o2, apiCalls: () => calls };
  }

  it('an explicit --backup that exists: the same error and hint as before, and no client', async () => {
    const taken = join(dir, 'taken.csv');
    writeFileSync(taken, 'id\n1\n');
    const { o, apiCalls } = opts({ backup: taken });
    const err = await submissionBulkDeleteRun(o).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(`${taken} already exists.`);
    expect((err as UsageError).hint).toBe(`Choose another name with --backup, or remove ${taken} first.`);
    expect(apiCalls()).toBe(0);
  });

  it('an explicit --backup in a missing directory: refused with no client', async () => {
    const { o, apiCalls } = opts({ backup: join(dir, 'no-such-dir', 'b.csv') });
    await expect(submissionBulkDeleteRun(o)).rejects.toThrow(/the directory .*no-such-dir does not exist/);
    expect(apiCalls()).toBe(0);
  });

  it('a log that exists, named by --results or beside a --backup named by the user: refused with no client', async () => {
    const log = join(dir, 'run.log.ndjson');
    writeFileSync(log, '{}\n');
    for (const named of [{ results: log }, { backup: join(dir, 'run'), results: undefined }, { backup: false as const, results: log }]) {
      const { o, apiCalls } = opts(named);
      const err = await submissionBulkDeleteRun(o).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).message).toBe(`${log} already exists: it is the log of an earlier run.`);
      expect((err as UsageError).hint).toBe(`Continue it with --resume --results ${log}, or choose another name with --results.`);
      expect(apiCalls()).toBe(0);
    }
  });
});
