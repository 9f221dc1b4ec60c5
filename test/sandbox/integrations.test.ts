import { describe, expect, it } from 'vitest';
import { boot, call, createForm } from './helpers.js';

// An IP literal needs no DNS, so these tests never touch the network.
const PUBLIC_URL = 'https://93.184.216.34/hook';

describe('sandbox webhook integrations', () => {
  it('creates, lists, updates and deletes a webhook integration', async () => {
    const now = Date.UTC(2025, 1, 2, 3, 4, 5);
    const sb = await boot({ now: () => now });
    const form = await createForm(sb);
    const base = `/open/forms/${form.id}/integrations`;
    const created = await call(sb, 'POST', base, {
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: PUBLIC_URL, webhook_secret: 'a-very-long-secret', webhook_headers: { 'X-Team': 'forms' } },
    });
    expect(created.status).toBe(200);
    const integration = {
      id: 1,
      form_id: form.id,
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: PUBLIC_URL, webhook_secret: 'a-very-long-secret', webhook_headers: { 'X-Team': 'forms' } },
      logic: null,
      created_at: '2025-02-02T03:04:05.000Z',
      updated_at: '2025-02-02T03:04:05.000Z',
    };
    expect(created.json).toEqual({ message: 'Form Integration was created.', form_integration: integration });
    expect((await call(sb, 'GET', base)).json).toEqual([integration]);

    // Spec: omitted status and inner fields are kept.
    const statusOnly = await call(sb, 'PUT', `${base}/1`, { integration_id: 'webhook', status: 'inactive', data: {} });
    expect(statusOnly.status).toBe(200);
    expect(statusOnly.json).toEqual({ message: 'Form Integration was updated.', form_integration: { ...integration, status: 'inactive' } });
    // Supplied headers replace all of them; null clears the secret.
    const headers = await call(sb, 'PUT', `${base}/1`, { integration_id: 'webhook', data: { webhook_headers: { 'X-Other': '1' }, webhook_secret: null } });
    expect(headers.json.form_integration).toMatchObject({
      status: 'inactive',
      data: { webhook_url: PUBLIC_URL, webhook_secret: null, webhook_headers: { 'X-Other': '1' } },
    });
    const noType = await call(sb, 'PUT', `${base}/1`, { data: {} });
    expect(noType.status).toBe(422);
    expect(noType.json.errors).toEqual({ integration_id: ['The integration id field is required.'] });

    // No single-integration GET exists in the spec, the deployed server or the OpenAPI document: the path answers 405.
    const getOne = await call(sb, 'GET', `${base}/1`);
    expect(getOne.status).toBe(405);
    expect(getOne.headers.get('allow')).toBe('PUT, DELETE');

    const del = await call(sb, 'DELETE', `${base}/1`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ message: 'Form Integration was deleted.' });
    for (const [method, path] of [
      ['DELETE', `${base}/1`],
      ['GET', `${base}/1/events`],
      ['PUT', `${base}/1`],
    ] as const) {
      const res = await call(sb, method, path, method === 'PUT' ? { integration_id: 'webhook', data: {} } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toEqual({ message: 'Integration not found.' });
    }
    expect((await call(sb, 'GET', base)).json).toEqual([]);
  });

  it('does not reach an integration through another form', async () => {
    const sb = await boot();
    const a = await createForm(sb);
    const b = await createForm(sb);
    await call(sb, 'POST', `/open/forms/${a.id}/integrations`, { integration_id: 'webhook', status: 'active', data: { webhook_url: PUBLIC_URL } });
    const res = await call(sb, 'GET', `/open/forms/${b.id}/integrations/1/events`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: 'Integration not found.' });
  });

  it('validates the body with dotted paths and the spec limits', async () => {
    const sb = await boot();
    const form = await createForm(sb);
    const base = `/open/forms/${form.id}/integrations`;
    const empty = await call(sb, 'POST', base, {});
    expect(empty.status).toBe(422);
    expect(empty.json.errors).toEqual({
      integration_id: ['The integration id field is required.'],
      status: ['The status field is required.'],
      data: ['The data field is required and must be an object.'],
    });
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, 'v']));
    const bad = await call(sb, 'POST', base, {
      integration_id: 'slack',
      status: 'on',
      data: {
        webhook_url: PUBLIC_URL,
        webhook_secret: 'short-11chr',
        webhook_headers: { ...eleven, 'x-forwarded-for': '1.2.3.4', 'Accept-Encoding': 'gzip', 'X-Long': 'v'.repeat(256) },
      },
      logic: { operatorIdentifier: 'and', children: [{ identifier: 'name', value: { operator: 'sounds_like', value: 'x' } }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      integration_id: ['The integration id must be "webhook".'],
      status: ['The selected status is invalid. Allowed: active, inactive.'],
      'data.webhook_secret': ['The webhook secret field must be at least 12 characters.'],
      'data.webhook_headers': [
        'Maximum 10 custom headers allowed.',
        "The 'x-forwarded-for' header cannot be customized for security reasons.",
        "The 'Accept-Encoding' header cannot be customized for security reasons.",
        "Header value for 'X-Long' exceeds 255 characters.",
      ],
      logic: [expect.stringMatching(/^The logic uses the unknown operator "sounds_like" \(known: equals, .*\)\.$/)],
    });
    for (const name of [
      'Authorization',
      'X-WEBHOOK-SIGNATURE',
      'content-type',
      'Content-Length',
      'host',
      'Cookie',
      'x-csrf-token',
      'X-Forwarded-Proto',
      'X-Real-IP',
      'X-Requested-With',
      'Transfer-Encoding',
    ]) {
      const res = await call(sb, 'POST', base, {
        integration_id: 'webhook',
        status: 'active',
        data: { webhook_url: PUBLIC_URL, webhook_headers: { [name]: 'x' } },
      });
      expect(res.status, name).toBe(422);
      expect(res.json.errors).toEqual({ 'data.webhook_headers': [`The '${name}' header cannot be customized for security reasons.`] });
    }
    // Control characters other than a tab can never be sent in a header value (RFC 9110 field-value).
    for (const value of ['a\x01b', 'esc \x1b[2J', 'del\x7f']) {
      const res = await call(sb, 'POST', base, {
        integration_id: 'webhook',
        status: 'active',
        data: { webhook_url: PUBLIC_URL, webhook_headers: { 'X-V': value } },
      });
      expect(res.status, JSON.stringify(value)).toBe(422);
      expect(res.json.errors).toEqual({ 'data.webhook_headers': ["Header value for 'X-V' contains a control character."] });
    }
    const tab = await call(sb, 'POST', base, {
      integration_id: 'webhook',
      status: 'inactive',
      data: { webhook_url: PUBLIC_URL, webhook_headers: { 'X-V': 'a\tb' } },
    });
    expect(tab.status).toBe(200);
    const twelve = await call(sb, 'POST', base, {
      integration_id: 'webhook',
      status: 'inactive',
      data: { webhook_url: PUBLIC_URL, webhook_secret: 'exactly-12ch' },
    });
    expect(twelve.status).toBe(200);
  });

  it('rejects webhook URLs that are not HTTPS or do not resolve only to public addresses', async () => {
    const sb = await boot();
    const form = await createForm(sb);
    const cases: [string, string][] = [
      ['http://93.184.216.34/hook', 'The webhook URL must use HTTPS.'],
      ['ftp://93.184.216.34/hook', 'The webhook URL must use HTTPS.'],
      ['not a url', 'The webhook URL must be a valid URL.'],
      ['https://user:pass@93.184.216.34/', 'The webhook URL cannot contain embedded credentials.'],
      ['https://127.0.0.1/hook', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://[::1]/hook', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://169.254.169.254/latest/meta-data', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://[fd00:ec2::254]/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://[::ffff:10.0.0.1]/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://10.1.2.3/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://192.168.0.10/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://100.64.0.1/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://0.0.0.0/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://[fe80::1]/', 'The webhook URL must resolve only to public IP addresses.'],
      // IPv4-compatible IPv6 spellings of loopback and the metadata address.
      ['https://[::127.0.0.1]/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://[::169.254.169.254]/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://2130706433/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://0x7f.1/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://017700000001/', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://public.example@127.0.0.1/', 'The webhook URL cannot contain embedded credentials.'],
      ['https://localhost/hook', 'The webhook URL must resolve only to public IP addresses.'],
      ['https://does-not-exist.invalid/hook', 'The webhook URL host could not be resolved.'],
    ];
    for (const [url, message] of cases) {
      const res = await call(sb, 'POST', `/open/forms/${form.id}/integrations`, { integration_id: 'webhook', status: 'active', data: { webhook_url: url } });
      expect(res.status, url).toBe(422);
      expect(res.json, url).toEqual({ message, errors: { 'data.webhook_url': [message] } });
    }
    const update = await call(sb, 'POST', `/open/forms/${form.id}/integrations`, {
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: PUBLIC_URL },
    });
    const moved = await call(sb, 'PUT', `/open/forms/${form.id}/integrations/${update.json.form_integration.id}`, {
      integration_id: 'webhook',
      data: { webhook_url: 'https://127.0.0.1/' },
    });
    expect(moved.status).toBe(422);
    expect(moved.json.errors).toEqual({ 'data.webhook_url': ['The webhook URL must resolve only to public IP addresses.'] });
  });

  it('admits private targets and plain http to them only with allowPrivateWebhooks', async () => {
    const sb = await boot({ allowPrivateWebhooks: true });
    const form = await createForm(sb);
    const create = (url: string) =>
      call(sb, 'POST', `/open/forms/${form.id}/integrations`, { integration_id: 'webhook', status: 'inactive', data: { webhook_url: url } });
    expect((await create('http://127.0.0.1:9/hook')).status).toBe(200);
    expect((await create('http://localhost:9/hook')).status).toBe(200);
    expect((await create('https://10.0.0.1/hook')).status).toBe(200);
    const publicHttp = await create('http://93.184.216.34/hook');
    expect(publicHttp.status).toBe(422);
    expect(publicHttp.json.errors).toEqual({ 'data.webhook_url': ['The webhook URL must use HTTPS.'] });
  });
});
