import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { webhookCreateRun } from '../../../src/commands/webhook/create.js';
import { fakeIO } from '../../helpers/io.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';
import { maskedUrlNote, webhookView } from '../../../src/commands/webhook/view.js';
import { fullBody } from '../../../src/commands/webhook/body.js';
import { maskWebhookUrl, urlHasSecrets } from '../../../src/webhooks/secret.js';
import { redactQuerySecrets } from '../../../src/api/redact.js';
import type { WebhookIntegration } from '../../../src/api/webhooks.js';

describe('maskWebhookUrl: the secret parts of a webhook URL, masked as the signing secret is', () => {
  it('masks the value of every secret-looking query parameter, whatever its case, and keeps the others', () => {
    expect(maskWebhookUrl('https://hooks.example.com/in?token=abc123def456&page=2')).toBe('https://hooks.example.com/in?token=••••f456&page=2');
    expect(maskWebhookUrl('https://h.example/in?key=k1&sig=0123456789abcdef&v=1')).toBe('https://h.example/in?key=••••&sig=••••cdef&v=1');
    for (const name of [
      'Token',
      'API_KEY',
      'apikey',
      'access_token',
      'Secret',
      'signature',
      'password',
      'auth',
      'Authorization',
      'code',
      'x-functions-key',
      'subscription-key',
    ]) {
      expect(maskWebhookUrl(`https://h.example/in?${name}=s3cr3t-v4lue-9f2c&id=7`), name).toBe(`https://h.example/in?${name}=••••9f2c&id=7`);
    }
    expect(maskWebhookUrl('https://h.example/in?id=7&format=json&keyboard=1')).toBe('https://h.example/in?id=7&format=json&keyboard=1');
    // A fragment parameter travels nowhere, but it is printed all the same.
    expect(maskWebhookUrl('https://h.example/in#access_token=abcdefghijkl')).toBe('https://h.example/in#access_token=••••ijkl');
  });

  it('masks the password before the host, keeping the user name', () => {
    expect(maskWebhookUrl('https://bot:hunter2hunter2@h.example/in')).toBe('https://bot:••••ter2@h.example/in');
    expect(maskWebhookUrl('https://bot:pw@h.example/in')).toBe('https://bot:••••@h.example/in');
  });

  it('masks the secret path segments of the known incoming-webhook services, keeping the ids that tell hooks apart', () => {
    const cases: Array<[string, string]> = [
      ['https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX', 'https://hooks.slack.com/services/T00000000/B00000000/••••XXXX'],
      ['https://hooks.slack.com/workflows/T01/A02/123456/aBcDeFgHiJkLmNoP', 'https://hooks.slack.com/workflows/T01/A02/123456/••••mNoP'],
      ['https://hooks.slack.com/triggers/T01/555/0123456789abcdef', 'https://hooks.slack.com/triggers/T01/555/••••cdef'],
      ['https://discord.com/api/webhooks/1234567890/AbCdEfGhIjKlMnOpQrSt', 'https://discord.com/api/webhooks/1234567890/••••QrSt'],
      ['https://discordapp.com/api/v10/webhooks/42/tok-tok-tok-tok/slack', 'https://discordapp.com/api/v10/webhooks/42/••••-tok/slack'],
      [
        'https://contoso.webhook.office.com/webhookb2/11111111-2222@33333333-4444/IncomingWebhook/aaaabbbbccccdddd/55555555-6666',
        'https://contoso.webhook.office.com/webhookb2/••••4444/IncomingWebhook/••••dddd/••••6666',
      ],
      [
        'https://outlook.office.com/webhook/abc-def-ghi-jkl/IncomingWebhook/0011223344/xyz',
        'https://outlook.office.com/webhook/••••-jkl/IncomingWebhook/••••3344/••••',
      ],
      ['https://hooks.zapier.com/hooks/catch/123456/abcdefg/', 'https://hooks.zapier.com/hooks/catch/123456/••••/'],
      ['https://hook.eu1.make.com/abcdefghijklmnopqrstuvwx', 'https://hook.eu1.make.com/••••uvwx'],
      ['https://maker.ifttt.com/trigger/new_answer/with/key/dQw4w9WgXcQ-key', 'https://maker.ifttt.com/trigger/new_answer/with/key/••••-key'],
      ['https://h.example/hooks/token/0123456789abcdef/in', 'https://h.example/hooks/token/••••cdef/in'],
    ];
    for (const [url, masked] of cases) expect(maskWebhookUrl(url), url).toBe(masked);
  });

  it('leaves a URL with nothing secret as stored, and lookalike hosts and paths alone', () => {
    for (const url of [
      'https://hooks.example.com/formctl',
      'http://127.0.0.1:8787/hook',
      'https://hooks.slack.com.evil.example/services/T0/B0/XXXXXXXXXX',
      'https://discord.com/channels/1/2',
      'https://hooks.slack.com/services',
      'not a url',
    ]) {
      expect(maskWebhookUrl(url)).toBe(url);
      expect(urlHasSecrets(url)).toBe(false);
    }
    expect(maskWebhookUrl(undefined)).toBeUndefined();
    expect(urlHasSecrets('https://h.example/in?token=abc')).toBe(true);
  });

  it('masks every URL in a message that quotes one (a delivery failure)', () => {
    expect(
      maskWebhookUrl('cURL error 7: Failed to connect (see https://curl.haxx.se/libcurl/c/libcurl-errors.html) for https://h.example/in?token=abcdef123456'),
    ).toBe('cURL error 7: Failed to connect (see https://curl.haxx.se/libcurl/c/libcurl-errors.html) for https://h.example/in?token=••••3456');
  });
});

