import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { useStubService } from '../../helpers/stub-service.js';

// The deployed service lists every integration kind of a form and deletes, updates or reads the events
// of any of them by id: every webhook verb that names an id checks its kind first.
const LIST = '/open/forms/42/integrations';
const SECRET = 'current-secret-value-1234';
const INTEGRATIONS = [
  {
    id: 7,
    form_id: 42,
    integration_id: 'webhook',
    status: 'active',
    data: { webhook_url: 'https://hooks.example.com/in', webhook_secret: SECRET, webhook_headers: {} },
    logic: null,
  },
  { id: 8, form_id: 42, integration_id: 'slack', status: 'active', data: { slack_webhook_url: 'https://hooks.slack.com/services/x' }, logic: null },
  { id: 9, form_id: 42, integration_id: 'email', status: 'active', data: { send_to: 'ops@example.com' }, logic: null },
];
const FORM = { id: 42, slug: 'contact', title: 'Contact', visibility: 'public', properties: [{ id: 'n', type: 'text', name: 'Name' }] };

const serve = useStubService();

describe('webhook verbs refuse an integration of another kind (exit 6, nothing sent)', () => {
  for (const [verb, extra] of [
    ['delete', ['--yes']],
    ['events', []],
    ['update', ['--deactivate']],
    ['rotate-secret', []],
    ['get', []],
  ] as const) {
    it(`webhook ${verb} 42 8: a Slack integration`, async () => {
      const s = await serve([
        [`GET ${LIST}`, [200, INTEGRATIONS]],
        ['GET /open/forms/42', [200, FORM]],
      ]);
      const r = await runCli(['webhook', verb, '42', '8', ...extra], { url: s.url });
      expect(r.code).toBe(6);
      expect(r.err.split('\n')[0]).toBe('error: Integration 8 of form "Contact" (id 42) is a slack integration, not a webhook; formctl only manages webhooks.');
      expect(s.requests.map((q) => q.method)).toEqual(['GET', 'GET']);
      expect(r.out).not.toContain(SECRET);
    });
  }

  it('an e-mail integration reads "an email integration"', async () => {
    const s = await serve([
      [`GET ${LIST}`, [200, INTEGRATIONS]],
      ['GET /open/forms/42', [200, FORM]],
    ]);
    const r = await runCli(['webhook', 'delete', '42', '9', '--yes'], { url: s.url });
    expect(r.code).toBe(6);
    expect(r.err).toContain('Integration 9 of form "Contact" (id 42) is an email integration');
  });

  it('a missing webhook names the form and points at `webhook list`, not at the form id', async () => {
    const s = await serve([
      [`GET ${LIST}`, [200, INTEGRATIONS]],
      ['GET /open/forms/42', [200, FORM]],
    ]);
    const r = await runCli(['webhook', 'rotate-secret', '42', '99'], { url: s.url });
    expect(r.code).toBe(6);
    expect(r.err).toBe('error: Form "Contact" (id 42) has no webhook 99.\nhint: See its webhooks with `formctl webhook list 42`.\n');
  });

  it('a webhook of the form is deleted after the check', async () => {
    const s = await serve([
      [`GET ${LIST}`, [200, INTEGRATIONS]],
      [`DELETE ${LIST}/7`, [200, { type: 'success', message: 'Form Integration was deleted.' }]],
    ]);
    const r = await runCli(['webhook', 'delete', '42', '7', '--yes'], { url: s.url });
    expect(r.code).toBe(0);
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([`GET ${LIST}`, `DELETE ${LIST}/7`]);
  });
});

describe('webhook delete shows the URL masked, as list and get do', () => {
  it('a token in the query is masked in the done line at a terminal', async () => {
    const withToken = [{ ...INTEGRATIONS[0]!, data: { ...INTEGRATIONS[0]!.data, webhook_url: 'https://hooks.example.com/in?token=supersecretvalue789' } }];
    const s = await serve([
      [`GET ${LIST}`, [200, withToken]],
      [`DELETE ${LIST}/7`, [200, { type: 'success', message: 'Form Integration was deleted.' }]],
    ]);
    const r = await runCli(['webhook', 'delete', '42', '7', '--yes'], { url: s.url, tty: true });
    expect(r.code).toBe(0);
    expect(r.out + r.err).not.toContain('supersecretvalue789');
    expect(r.out + r.err).toContain('token=••••e789');
  });
});

describe('ids are positive safe integers, refused before any request (exit 2)', () => {
  for (const args of [
    ['workspace', 'delete', '9007199254740993', '--yes'],
    ['workspace', 'delete', '1e23', '--yes'],
    ['workspace', 'leave', '0', '--yes'],
    ['webhook', 'delete', '42', '9007199254740993', '--yes'],
    ['webhook', 'events', '9007199254740993', '7'], // a <form>: the form-reference wording below
    ['member', 'remove', '9007199254740993', '-w', '7', '--yes'],
    ['member', 'list', '-w', '1e3'],
    ['invite', 'cancel', '0x10', '-w', '7', '--yes'],
    ['form', 'backups', '99999999999999999999'],
  ]) {
    it(args.join(' '), async () => {
      const s = await serve([]);
      const r = await runCli(args, { url: s.url });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        args.includes('events') || args.includes('backups')
          ? /^error: <form> "\d+" is not a form id or slug: form ids are whole numbers from 1 to 9007199254740991\.\n/
          : /must be a whole number from 1 to 9007199254740991, got "/,
      );
      expect(s.requests).toEqual([]);
    });
  }

  it('FORMCTL_WORKSPACE past 2^53 is refused too', async () => {
    const s = await serve([]);
    const r = await runCli(['member', 'list'], { url: s.url, env: { FORMCTL_WORKSPACE: '9007199254740993' } });
    expect(r.code).toBe(2);
    expect(r.err).toContain('FORMCTL_WORKSPACE must be a whole number');
    expect(s.requests).toEqual([]);
  });
});
