import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { webhookCreateRun } from '../../../src/commands/webhook/create.js';
import { webhookDeleteRun } from '../../../src/commands/webhook/delete.js';
import { webhookEventsRun } from '../../../src/commands/webhook/events.js';
import { webhookGetRun } from '../../../src/commands/webhook/get.js';
import { webhookListRun } from '../../../src/commands/webhook/list.js';
import { webhookRotateSecretRun } from '../../../src/commands/webhook/rotate-secret.js';
import { webhookSendRun } from '../../../src/commands/webhook/send.js';
import { webhookSignRun } from '../../../src/commands/webhook/sign.js';
import { webhookUpdateRun } from '../../../src/commands/webhook/update.js';
import { newWebhookVerifyCommand, webhookVerifyRun } from '../../../src/commands/webhook/verify.js';
import type { Factory } from '../../../src/factory.js';
import type { ResolvedContext } from '../../../src/config/resolve.js';
import { CliError, ExitCode, UsageError } from '../../../src/errors.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { signBody } from '../../../src/webhooks/signature.js';
import { fakeIO } from '../../helpers/io.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';

const SECRET = 'current-secret-value-1234';
const integration = {
  id: 7,
  form_id: 42,
  integration_id: 'webhook',
  status: 'active',
  data: { webhook_url: 'https://hooks.example.com/in', webhook_secret: SECRET, webhook_headers: { 'X-Api-Key': 'k1', 'X-Env': 'prod' } },
  logic: { operatorIdentifier: 'and', children: [{ identifier: 'name', value: { operator: 'is_not_empty', value: null } }] },
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-02T00:00:00Z',
};
const resolve = async () => ['93.184.216.34'];

