import { describe, expect, it } from 'vitest';
import type { Form } from '../../../src/api/forms.js';
import { ApiClient } from '../../../src/api/client.js';
import { NOT_COPIED, copyDocument, formCopyRun } from '../../../src/commands/form/copy.js';
import { fakeIO } from '../../helpers/io.js';
import { startTestSandbox } from '../../helpers/sandbox.js';

describe('copyDocument', () => {
  it('drops identity, server-computed keys, slug, password and custom domain, and names what held a value', () => {
    const form = {
      id: 4,
      slug: 'contact',
      workspace_id: 2,
      title: 'Contact',
      password: 'pw',
      custom_domain: 'forms.example.com',
      views_count: 10,
      share_url: 'https://x/forms/contact',
      settings: { navigation_arrows: true },
      properties: [{ id: 'a', type: 'text', name: 'A', logic: { conditions: null, actions: [] } }],
    } as unknown as Form;
    const { doc, dropped } = copyDocument(form);
    expect(dropped).toEqual({ slug: 'contact', password: 'pw', custom_domain: 'forms.example.com' });
    expect(doc).toEqual({
      title: 'Contact',
      settings: { navigation_arrows: true },
      properties: [{ id: 'a', type: 'text', name: 'A', logic: { actions: [], conditions: null } }],
    });
    for (const k of NOT_COPIED) expect(doc).not.toHaveProperty(k);
  });

  it('an empty password or domain is not reported as dropped', () => {
    const { dropped } = copyDocument({ id: 1, slug: 's', title: 'T', password: null, custom_domain: '', properties: [] } as unknown as Form);
    expect(dropped).toEqual({ slug: 's' });
  });
});

describe('form copy --with-webhooks on a terminal', () => {
  it('asks a secret for each copied webhook (a too-short one again), never reads the source secret into the copy', async () => {
    const sb = await startTestSandbox({ seed: 1, allowPrivateWebhooks: true });
    const client = new ApiClient({ baseUrl: sb.url, token: sb.tokens.all, userAgent: 'formctl-test', timeoutMs: 5_000, maxWaitMs: 1_000, retryBaseMs: 1 });
    try {
      await client.request({
        method: 'POST',
        path: `/open/forms/${sb.formId}/integrations`,
        body: { integration_id: 'webhook', status: 'active', data: { webhook_url: 'http://127.0.0.1:9/x', webhook_secret: 'source-secret-123456' } },
      });
      const answers = ['short', 'typed-secret-0123'];
      const asked: string[] = [];
      const prompter = {
        select: async (q: { message: string }) => (asked.push(q.message), 'type'),
        password: async () => answers.shift()!,
      };
      const io = fakeIO({ tty: true, canPrompt: true });
      await formCopyRun({
        io: io.io,
        api: async () => client,
        now: () => new Date(),
        prompter: () => prompter as never,
        form: String(sb.formId),
        toWorkspace: sb.workspaceId,
        withWebhooks: true,
        validate: true,
        json: true,
        profileName: async () => 'default',
        target: async () => ({ profile: 'default', client, backupDir: () => '/nonexistent' }),
      } as never);
      const out = JSON.parse(io.out());
      expect(out.webhooks).toEqual([{ id: expect.any(Number), source_id: expect.any(Number), signed: true }]);
      expect(asked).toEqual([`Signing secret for the copy of webhook ${out.webhooks[0].source_id} (http://127.0.0.1:9/x)`]);
      expect(io.err()).toMatch(/^warning: .*12/m);
      const hooks = await client.request<{ data: { webhook_secret: string } }[]>({ path: `/open/forms/${out.id}/integrations` });
      expect((hooks.data as unknown as { data: { webhook_secret: string } }[])[0]!.data.webhook_secret).toBe('typed-secret-0123');
    } finally {
      await client.close();
      await sb.close();
    }
  });
});
