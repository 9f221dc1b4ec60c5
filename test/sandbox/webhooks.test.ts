import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, boot, call, createForm, tempDir } from './helpers.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

/** An independent receiver: records raw bytes; /ok → 200, /fail → 500, /redirect → 302, /slow → never answers. */
async function receiver() {
  const received: Received[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, path: req.url!, headers: req.headers, raw: Buffer.concat(chunks) });
      const path = new URL(req.url!, 'http://x').pathname;
      if (path === '/ok') res.end('thanks');
      else if (path === '/fail') {
        res.statusCode = 500;
        res.end('boom');
      } else if (path === '/redirect') {
        res.writeHead(302, { Location: `http://127.0.0.1:${port}/ok` });
        res.end();
      } else hanging.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  servers.push(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${port}`, received };
}

const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

async function hook(sb: SandboxHandle, formId: number, body: Record<string, unknown>): Promise<number> {
  const res = await call(sb, 'POST', `/open/forms/${formId}/integrations`, { integration_id: 'webhook', status: 'active', ...body });
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return res.json.form_integration.id;
}

async function events(sb: SandboxHandle, formId: number, id: number) {
  const res = await call(sb, 'GET', `/open/forms/${formId}/integrations/${id}/events`);
  expect(res.status).toBe(200);
  return res.json;
}

describe('sandbox webhook delivery', () => {
  it('POSTs the payload signed over the exact bytes, with custom headers, and records success', async () => {
    const now = Date.UTC(2025, 3, 4, 5, 6, 7);
    const sb = await boot({ allowPrivateWebhooks: true, now: () => now });
    const rx = await receiver();
    const form = await createForm(sb, { title: 'Signup' });
    const secret = 'whsec-0123456789';
    const id = await hook(sb, form.id, { data: { webhook_url: `${rx.url}/ok`, webhook_secret: secret, webhook_headers: { 'X-Team': 'forms' } } });
    await answer(sb, form.slug, { name: 'Zoë "Z" Ångström', email: 'zoe@example.com' });
    await sb.admin.deliveries();

    expect(rx.received).toHaveLength(1);
    const [got] = rx.received;
    expect(got!.method).toBe('POST');
    expect(got!.path).toBe('/ok');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['x-team']).toBe('forms');
    expect(got!.headers['content-length']).toBe(String(got!.raw.length));
    // Verify as a receiver would: HMAC over the raw bytes, constant-time compare.
    const header = String(got!.headers['x-webhook-signature']);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    const expected = createHmac('sha256', secret).update(got!.raw).digest();
    expect(timingSafeEqual(Buffer.from(header.slice(7), 'hex'), expected)).toBe(true);
    const body = JSON.parse(got!.raw.toString('utf8'));
    expect(Object.keys(body)).toEqual(['form_id', 'form_title', 'form_slug', 'submission', 'data', 'message', 'submission_id']);
    expect(body).toEqual({
      form_id: form.id,
      form_title: 'Signup',
      form_slug: form.slug,
      submission: { Name: 'Zoë "Z" Ångström', Email: 'zoe@example.com' },
      data: {
        name: { value: 'Zoë "Z" Ångström', name: 'Name', type: 'text' },
        email: { value: 'zoe@example.com', name: 'Email', type: 'email' },
      },
      message: 'Please do not use the `submission` field. It is deprecated and will be removed in the future.',
      submission_id: 1,
    });
    expect(await events(sb, form.id, id)).toEqual([
      {
        id: 1,
        integration_id: id,
        event: 'submission.created',
        status: 'success',
        response_code: 200,
        error_message: null,
        created_at: '2025-04-04T05:06:07.000Z',
      },
    ]);
  });

  it('records a 500 and a redirect as failed (redirect not followed), newest first', async () => {
    const sb = await boot({ allowPrivateWebhooks: true });
    const rx = await receiver();
    const form = await createForm(sb);
    const id = await hook(sb, form.id, { data: { webhook_url: `${rx.url}/fail` } });
    await answer(sb, form.slug, { name: 'a' });
    await sb.admin.deliveries();
    await call(sb, 'PUT', `/open/forms/${form.id}/integrations/${id}`, { integration_id: 'webhook', data: { webhook_url: `${rx.url}/redirect` } });
    await answer(sb, form.slug, { name: 'b' });
    await sb.admin.deliveries();
    expect(rx.received.map((r) => r.path)).toEqual(['/fail', '/redirect']);
    expect(rx.received[0]!.headers['x-webhook-signature']).toBeUndefined();
    const list = await events(sb, form.id, id);
    expect(
      list.map((e: { id: number; status: string; response_code: number; error_message: string }) => [e.id, e.status, e.response_code, e.error_message]),
    ).toEqual([
      [2, 'failed', 302, `The endpoint answered 302 (redirect to ${rx.url}/ok); redirects are not followed.`],
      [1, 'failed', 500, 'The endpoint answered HTTP 500.'],
    ]);
  });

  it('records a timeout without delaying the answer response', async () => {
    const sb = await boot({ allowPrivateWebhooks: true, webhookTimeoutMs: 800 });
    const rx = await receiver();
    const form = await createForm(sb);
    const id = await hook(sb, form.id, { data: { webhook_url: `${rx.url}/slow` } });
    // The delivery's timeout is a setTimeout this test moves: how long the machine takes to answer
    // and to list the events cannot end the delivery before the test says so.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const res = await answer(sb, form.slug, { name: 'a' });
      expect(res.status).toBe(200);
      // The answer came back while the delivery is still waiting: no event is recorded yet.
      while (rx.received.length === 0) await new Promise((r) => setImmediate(r));
      expect(await events(sb, form.id, id)).toEqual([]);
      await vi.advanceTimersByTimeAsync(799);
      expect(await events(sb, form.id, id)).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await sb.admin.deliveries();
    } finally {
      vi.useRealTimers();
    }
    const [event] = await events(sb, form.id, id);
    expect(event).toMatchObject({ status: 'timeout', response_code: null, error_message: 'No complete response within 800 ms.' });
  });

  it('skips inactive integrations and those whose logic does not match', async () => {
    const sb = await boot({ allowPrivateWebhooks: true });
    const rx = await receiver();
    const form = await createForm(sb);
    const inactive = await hook(sb, form.id, { status: 'inactive', data: { webhook_url: `${rx.url}/ok?inactive` } });
    const logic = await hook(sb, form.id, {
      data: { webhook_url: `${rx.url}/ok?logic` },
      logic: {
        operatorIdentifier: 'or',
        children: [
          { identifier: 'email', value: { operator: 'ends_with', value: '@vip.example' } },
          {
            operatorIdentifier: 'and',
            children: [
              { identifier: 'name', value: { operator: 'equals', value: 'Boss' } },
              { identifier: 'email', value: { operator: 'is_not_empty' } },
            ],
          },
        ],
      },
    });
    await answer(sb, form.slug, { name: 'Nobody', email: 'n@example.com' });
    await answer(sb, form.slug, { name: 'Boss' });
    await answer(sb, form.slug, { name: 'V', email: 'v@vip.example' });
    await answer(sb, form.slug, { name: 'Boss', email: 'b@example.com' });
    await sb.admin.deliveries();
    expect(rx.received.map((r) => JSON.parse(r.raw.toString()).submission_id)).toEqual([3, 4]);
    expect(rx.received.every((r) => r.path === '/ok?logic')).toBe(true);
    expect(await events(sb, form.id, inactive)).toEqual([]);
    expect((await events(sb, form.id, logic)).map((e: { status: string }) => e.status)).toEqual(['success', 'success']);
    // A patched submission is not a new submission: no delivery.
    await call(sb, 'PUT', `/open/forms/${form.id}/submissions/4`, { data: { name: 'Boss' } });
    await sb.admin.deliveries();
    expect(rx.received).toHaveLength(2);
  });

  it('signs later deliveries with a rotated secret', async () => {
    const sb = await boot({ allowPrivateWebhooks: true });
    const rx = await receiver();
    const form = await createForm(sb);
    const id = await hook(sb, form.id, { data: { webhook_url: `${rx.url}/ok`, webhook_secret: 'old-secret-123' } });
    await answer(sb, form.slug, { name: 'a' });
    await sb.admin.deliveries();
    await call(sb, 'PUT', `/open/forms/${form.id}/integrations/${id}`, { integration_id: 'webhook', data: { webhook_secret: 'new-secret-456' } });
    await answer(sb, form.slug, { name: 'b' });
    await sb.admin.deliveries();
    const sig = (r: Received, secret: string) => `sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`;
    expect(rx.received[0]!.headers['x-webhook-signature']).toBe(sig(rx.received[0]!, 'old-secret-123'));
    expect(rx.received[1]!.headers['x-webhook-signature']).toBe(sig(rx.received[1]!, 'new-secret-456'));
    expect(rx.received[1]!.headers['x-webhook-signature']).not.toBe(sig(rx.received[1]!, 'old-secret-123'));
  });

  it('re-checks the URL before each delivery and records a refused one as failed', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'state.json');
    const rx = await receiver();
    const first = await boot({ dataFile, allowPrivateWebhooks: true });
    const form = await createForm(first);
    const id = await hook(first, form.id, { data: { webhook_url: `${rx.url}/ok` } });
    await first.close();
    // The same stored integration, but the operator no longer allows private targets.
    const second = await boot({ dataFile });
    await answer(second, form.slug, { name: 'a' });
    await second.admin.deliveries();
    expect(rx.received).toEqual([]);
    const [event] = await events(second, form.id, id);
    expect(event).toMatchObject({ status: 'failed', response_code: null, error_message: 'Not delivered: The webhook URL must use HTTPS.' });
  });

  it('records a delivery Node refuses to send (a stored header value it cannot encode) as failed, without crashing', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'state.json');
    const rx = await receiver();
    const first = await boot({ dataFile, allowPrivateWebhooks: true });
    const form = await createForm(first);
    const id = await hook(first, form.id, { data: { webhook_url: `${rx.url}/ok`, webhook_headers: { 'X-Team': 'forms' } } });
    await first.close();
    // A data file from elsewhere (or an older sandbox) may hold values the API would now refuse.
    const state = JSON.parse(await readFile(dataFile, 'utf8'));
    for (const i of state.integrations) if (i.id === id) i.data.webhook_headers = { 'X-Team': 'caf\u00e9 \u20ac \u0001' };
    await writeFile(dataFile, JSON.stringify(state));
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const second = await boot({ dataFile, allowPrivateWebhooks: true });
      expect((await answer(second, form.slug, { name: 'a' })).status).toBe(200);
      await second.admin.deliveries();
      await new Promise((resolve) => setImmediate(resolve));
      expect(rejections).toEqual([]);
      expect(rx.received).toEqual([]);
      const [event] = await events(second, form.id, id);
      expect(event).toMatchObject({ status: 'failed', response_code: null });
      expect(event.error_message).toMatch(/X-Team/);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