let dir: string;
const servers: StubServer[] = [];
const clients: ApiClient[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-webhook-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function stub(handler: Parameters<typeof startStubServer>[0]) {
  const server = await startStubServer(handler);
  servers.push(server);
  const api = async () => {
    const c = new ApiClient({ baseUrl: server.url, token: 't0ken', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    clients.push(c);
    return c;
  };
  return { server, api };
}

function file(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

async function thrown(p: Promise<unknown>): Promise<CliError> {
  try {
    await p;
  } catch (e) {
    return e as CliError;
  }
  throw new Error('did not throw');
}

describe('webhook create', () => {
  it('sends the spec body: integration_id, status, data with secret and headers, logic', async () => {
    const { server, api } = await stub((_req, res) =>
      json(res, 200, { message: 'Form Integration was created.', form_integration: { ...integration, id: 9 } }),
    );
    const io = fakeIO();
    await webhookCreateRun({
      io: io.io,
      api,
      resolve,
      form: '42',
      url: 'https://hooks.example.com/in',
      secretFile: file('s.txt', `${SECRET}\n`),
      header: [['X-Api-Key', 'k1']],
      logicFile: file('logic.json', JSON.stringify(integration.logic)),
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.method).toBe('POST');
    expect(server.requests[0]!.url).toBe('/open/forms/42/integrations');
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: 'https://hooks.example.com/in', webhook_headers: { 'X-Api-Key': 'k1' }, webhook_secret: SECRET },
      logic: integration.logic,
    });
    // Piped, a create prints the new id and nothing else (README: "create prints the new id").
    expect(io.out()).toBe('9\n');
    expect(io.err()).toBe('');
  });

  it('piped with --generate-secret: stdout is exactly the secret, the new id is a note on stderr', async () => {
    const { server, api } = await stub((req, res) => json(res, 200, { form_integration: { ...integration, id: 9, data: JSON.parse(req.body).data } }));
    const io = fakeIO();
    await webhookCreateRun({ io: io.io, api, resolve, form: '42', url: 'https://hooks.example.com/in', generateSecret: true, header: [] });
    const secret = JSON.parse(server.requests[0]!.body).data.webhook_secret as string;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(io.out()).toBe(`${secret}\n`);
    expect(io.err()).toBe('note: created webhook 9 on form 42; stdout holds its signing secret.\n');
  });

  it('--generate-secret prints the secret; --json adds generated_secret beside the masked object', async () => {
    const { server, api } = await stub((req, res) => {
      const body = JSON.parse(req.body);
      json(res, 200, { form_integration: { ...integration, id: 9, status: body.status, data: body.data } });
    });
    const io = fakeIO();
    await webhookCreateRun({
      io: io.io,
      api,
      resolve,
      form: '42',
      url: 'https://hooks.example.com/in',
      generateSecret: true,
      header: [],
      inactive: true,
      json: true,
    });
    const sent = JSON.parse(server.requests[0]!.body);
    expect(sent.status).toBe('inactive');
    expect(sent.data.webhook_secret).toMatch(/^[0-9a-f]{64}$/);
    const out = JSON.parse(io.out());
    expect(out.generated_secret).toBe(sent.data.webhook_secret);
    expect(out.data.webhook_secret).toBe(`••••${sent.data.webhook_secret.slice(-4)}`);
  });

  it('on a terminal: a ✓ line, then the generated secret alone on its line, with a note on stderr', async () => {
    const { server, api } = await stub((req, res) =>
      req.method === 'GET'
        ? json(res, 200, { id: 42, slug: 'contact', title: 'Contact', visibility: 'public', properties: [] })
        : json(res, 200, { form_integration: { ...integration, id: 9, data: JSON.parse(req.body).data } }),
    );
    const io = fakeIO({ tty: true });
    await webhookCreateRun({ io: io.io, api, resolve, form: 'contact', url: 'https://hooks.example.com/in', generateSecret: true, header: [] });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /open/forms/contact', 'POST /open/forms/42/integrations']);
    const secret = JSON.parse(server.requests.at(-1)!.body).data.webhook_secret as string;
    expect(io.out()).toBe(`✓ Created webhook 9 on form contact (active) → https://hooks.example.com/in\n${secret}\n`);
    expect(io.err()).toBe('note: the signing secret follows. Store it with your receiver (`webhook get --show-secret` prints it again).\n');
  });

  it('validates before any request and needs --url', async () => {
    const { server, api } = await stub((_req, res) => json(res, 500, {}));
    const io = fakeIO();
    const e = await thrown(webhookCreateRun({ io: io.io, api, resolve, form: '42', url: 'https://10.0.0.1/x', header: [['Host', 'evil']] }));
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toBe(
      'The webhook settings would be rejected by the service:\n' +
        '  data.webhook_url: The webhook URL must resolve only to public IP addresses (10.0.0.1, a private address).\n' +
        "  data.webhook_headers: The 'Host' header cannot be customized for security reasons.",
    );
    expect((await thrown(webhookCreateRun({ io: io.io, api, form: '42', header: [] }))).message).toBe('Missing --url.');
    expect((await thrown(webhookCreateRun({ io: io.io, api, form: '42', url: 'https://x', generateSecret: true, secretFile: 'f', header: [] }))).message).toBe(
      'Use only one of --secret-file, --secret-stdin and --generate-secret.',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('a host this machine cannot resolve (ENOTFOUND, EAI_AGAIN) is left to the service with a warning; a literal private address stays refused', async () => {
    const { server, api } = await stub((_req, res) =>
      json(res, 200, { message: 'Form Integration was created.', form_integration: { ...integration, id: 9 } }),
    );
    for (const code of ['ENOTFOUND', 'EAI_AGAIN']) {
      const offline = async (host: string): Promise<string[]> => {
        throw Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code, hostname: host });
      };
      const io = fakeIO();
      await webhookCreateRun({ io: io.io, api, resolve: offline, form: '42', url: 'https://hooks.example.invalid/in', generateSecret: true, header: [] });
      expect(io.err()).toContain(
        `warning: this machine could not resolve the webhook URL's host hooks.example.invalid (${code}); the service checks the URL itself`,
      );
    }
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    // No DNS is needed to see that a literal address is private: still refused before sending.
    const offline = async (): Promise<string[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const e = await thrown(webhookCreateRun({ io: fakeIO().io, api, resolve: offline, form: '42', url: 'https://10.0.0.1/x', header: [] }));
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toContain('must resolve only to public IP addresses (10.0.0.1, a private address)');
    expect(server.requests).toHaveLength(2);
  });

  it('--allow-private admits a loopback http:// receiver with a warning on stderr', async () => {
    const { api } = await stub((_req, res) => json(res, 200, { form_integration: integration }));
    const io = fakeIO();
    await webhookCreateRun({ io: io.io, api, form: '42', url: 'http://127.0.0.1:8787/hook', allowPrivate: true, header: [] });
    expect(io.err()).toMatch(/^warning: --allow-private: not checking HTTPS or public addresses/);
  });

  describe('run bare on a terminal (--url missing)', () => {
    type Asked = { kind: string; message: string; flag: string; rejected?: string[] };
    /** A prompter that answers from a script; each input answer is tried in turn against the prompt's validate. */
    function scripted(answers: { input: string[][]; select: unknown[]; confirm: boolean[] }) {
      const asked: Asked[] = [];
      const p: Prompter = {
        async input(o) {
          const tries = answers.input.shift()!;
          const entry: Asked = { kind: 'input', message: o.message, flag: o.flag, rejected: [] };
          asked.push(entry);
          for (const v of tries) {
            const ok = o.validate ? await o.validate(v) : true;
            if (ok === true) return v;
            entry.rejected!.push(ok);
          }
          throw new Error(`no valid answer for ${o.message}`);
        },
        async select(o) {
          asked.push({ kind: 'select', message: o.message, flag: o.flag });
          return answers.select.shift() as never;
        },
        async confirm(o) {
          asked.push({ kind: 'confirm', message: o.message, flag: o.flag });
          return answers.confirm.shift()!;
        },
        password: async () => Promise.reject(new Error('not asked')),
        search: async () => Promise.reject(new Error('not asked')),
      };
      return { asked, prompter: () => p };
    }

    it('asks URL (re-asking until it passes the local rules), secret source and status, then creates', async () => {
      const { server, api } = await stub((req, res) => json(res, 200, { form_integration: { ...integration, id: 9, ...JSON.parse(req.body) } }));
      const io = fakeIO({ tty: true, canPrompt: true });
      const { asked, prompter } = scripted({
        input: [
          ['ftp://hooks.example.com/in', 'http://hooks.example.com/in', 'https://hooks.example.com/in'],
          ['/nonexistent/secret', file('short.txt', 'abc\n'), file('ok.txt', `${SECRET}\n`)],
        ],
        select: ['file'],
        confirm: [false],
      });
      await webhookCreateRun({ io: io.io, api, prompter, resolve, form: '42', header: [] });
      expect(asked).toEqual([
        {
          kind: 'input',
          message: 'Receiver URL (https://…)',
          flag: '--url',
          rejected: [
            'The webhook URL must use HTTPS. For a local receiver, run again with --allow-private.',
            'The webhook URL must use HTTPS. For a local receiver, run again with --allow-private.',
          ],
        },
        { kind: 'select', message: 'Signing secret', flag: '--generate-secret' },
        {
          kind: 'input',
          message: 'Secret file',
          flag: '--secret-file',
          rejected: ['Cannot read --secret-file /nonexistent/secret: no such file.', 'The webhook secret must be at least 12 characters (it has 3).'],
        },
        { kind: 'confirm', message: 'Deliver new submissions right away (active)?', flag: '--inactive' },
      ]);
      expect(JSON.parse(server.requests[0]!.body)).toEqual({
        integration_id: 'webhook',
        status: 'inactive',
        data: { webhook_url: 'https://hooks.example.com/in', webhook_headers: {}, webhook_secret: SECRET },
      });
      expect(io.out()).toBe('✓ Created webhook 9 on form 42 (inactive) → https://hooks.example.com/in\n');
      expect(io.out()).not.toContain(SECRET);
    });

    it('"generate" prints the new secret once, the one sent; flags already given are not asked again', async () => {
      const { server, api } = await stub((req, res) => json(res, 200, { form_integration: { ...integration, id: 9, ...JSON.parse(req.body) } }));
      const io = fakeIO({ tty: true, canPrompt: true });
      const { asked, prompter } = scripted({ input: [['http://127.0.0.1:9/hook']], select: ['generate'], confirm: [] });
      await webhookCreateRun({ io: io.io, api, prompter, form: '42', header: [], inactive: true, allowPrivate: true });
      expect(asked.map((a) => a.message)).toEqual(['Receiver URL (private addresses allowed)', 'Signing secret']);
      const sent = JSON.parse(server.requests[0]!.body) as { status: string; data: { webhook_secret: string } };
      expect(sent.status).toBe('inactive');
      expect(sent.data.webhook_secret).toMatch(/^[0-9a-f]{64}$/);
      expect(io.out().split(sent.data.webhook_secret)).toHaveLength(2);
      expect(io.out().endsWith(`\n${sent.data.webhook_secret}\n`)).toBe(true);
    });

    it('"none" sends no secret; without a prompter or terminal it is a usage error naming --url', async () => {
      const { server, api } = await stub((req, res) => json(res, 200, { form_integration: { ...integration, id: 9, ...JSON.parse(req.body) } }));
      const { prompter } = scripted({ input: [['https://hooks.example.com/in']], select: ['none'], confirm: [true] });
      await webhookCreateRun({ io: fakeIO({ tty: true, canPrompt: true }).io, api, prompter, resolve, form: '42', header: [] });
      expect(JSON.parse(server.requests[0]!.body).data).toEqual({ webhook_url: 'https://hooks.example.com/in', webhook_headers: {} });
      expect(JSON.parse(server.requests[0]!.body).status).toBe('active');

      const e = await thrown(webhookCreateRun({ io: fakeIO({ tty: false }).io, api, prompter, form: '42', header: [] }));
      expect(e).toMatchObject({ message: 'Missing --url.', exitCode: 2 });
      expect(server.requests).toHaveLength(1);
    });
  });
});

describe('webhook update', () => {
  it('sends the full current data merged with the change (nothing untouched is lost)', async () => {
    const { server, api } = await stub((req, res) => {
      if (req.method === 'GET') return json(res, 200, [integration, { id: 8, integration_id: 'slack', data: {} }]);
      json(res, 200, { form_integration: { ...integration, ...JSON.parse(req.body) } });
    });
    const io = fakeIO();
    await webhookUpdateRun({ io: io.io, api, resolve, form: '42', id: 7, header: [['x-env', 'staging']], deactivate: true, secret: true });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /open/forms/42/integrations', 'PUT /open/forms/42/integrations/7']);
    expect(JSON.parse(server.requests[1]!.body)).toEqual({
      integration_id: 'webhook',
      status: 'inactive',
      data: { webhook_url: 'https://hooks.example.com/in', webhook_secret: SECRET, webhook_headers: { 'X-Api-Key': 'k1', 'x-env': 'staging' } },
      logic: integration.logic,
    });
  });

  it('headers the service stored are sent back unchanged even when longer than 255 bytes (a spec service counts characters); a new header map is counted in bytes', async () => {
    const long = { ...integration, data: { ...integration.data, webhook_headers: { 'X-Acc': 'é'.repeat(200) } } };
    const { server, api } = await stub((req, res) =>
      req.method === 'GET' ? json(res, 200, [long]) : json(res, 200, { form_integration: { ...long, ...JSON.parse(req.body) } }),
    );
    await webhookUpdateRun({ io: fakeIO().io, api, resolve, form: '42', id: 7, header: [], deactivate: true, secret: true });
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'PUT']);
    const e = await thrown(webhookUpdateRun({ io: fakeIO().io, api, resolve, form: '42', id: 7, header: [['X-New', '1']], secret: true }));
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain("Header value for 'X-Acc' exceeds 255 characters (it has 400 bytes in UTF-8, which the service counts).");
  });

  it('a stored URL the service can no longer resolve (exit 7) comes with the hint to pass --url: every update sends it again', async () => {
    const { api } = await stub((req, res) =>
      req.method === 'GET'
        ? json(res, 200, [integration])
        : json(res, 422, {
            message: 'The webhook URL host could not be resolved.',
            errors: { 'data.webhook_url': ['The webhook URL host could not be resolved.'] },
          }),
    );
    const e = await thrown(webhookUpdateRun({ io: fakeIO().io, api, resolve, form: '42', id: 7, header: [], deactivate: true, secret: true }));
    expect(e.exitCode).toBe(7);
    expect(e.hint).toBe('Every update sends the stored URL again; pass --url with one the service can resolve.');
  });

  it('--json prints the saved integration with header values masked; the PUT carries them in full', async () => {
    const { server, api } = await stub((req, res) =>
      req.method === 'GET' ? json(res, 200, [integration]) : json(res, 200, { form_integration: { ...integration, data: JSON.parse(req.body).data } }),
    );
    const io = fakeIO();
    await webhookUpdateRun({ io: io.io, api, resolve, form: '42', id: 7, header: [['X-Env', 'staging']], secret: true, json: true });
    expect(JSON.parse(server.requests[1]!.body).data.webhook_headers).toEqual({ 'X-Api-Key': 'k1', 'X-Env': 'staging' });
    expect(JSON.parse(io.out()).data.webhook_headers).toEqual({ 'X-Api-Key': '••••', 'X-Env': '••••' });
    expect(io.err()).toBe(HEADERS_NOTE);
  });

  it('--clear-headers empties them; a changed URL is validated before the PUT', async () => {
    const { server, api } = await stub((req, res) =>
      req.method === 'GET' ? json(res, 200, [integration]) : json(res, 200, { form_integration: integration }),
    );
    const io = fakeIO();
    await webhookUpdateRun({ io: io.io, api, resolve, form: '42', id: 7, header: [], clearHeaders: true, secret: true });
    expect(JSON.parse(server.requests[1]!.body).data.webhook_headers).toEqual({});
    const e = await thrown(webhookUpdateRun({ io: io.io, api, resolve, form: '42', id: 7, url: 'https://[::1]/', header: [], secret: true }));
    expect(e.message).toContain('data.webhook_url: The webhook URL must resolve only to public IP addresses (::1, a loopback address).');
    expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect((await thrown(webhookUpdateRun({ io: io.io, api, form: '42', id: 7, header: [], secret: true }))).message).toBe('Nothing to update.');
  });

  it('re-checks only a new URL: a stored private URL (created with --allow-private) can still be switched off', async () => {
    const local = { ...integration, data: { ...integration.data, webhook_url: 'http://127.0.0.1:8787/hook' } };
    const { server, api } = await stub((req, res) => (req.method === 'GET' ? json(res, 200, [local]) : json(res, 200, { form_integration: local })));
    await webhookUpdateRun({ io: fakeIO().io, api, resolve, form: '42', id: 7, deactivate: true, header: [], secret: true });
    expect(JSON.parse(server.requests[1]!.body).data.webhook_url).toBe('http://127.0.0.1:8787/hook');
    const e = await thrown(webhookUpdateRun({ io: fakeIO().io, api, resolve, form: '42', id: 7, header: [['X-Long', 'v'.repeat(256)]], secret: true }));
    expect(e.message).toBe(
      "The webhook settings would be rejected by the service:\n  data.webhook_headers: Header value for 'X-Long' exceeds 255 characters (it has 256).",
    );
  });

  it('a stored header name holding a newline is named escaped: no forged `error:` line, nothing sent', async () => {
    const forged = { ...integration, data: { ...integration.data, webhook_headers: { 'X-A\nerror: hdr': 'v' } } };
    const { server, api } = await stub((req, res) => (req.method === 'GET' ? json(res, 200, [forged]) : json(res, 200, { form_integration: forged })));
    const e = await thrown(webhookUpdateRun({ io: fakeIO().io, api, resolve, form: '42', id: 7, deactivate: true, header: [], secret: true }));
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(
      "The webhook settings would be rejected by the service:\n  data.webhook_headers: Header names must be non-empty strings of valid header characters ('X-A\\x0aerror: hdr').",
    );
    expect(server.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('a missing integration is a not-found error (exit 6)', async () => {
    const { api } = await stub((_req, res) => json(res, 200, [integration]));
    const e = await thrown(webhookUpdateRun({ io: fakeIO().io, api, resolve, form: '42', id: 99, activate: true, header: [], secret: true }));
    expect(e.exitCode).toBe(6);
  });
});

describe('webhook rotate-secret', () => {
  it('generates a new secret, PUTs it with everything else unchanged, prints it and warns', async () => {
    const { server, api } = await stub((req, res) =>
      req.method === 'GET' ? json(res, 200, [integration]) : json(res, 200, { form_integration: integration }),
    );
    const io = fakeIO();
    await webhookRotateSecretRun({ io: io.io, api, form: '42', id: 7 });
    const body = JSON.parse(server.requests[1]!.body);
    expect(body.data.webhook_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(body).toEqual({
      integration_id: 'webhook',
      status: 'active',
      data: { ...integration.data, webhook_secret: body.data.webhook_secret },
      logic: integration.logic,
    });
    expect(io.out()).toBe(`${body.data.webhook_secret}\n`);
    expect(io.err()).toBe(
      'warning: every delivery from now on is signed with the new secret: receivers still using the old one will fail verification until you update them.\n',
    );
  });
});

describe('webhook rotate-secret --json without the secret', () => {
  it('warns, naming webhook get --show-secret with the --profile in effect, quoted for a shell', async () => {
    const { api } = await stub((req, res) => (req.method === 'GET' ? json(res, 200, [integration]) : json(res, 200, { form_integration: integration })));
    const io = fakeIO();
    const context = async () => ({ profileName: "team's prod", profileSource: 'flag' }) as unknown as ResolvedContext;
    await webhookRotateSecretRun({ io: io.io, api, context, form: '42', id: 7, json: ['id'] });
    expect(JSON.parse(io.out())).toEqual({ id: 7 });
    expect(io.err()).toContain(
      "warning: the new signing secret is not in the output (--json id leaves it out); print it with: formctl --profile 'team'\\''s prod' webhook get 42 7 --show-secret\n",
    );
  });
});

const HEADERS_NOTE =
  'note: the values of the custom headers X-Api-Key, X-Env are masked (••••): they may hold credentials. Pass --show-secret to print them (and the signing secret) in full.\n';

describe('webhook list', () => {
  it('with no webhooks, on a terminal, names webhook create with the --profile in effect, quoted', async () => {
    const { api } = await stub((_req, res) => json(res, 200, []));
    const io = fakeIO({ tty: true });
    const context = async () => ({ profileName: 'my box', profileSource: 'env' }) as unknown as ResolvedContext;
    await webhookListRun({ io: io.io, api, context, now: () => new Date(), form: '42' });
    expect(io.err()).toBe("Form 42 has no webhooks. Add one with `formctl --profile 'my box' webhook create 42 --url https://…`.\n");
  });

  it('masks secrets and header values in TSV and JSON unless --show-secret', async () => {
    const { api } = await stub((_req, res) => json(res, 200, [integration]));
    const io = fakeIO();
    await webhookListRun({ io: io.io, api, now: () => new Date('2025-01-03T00:00:00Z'), form: '42' });
    expect(io.out()).toBe('7\tactive\thttps://hooks.example.com/in\t••••1234\tX-Api-Key, X-Env\t2025-01-02T00:00:00Z\n');
    expect(io.err()).toBe('');
    const j = fakeIO();
    await webhookListRun({ io: j.io, api, now: () => new Date(), form: '42', json: ['id', 'data'] });
    expect(JSON.parse(j.out())).toEqual([
      { id: 7, data: { ...integration.data, webhook_secret: '••••1234', webhook_headers: { 'X-Api-Key': '••••', 'X-Env': '••••' } } },
    ]);
    expect(j.err()).toBe(HEADERS_NOTE);
    const bare = fakeIO();
    await webhookListRun({ io: bare.io, api, now: () => new Date(), form: '42', json: true });
    expect(bare.out()).not.toContain('k1');
    expect(bare.err()).toBe(HEADERS_NOTE);
    const noData = fakeIO();
    await webhookListRun({ io: noData.io, api, now: () => new Date(), form: '42', json: ['id', 'status'] });
    expect(noData.err()).toBe('');
    const shown = fakeIO();
    await webhookListRun({ io: shown.io, api, now: () => new Date(), form: '42', showSecret: true, json: ['data'] });
    expect(shown.out()).toContain(SECRET);
    expect(JSON.parse(shown.out())[0].data.webhook_headers).toEqual({ 'X-Api-Key': 'k1', 'X-Env': 'prod' });
    expect(shown.err()).toBe('');
  });
});

describe('webhook get', () => {
  it('shows header names with their values masked, in every view, unless --show-secret', async () => {
    const { api } = await stub((_req, res) => json(res, 200, [integration]));
    const now = () => new Date('2025-01-03T00:00:00Z');
    const tsv = fakeIO();
    await webhookGetRun({ io: tsv.io, api, now, form: '42', id: 7 });
    expect(tsv.out()).toContain('secret\t••••1234\nheaders\tX-Api-Key: ••••, X-Env: ••••\n');
    expect(tsv.err()).toBe(HEADERS_NOTE);
    const table = fakeIO({ tty: true });
    await webhookGetRun({ io: table.io, api, now, form: '42', id: 7 });
    expect(table.out()).toMatch(/Headers\s+X-Api-Key: ••••, X-Env: ••••\n/);
    const j = fakeIO();
    await webhookGetRun({ io: j.io, api, now, form: '42', id: 7, json: true });
    expect(JSON.parse(j.out()).data).toEqual({
      webhook_url: 'https://hooks.example.com/in',
      webhook_secret: '••••1234',
      webhook_headers: { 'X-Api-Key': '••••', 'X-Env': '••••' },
    });
    expect(j.err()).toBe(HEADERS_NOTE);
    for (const r of [tsv, table, j]) expect(r.out() + r.err()).not.toMatch(/k1|prod|current-secret/);
    const shown = fakeIO();
    await webhookGetRun({ io: shown.io, api, now, form: '42', id: 7, json: ['data'], showSecret: true });
    expect(JSON.parse(shown.out()).data).toEqual(integration.data);
    expect(shown.err()).toBe('');
  });

  it('a webhook without custom headers has nothing to mask, and no note', async () => {
    const { api } = await stub((_req, res) => json(res, 200, [{ ...integration, data: { ...integration.data, webhook_headers: [] } }]));
    const j = fakeIO();
    await webhookGetRun({ io: j.io, api, now: () => new Date(), form: '42', id: 7, json: ['data'] });
    expect(JSON.parse(j.out()).data.webhook_headers).toEqual({});
    expect(j.err()).toBe('');
  });
});

/** Answers the integration list (events check that the id is a webhook first), else `handler` with its own count. */
function eventsStub(
  handler: (req: { url?: string }, res: Parameters<Parameters<typeof startStubServer>[0]>[1], i: number) => void,
): Parameters<typeof startStubServer>[0] {
  let n = 0;
  return (req, res) => (req.url === '/open/forms/42/integrations' ? json(res, 200, [integration]) : handler(req, res, n++));
}

describe('webhook events', () => {
  const ev = (id: number, status: string, code: number | null) => ({
    id,
    integration_id: 7,
    event: 'submission.created',
    status,
    response_code: code,
    error_message: null,
    created_at: `2025-01-01T00:00:0${id}Z`,
  });

  it('lists newest first and filters by status; deployed {date, status, data} records are normalised', async () => {
    const { api } = await stub(
      eventsStub((_req, res) =>
        json(res, 200, [ev(3, 'failed', 500), ev(2, 'success', 200), { date: '2025-01-01 00:00', status: 'Error', data: { message: 'boom', status: 502 } }]),
      ),
    );
    const io = fakeIO();
    await webhookEventsRun({
      io: io.io,
      api,
      now: () => new Date(),
      signal: new AbortController().signal,
      form: '42',
      id: 7,
      status: 'failed',
      json: ['id', 'status', 'response_code', 'error_message'],
    });
    expect(JSON.parse(io.out())).toEqual([
      { id: 3, status: 'failed', response_code: 500, error_message: null },
      { id: null, status: 'failed', response_code: 502, error_message: 'boom' },
    ]);
  });

  it('--follow prints the log oldest first, then only new records as NDJSON, and stops quietly on Ctrl-C', async () => {
    const pages = [[ev(1, 'success', 200)], [ev(1, 'success', 200)], [ev(3, 'failed', 500), ev(2, 'success', 200), ev(1, 'success', 200)]];
    const { server, api } = await stub(eventsStub((_req, res, i) => json(res, 200, pages[Math.min(i, pages.length - 1)])));
    const controller = new AbortController();
    const io = fakeIO();
    const waits: number[] = [];
    await webhookEventsRun({
      io: io.io,
      api,
      now: () => new Date(),
      signal: controller.signal,
      form: '42',
      id: 7,
      follow: true,
      interval: 2000,
      json: ['id', 'status'],
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length === 3) controller.abort();
      },
    });
    expect(io.out()).toBe('{"id":1,"status":"success"}\n{"id":2,"status":"success"}\n{"id":3,"status":"failed"}\n');
    // One check that 7 is a webhook of form 42, then three reads of its events.
    expect(server.requests.map((r) => r.url)).toEqual(['/open/forms/42/integrations', ...Array(3).fill('/open/forms/42/integrations/7/events')]);
    expect(waits).toEqual([2000, 2000, 2000]);
  });

  it('--follow stopped by Ctrl-C during its first read ends quietly too (exit 0), whatever error the cut request gives', async () => {
    const controller = new AbortController();
    const io = fakeIO();
    const api = async () => {
      controller.abort();
      throw new CliError('Network error: the connection was cut.', ExitCode.network);
    };
    await expect(
      webhookEventsRun({ io: io.io, api: api as never, now: () => new Date(), signal: controller.signal, form: '42', id: 7, follow: true, interval: 1 }),
    ).resolves.toBeUndefined();
    // Without --follow the same error is the command's error.
    await expect(webhookEventsRun({ io: io.io, api: api as never, now: () => new Date(), signal: controller.signal, form: '42', id: 7 })).rejects.toThrow(
      'Network error',
    );
  });
});

describe('webhook human output on a terminal', () => {
  const evil = 'boom\x1b]0;pwned\x07\x1b[2J\r\x9b1m';

  it('events --follow shows escape sequences in a server error message instead of obeying them', async () => {
    const { api } = await stub(
      eventsStub((_req, res) =>
        json(res, 200, [
          {
            id: 1,
            integration_id: 7,
            event: 'submission.created\x1b[8m',
            status: 'failed',
            response_code: 500,
            error_message: evil,
            created_at: '2025-01-01T00:00:01Z',
          },
        ]),
      ),
    );
    const controller = new AbortController();
    const io = fakeIO({ tty: true });
    await webhookEventsRun({
      io: io.io,
      api,
      now: () => new Date(),
      signal: controller.signal,
      form: '42',
      id: 7,
      follow: true,
      interval: 1,
      sleep: async () => controller.abort(),
    });
    // eslint-disable-next-line no-control-regex
    expect(io.out()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(io.out()).toContain('submission.created\\x1b[8m  boom\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\x9b1m');
  });

  it("send shows the receiver's answer escaped on a terminal, and as received when piped", async () => {
    const { server } = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(evil);
    });
    const base = {
      api: async () => {
        throw new Error('unused');
      },
      now: () => new Date(),
      signal: new AbortController().signal,
      timeoutMs: 5000,
      userAgent: 'x',
      headers: [] as Array<[string, string]>,
      url: server.url,
    };
    const tty = fakeIO({ tty: true });
    await webhookSendRun({ ...base, io: tty.io, secretFile: file('s-tty', SECRET) });
    expect(tty.out()).toBe('HTTP 200\nboom\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\x9b1m\n');
    const piped = fakeIO();
    await webhookSendRun({ ...base, io: piped.io, secretFile: file('s-pipe', SECRET) });
    expect(piped.out()).toBe(`HTTP 200\n${evil}\n`);
  });
});

describe('webhook sign and verify', () => {
  const body = '{"form_id":1,"submission":{"Name":"Ada"}}';
  it('sign prints the header value for a body file', async () => {
    const io = fakeIO();
    await webhookSignRun({ io: io.io, secretFile: file('sign-secret', `${SECRET}\n`), bodyFile: file('b.json', body) });
    expect(io.out()).toBe(`${signBody(SECRET, body)}\n`);
  });

  it('sign refuses to run without --secret-file', async () => {
    expect((await thrown(webhookSignRun({ io: fakeIO({ stdin: body }).io }))).exitCode).toBe(2);
  });

  it('verify reads the body from stdin and the signature from a header file', async () => {
    const io = fakeIO({ stdin: body });
    await webhookVerifyRun({
      io: io.io,
      secretFile: file('v-secret', SECRET),
      headerFile: file('h.txt', `Content-Type: application/json\nX-Webhook-Signature: ${signBody(SECRET, body)}\n`),
    });
    expect(io.out()).toBe(`Signature is valid (${body.length} bytes).\n`);
  });

  it('verify --json takes an optional field list like other commands, checked before anything is read', async () => {
    const io = fakeIO();
    const e = await thrown(
      webhookVerifyRun({
        io: io.io,
        secretFile: file('v3-secret', SECRET),
        signature: signBody(SECRET, body),
        bodyFile: file('v3-body', '{"form_id":2}'),
        json: ['valid', 'reason'],
      }),
    );
    expect(e.exitCode).toBe(1);
    expect(io.out()).toBe('{\n  "valid": false,\n  "reason": "mismatch"\n}\n');
    const run = vi.fn(async () => undefined);
    const bad = await thrown(newWebhookVerifyCommand({} as Factory, run).parseAsync(['--secret-file', 'x', '--json', 'ok'], { from: 'user' }));
    expect(run).not.toHaveBeenCalled();
    expect(bad).toBeInstanceOf(UsageError);
    expect(bad.message).toBe('Unknown JSON field: ok.');
  });

  it.each([
    ['a pretty-printed body', JSON.stringify(JSON.parse(body), null, 2), /re-serialised/],
    ['a trailing newline', `${body}\n`, /ends with a line break/],
    ['another body', '{"form_id":2}', /current secret/],
  ])('verify explains a mismatch caused by %s (exit 1)', async (_n, received, hint) => {
    const io = fakeIO();
    const e = await thrown(
      webhookVerifyRun({
        io: io.io,
        secretFile: file('v2-secret', SECRET),
        signature: signBody(SECRET, body),
        bodyFile: file('recv.json', received),
        json: true,
      }),
    );
    expect(e.exitCode).toBe(1);
    expect(e.message).toBe('Invalid signature: the signature does not match this body and secret.');
    expect(e.hint).toMatch(hint);
    expect(JSON.parse(io.out())).toEqual({ valid: false, reason: 'mismatch', message: 'The signature does not match this body and secret.' });
  });

  it('verify reports a missing signature line and a malformed value', async () => {
    const missing = await thrown(
      webhookVerifyRun({ io: fakeIO({ stdin: body }).io, secretFile: file('v3', SECRET), headerFile: file('none.txt', 'Content-Type: x\n') }),
    );
    expect(missing.message).toMatch(/^Invalid signature: no X-Webhook-Signature header/);
    const bad = await thrown(webhookVerifyRun({ io: fakeIO({ stdin: body }).io, secretFile: file('v4', SECRET), signature: 'md5=abc' }));
    expect(bad.message).toBe('Invalid signature: the signature does not start with "sha256=".');
    const usage = await thrown(webhookVerifyRun({ io: fakeIO({ stdin: body }).io, secretFile: file('v5', SECRET) }));
    expect(usage.exitCode).toBe(2);
  });
});

describe('webhook send', () => {
  it('posts a compact sample shaped like the service payload, signed over the exact bytes', async () => {
    const { server } = await stub((_req, res) => json(res, 200, { ok: true }));
    const io = fakeIO();
    await webhookSendRun({
      io: io.io,
      api: async () => {
        throw new Error('no API needed');
      },
      now: () => new Date('2025-05-06T07:08:09Z'),
      signal: new AbortController().signal,
      timeoutMs: 5000,
      userAgent: 'formctl/test',
      url: `${server.url}/hook`,
      secretFile: file('send-secret', SECRET),
      header: [['X-Env', 'dev']],
    });
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/hook');
    expect(req.headers['x-webhook-signature']).toBe(signBody(SECRET, req.body));
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-env']).toBe('dev');
    expect(JSON.parse(req.body)).toEqual({
      form_id: 1,
      form_title: 'Sample form',
      form_slug: 'sample-form',
      submission: { Name: 'Sample name', Email: 'jane.doe@example.com', Message: 'Sample message' },
      data: {
        name: { value: 'Sample name', name: 'Name', type: 'text' },
        email: { value: 'jane.doe@example.com', name: 'Email', type: 'email' },
        message: { value: 'Sample message', name: 'Message', type: 'text' },
      },
      message: 'Please do not use the `submission` field. It is deprecated and will be removed in the future.',
      submission_id: 1,
    });
    expect(io.out()).toBe('HTTP 200\n{"ok":true}\n');
  });

  it('a non-2xx answer exits 1; an unreachable receiver exits 11', async () => {
    const { server } = await stub((_req, res) => json(res, 401, { message: 'bad signature' }));
    const base = {
      api: async () => {
        throw new Error('unused');
      },
      now: () => new Date(),
      signal: new AbortController().signal,
      timeoutMs: 5000,
      userAgent: 'x',
      headers: [] as Array<[string, string]>,
    };
    const io = fakeIO();
    const e = await thrown(webhookSendRun({ ...base, io: io.io, url: server.url, secretFile: file('s2', SECRET) }));
    expect(e.exitCode).toBe(1);
    expect(io.out()).toBe('HTTP 401\n{"message":"bad signature"}\n');
    const closed = server.url;
    await server.close();
    servers.length = 0;
    const net = await thrown(webhookSendRun({ ...base, io: fakeIO().io, url: `${closed}/hook`, secretFile: file('s3', SECRET) }));
    expect(net.exitCode).toBe(11);
    // The API client's words for the same errno, not the bare code.
    expect(net.message).toBe(`Connection refused by ${new URL(closed).host} (POST ${closed}/hook).`);
    expect(net.hint).toBe('Is the receiver running on that address and port?');
  });
});

describe('text from the service in ✓ and note lines', () => {
  // Stored by the service (its web app takes any header name and URL): a tab, and a line break that
  // would start a forged line of its own.
  const odd = {
    ...integration,
    status: 'active\tx\nerror: forged',
    data: { webhook_url: 'https://hooks.example.com/in\t\nnote: forged', webhook_secret: SECRET, webhook_headers: { 'X-Api\tKey\nforged': 'k1' } },
  };

  it('get: the masked-headers note shows the stored header name escaped, on one line', async () => {
    const { api } = await stub((_req, res) => json(res, 200, [odd]));
    const io = fakeIO();
    await webhookGetRun({ io: io.io, api, now: () => new Date(), form: '42', id: 7, json: ['data'] });
    expect(io.err()).toBe(
      'note: the value of the custom header X-Api\\x09Key\\x0aforged is masked (••••): they may hold credentials. Pass --show-secret to print it (and the signing secret) in full.\n',
    );
  });

  it('update: the ✓ line shows the status the service answered escaped', async () => {
    const { api } = await stub((req, res) => (req.method === 'GET' ? json(res, 200, [integration]) : json(res, 200, { form_integration: odd })));
    const io = fakeIO({ tty: true });
    await webhookUpdateRun({ io: io.io, api, resolve, form: '42', id: 7, deactivate: true, secret: true });
    expect(io.out()).toBe('✓ Updated webhook 7 on form 42 (active\\x09x\\x0aerror: forged).\n');
  });

  it('delete: the ✓ line shows the stored URL escaped', async () => {
    const { api } = await stub((req, res) => (req.method === 'GET' ? json(res, 200, [odd]) : json(res, 200, { message: 'Form Integration was deleted.' })));
    const io = fakeIO({ tty: true });
    await webhookDeleteRun({ io: io.io, api, prompter: () => ({}) as Prompter, form: '42', id: 7, yes: true });
    expect(io.out()).toBe('✓ Deleted webhook 7 (→ https://hooks.example.com/in\\x09\\x0anote: forged) of form 42.\n');
  });
});