describe('webhookView and the update body', () => {
  const hook: WebhookIntegration = {
    id: 7,
    form_id: 1,
    status: 'active',
    integration_id: 'webhook',
    data: { webhook_url: 'https://hooks.slack.com/services/T01/B02/SeCrEtSeCrEtSeCrEt1234', webhook_secret: 'abcdefghijklmnop', webhook_headers: {} },
  };

  it('masks the URL in the view unless --show-secret, and notes it', () => {
    expect(webhookView(hook).data?.webhook_url).toBe('https://hooks.slack.com/services/T01/B02/••••1234');
    expect(webhookView(hook, true).data?.webhook_url).toBe(hook.data!.webhook_url);
    expect(maskedUrlNote([hook])).toBe(
      'the URL of webhook 7 is shown with its secret parts masked (••••): a token or key in the query, a password, a secret path. Pass --show-secret to print it in full.',
    );
    expect(maskedUrlNote([hook, { ...hook, id: 8 }])).toMatch(/^the URLs of webhooks 7, 8 are shown with their secret parts masked/);
    expect(maskedUrlNote([hook], true)).toBeUndefined();
    expect(maskedUrlNote([{ ...hook, data: { webhook_url: 'https://h.example/in' } }])).toBeUndefined();
  });

  it('builds the update body from the integration as read, so the stored URL goes back whole', () => {
    expect(fullBody(hook, { status: 'inactive' }).data.webhook_url).toBe(hook.data!.webhook_url);
    // Should a masked view ever reach it, the mask would be sent: the commands pass the raw integration.
    expect(fullBody(webhookView(hook), {}).data.webhook_url).not.toBe(hook.data!.webhook_url);
  });
});

