import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { useStubService } from '../../helpers/stub-service.js';

const FORM = {
  id: 42,
  slug: 'contact-1a2b3c',
  title: 'Contact',
  visibility: 'public',
  properties: [
    { id: 'n', type: 'text', name: 'Name', required: true },
    { id: 'ok', type: 'checkbox', name: 'Agree', required: false },
    { id: 'h', type: 'nf-text', name: 'Heading' },
  ],
};

const serve = useStubService();

describe('webhook trigger', () => {
  it('reads the form with the token, then answers its public route without it', async () => {
    const s = await serve([
      ['GET /open/forms/42', [200, FORM]],
      [
        'POST /forms/contact-1a2b3c/answer',
        [200, { type: 'success', message: 'Form submission saved.', submission_id: 'uuid-1', is_first_submission: true, redirect: false }],
      ],
    ]);
    const r = await runCli(['webhook', 'trigger', '42', '--data', 'Name=Ada', '--data', 'agree=TRUE'], { url: s.url });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('uuid-1\n');
    expect(r.err).toBe('');
    expect(s.requests[0]!.headers.authorization).toBe('Bearer test-token');
    expect(s.requests[1]!.headers.authorization).toBeUndefined();
    expect(JSON.parse(s.requests[1]!.body)).toEqual({ n: 'Ada', ok: true });
  });

  it('a form that does not take answers (403) is explained as such, not as a token ability', async () => {
    const s = await serve([
      ['GET /open/forms/42', [200, FORM]],
      ['POST /forms/contact-1a2b3c/answer', [403, { message: 'This form is closed and does not accept submissions.' }]],
    ]);
    const r = await runCli(['webhook', 'trigger', '42', '--data', 'Name=Ada'], { url: s.url });
    expect(r.code).toBe(5);
    expect(r.err.split('\n')[1]).toBe('hint: The form does not accept answers now (a draft, closed, or at its submission limit): see `formctl form get 42`.');
  });

  it('field names and the submission id from the service are shown escaped in the ✓ line and the note', async () => {
    const odd = { ...FORM, properties: [{ id: 'n', type: 'text', name: 'Na\tme\nerror: forged', required: true }] };
    const s = await serve([
      ['GET /open/forms/42', [200, odd]],
      ['POST /forms/contact-1a2b3c/answer', [200, { message: 'Form submission saved.', submission_id: 'uuid\n1' }]],
    ]);
    const r = await runCli(['webhook', 'trigger', '42'], { url: s.url, tty: true });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('✓ Answered form "Contact" (id 42): submission uuid\\x0a1.\n');
    expect(r.err.split('\n')[0]).toBe('note: sample values for the required field not given: Na\\x09me\\x0aerror: forged.');
  });

  it('a digits-only form past 2^53 is refused before any request', async () => {
    const s = await serve([]);
    const r = await runCli(['webhook', 'trigger', '9007199254740993'], { url: s.url });
    expect(r.code).toBe(2);
    expect(s.requests).toEqual([]);
  });
});
