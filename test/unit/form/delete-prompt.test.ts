import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { type Reply, useStubService } from '../../helpers/stub-service.js';

// The confirmation names what goes with the form; off a terminal it is the refusal's first words.
const FORM = { id: 42, slug: 'contact-abc123', title: 'Contact', visibility: 'public', properties: [] };

const serve = useStubService();
async function refusal(count: number | undefined): Promise<string> {
  const form = count === undefined ? FORM : { ...FORM, submissions_count: count };
  const stub = await serve([['GET /open/forms/42', [200, form] as Reply]]);
  const r = await runCli(['form', 'delete', '42'], { url: stub.url });
  expect(r.code).toBe(2);
  expect(stub.requests.map((q) => q.method)).toEqual(['GET']);
  return r.err.split('\n')[0]!;
}

describe('form delete: the prompt counts submissions in words', () => {
  it('says a form without submissions has none, not "its 0 submissions"', async () => {
    expect(await refusal(0)).toBe('error: Delete form "Contact" (id 42), which has no submissions: refusing without confirmation.');
  });
  it('says "its one submission" for one', async () => {
    expect(await refusal(1)).toBe('error: Delete form "Contact" (id 42) and its one submission: refusing without confirmation.');
  });
  it('counts several, with thousands separated, and says nothing when the count is unknown', async () => {
    expect(await refusal(1234)).toBe('error: Delete form "Contact" (id 42) and its 1,234 submissions: refusing without confirmation.');
    expect(await refusal(undefined)).toBe('error: Delete form "Contact" (id 42): refusing without confirmation.');
  });
});
