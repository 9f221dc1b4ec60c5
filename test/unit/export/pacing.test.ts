import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { SharedBudget } from '../../../src/api/ratelimit.js';
import { type SubmissionExportOptions, submissionExportRun } from '../../../src/commands/submission/export.js';
import { fakeIO } from '../../helpers/io.js';
import { startTestSandbox } from '../../helpers/sandbox.js';

// An export of 9,500 rows on the deployed flavour, run as formctl runs it: the rate budget shared
// with other formctl processes, and --max-wait's 60 s for the whole command. Its pacing (95 list
// pages at 100 a minute, 10 chunks at 10 exports a minute) must stay within what the shared budget
// admits, or the shared budget holds requests back until --max-wait is spent and then refuses one.
describe('a long export paced within the shared rate budget (deployed sandbox)', () => {
  const cases: [string, Partial<SubmissionExportOptions>][] = [
    ['a --since range (list pages, then chunks)', { since: { kind: 'ago', ms: 30 * 86_400_000, text: '30d' } }],
    ['the whole form beyond the token wall (chunks)', {}],
  ];
  it.each(cases)('%s: every row, no refusal', async (_, extra) => {
    let clock = Date.parse('2026-05-01T10:00:00.000Z');
    const now = () => clock;
    const sleep = async (ms: number) => {
      clock += ms;
    };
    const sb = await startTestSandbox({ flavor: 'deployed', seed: 9500, rateLimit: 100, now });
    const dir = mkdtempSync(join(tmpdir(), 'formctl-pacing-'));
    const shared = (bucket: 'general' | 'export') => new SharedBudget(join(dir, 'ratelimit'), sb.url, sb.tokens.all, { now, bucket });
    const client = new ApiClient({
      baseUrl: sb.url,
      token: sb.tokens.all,
      userAgent: 'formctl-test',
      timeoutMs: 30_000,
      maxWaitMs: 60_000,
      now,
      sleep,
      budgets: { general: shared('general'), export: shared('export') },
    });
    try {
      const io = fakeIO();
      await submissionExportRun({
        io: io.io,
        api: async () => client,
        now,
        sleep,
        form: String(sb.formId),
        wait: true,
        pollInterval: 1000,
        waitTimeout: 60_000,
        output: join(dir, 'out.csv'),
        baseUrl: async () => sb.url,
        ...extra,
      } as SubmissionExportOptions);
      const ids = readFileSync(join(dir, 'out.csv'), 'utf8').trim().split('\n').slice(1);
      expect(ids.length).toBe(9500);
    } finally {
      await client.close();
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