describe('maskWebhookUrl: a stored URL is masked whole, whatever its value holds', () => {
  it('masks a value with characters that end a value in prose, as a URL on its own cannot be in a sentence', () => {
    expect(maskWebhookUrl('https://h.example/in?token=abc,def,123456&x=1')).toBe('https://h.example/in?token=••••3456&x=1');
    expect(maskWebhookUrl('https://h.example/in?sig=ab(cd)ef;gh9876')).toBe('https://h.example/in?sig=••••9876');
    expect(maskWebhookUrl("https://h.example/in?key=it's-a-key-4321")).toBe('https://h.example/in?key=••••4321');
    // In a message the same characters still end the value.
    expect(maskWebhookUrl('failed for https://h.example/in?token=abcdef123456, retrying')).toBe('failed for https://h.example/in?token=••••3456, retrying');
  });

  it("masks a secret in the query of a URL inside another parameter's value", () => {
    expect(maskWebhookUrl('https://h.example/in?next=https://x.example/cb?token=abcdef123456&page=2')).toBe(
      'https://h.example/in?next=https://x.example/cb?token=••••3456&page=2',
    );
    expect(redactQuerySecrets('GET /in?next=/cb?a=1?api_key=abcdef123456 failed')).toBe('GET /in?next=/cb?a=1?api_key=[REDACTED] failed');
  });

  it('masks a secret path on an IPv6 host and on a provider host written with its final dot', () => {
    expect(maskWebhookUrl('https://[2001:db8::1]:8443/hooks/token/0123456789abcdef')).toBe('https://[2001:db8::1]:8443/hooks/token/••••cdef');
    expect(maskWebhookUrl('https://hooks.slack.com./services/T01/B02/SeCrEtSeCrEt1234')).toBe('https://hooks.slack.com./services/T01/B02/••••1234');
  });

  it('still keeps what is not secret', () => {
    for (const url of ['https://h.example/in?next=https://x.example/cb?page=2', 'https://[2001:db8::1]/hooks/in?a=(1),2', 'https://h.example./in?keyboard=1']) {
      expect(maskWebhookUrl(url)).toBe(url);
    }
  });
});

describe('maskWebhookUrl in prose', () => {
  it('ends a query value where the sentence resumes', () => {
    expect(maskWebhookUrl('(redirect to https://e.example/in?token=abcdef123456); not followed.')).toBe(
      '(redirect to https://e.example/in?token=••••3456); not followed.',
    );
    expect(maskWebhookUrl('see https://e.example/in?key=abcdef123456.')).toBe('see https://e.example/in?key=••••3456.');
    expect(maskWebhookUrl('https://e.example/in?jwt_token=aaa.bbb.cccc1234&x=1')).toBe('https://e.example/in?jwt_token=••••1234&x=1');
  });
});

describe('webhook create on a terminal', () => {
  let server: StubServer | undefined;
  let client: ApiClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  it('sends the URL as given and names it masked in its ✓ line, with the note; --show-secret names it whole', async () => {
    const url = 'https://hooks.slack.com/services/T01/B02/SeCrEtSeCrEtSeCrEt1234';
    server = await startStubServer((req, res) =>
      json(res, 200, { form_integration: { id: 9, form_id: 42, status: 'active', data: JSON.parse(req.body).data } }),
    );
    const api = async () => (client ??= new ApiClient({ baseUrl: server!.url, token: 't0ken', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 }));
    const resolve = async () => ['93.184.216.34'];
    const io = fakeIO({ tty: true });
    await webhookCreateRun({ io: io.io, api, resolve, form: '42', url, header: [] });
    expect(JSON.parse(server.requests[0]!.body).data.webhook_url).toBe(url);
    expect(io.out()).toBe('✓ Created webhook 9 on form 42 (active) → https://hooks.slack.com/services/T01/B02/••••1234\n');
    expect(io.err()).toContain('note: the URL of webhook 9 is shown with its secret parts masked (••••)');
    const shown = fakeIO({ tty: true });
    await webhookCreateRun({ io: shown.io, api, resolve, form: '42', url, header: [], showSecret: true });
    expect(shown.out()).toBe(`✓ Created webhook 9 on form 42 (active) → ${url}\n`);
    expect(shown.err()).not.toContain('masked');
  });
});
