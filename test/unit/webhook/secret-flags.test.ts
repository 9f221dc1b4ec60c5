import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { type StubService, useStubService } from '../../helpers/stub-service.js';

const LIST = '/open/forms/42/integrations';
const OLD = 'old-secret-value-1234';
const HOOK = {
  id: 7,
  form_id: 42,
  integration_id: 'webhook',
  status: 'active',
  data: { webhook_url: 'https://hooks.example.com/in', webhook_secret: OLD, webhook_headers: { 'X-Env': 'prod' } },
  logic: null,
};
const dir = mkdtempSync(join(tmpdir(), 'formctl-secret-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serve = useStubService();
const sent = (s: StubService) => JSON.parse(s.requests.find((q) => q.method !== 'GET')!.body);

describe('webhook update: the signing secret', () => {
  it('--secret-file sets a known secret and keeps everything else', async () => {
    const file = join(dir, 'new.txt');
    writeFileSync(file, 'my-chosen-secret-5678\n');
    const s = await serve([
      [`GET ${LIST}`, [200, [HOOK]]],
      [`PUT ${LIST}/7`, [200, { form_integration: HOOK }]],
    ]);
    const r = await runCli(['webhook', 'update', '42', '7', '--secret-file', file], { url: s.url });
    expect(r.code, r.err).toBe(0);
    expect(sent(s)).toEqual({
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: 'https://hooks.example.com/in', webhook_secret: 'my-chosen-secret-5678', webhook_headers: { 'X-Env': 'prod' } },
    });
    expect(r.out + r.err).not.toContain('my-chosen-secret-5678');
  });

  it('--secret-file with a short secret is refused before any write', async () => {
    const file = join(dir, 'short.txt');
    writeFileSync(file, 'short');
    const s = await serve([[`GET ${LIST}`, [200, [HOOK]]]]);
    const r = await runCli(['webhook', 'update', '42', '7', '--secret-file', file], { url: s.url });
    expect(r.code).toBe(2);
    expect(s.requests.map((q) => q.method)).toEqual(['GET']);
  });

  it('--no-secret sends an explicit null (both services then stop signing) and warns', async () => {
    const s = await serve([
      [`GET ${LIST}`, [200, [HOOK]]],
      [`PUT ${LIST}/7`, [200, { form_integration: { ...HOOK, data: { ...HOOK.data, webhook_secret: null } } }]],
    ]);
    const r = await runCli(['webhook', 'update', '42', '7', '--no-secret'], { url: s.url });
    expect(r.code, r.err).toBe(0);
    expect(sent(s).data).toEqual({ webhook_url: 'https://hooks.example.com/in', webhook_secret: null, webhook_headers: { 'X-Env': 'prod' } });
    expect(r.err).toBe(
      'warning: deliveries of webhook 7 are not signed: receivers cannot tell them from forgeries. Sign them with `formctl webhook rotate-secret 42 7` (or `formctl webhook update 42 7 --secret-file <file>`).\n',
    );
  });

  it('--secret-file and --no-secret together are a usage error, before any request', async () => {
    const s = await serve([]);
    const r = await runCli(['webhook', 'update', '42', '7', '--secret-file', join(dir, 'new.txt'), '--no-secret'], { url: s.url });
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: Use either --secret-file or --no-secret, not both.\n');
    expect(s.requests).toEqual([]);
  });
});

describe('webhook create without a secret', () => {
  it('warns that deliveries will be unsigned', async () => {
    const s = await serve([
      [`POST ${LIST}`, [200, { form_integration: { ...HOOK, id: 9, data: { webhook_url: 'https://hooks.example.com/in', webhook_headers: {} } } }]],
    ]);
    const r = await runCli(['webhook', 'create', '42', '--url', 'https://93.184.216.34/in'], { url: s.url });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('9\n');
    expect(r.err).toMatch(/^warning: deliveries of webhook 9 are not signed: receivers cannot tell them from forgeries\./);
  });
});
