// `submission list --json FIELDS` takes every top-level field that bare `--json` prints, on either
// service: the deployed one adds `completion_time` and `form_id` (OpnForm
// api/app/Http/Resources/FormSubmissionResource.php:33-47), the spec's list has neither (null then).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { submissionListRun } from '../../../src/commands/submission/list.js';
import { SUBMISSION_FIELDS } from '../../../src/commands/submission/shared.js';
import { parseJsonFields } from '../../../src/io/output.js';
import { fakeIO } from '../../helpers/io.js';
import { type TestSandbox, startTestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
let client: ApiClient;
beforeAll(async () => {
  sb = await startTestSandbox({ flavor: 'deployed', seed: 2 });
  client = new ApiClient({ baseUrl: sb.url, token: sb.tokens.all, userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
});
afterAll(async () => {
  await client.close();
  await sb.close();
});

describe('submission list --json fields', () => {
  it('every top-level field bare --json prints (the deployed service) can be asked for, and gives the same value', async () => {
    const all = fakeIO();
    await submissionListRun({ io: all.io, api: async () => client, now: () => new Date(), form: String(sb.formId), json: true });
    const printed: Array<Record<string, unknown>> = JSON.parse(all.out());
    const keys = [...new Set(printed.flatMap((s) => Object.keys(s)))].sort();
    expect(keys).toEqual(['completion_time', 'data', 'form_id', 'id', 'submission_id', 'submitted_at']);
    expect(parseJsonFields(keys.join(','), SUBMISSION_FIELDS)).toEqual(keys);

    const picked = fakeIO();
    await submissionListRun({
      io: picked.io,
      api: async () => client,
      now: () => new Date(),
      form: String(sb.formId),
      json: ['id', 'completion_time', 'form_id'],
    });
    expect(JSON.parse(picked.out())).toEqual(printed.map((s) => ({ id: s.id, completion_time: s.completion_time, form_id: s.form_id })));
  });
});
