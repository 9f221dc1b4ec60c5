// A webhook URL that carries its credential (`?token=…`) is printed masked by every webhook verb
// unless --show-secret, and an update never sends the masked form back (docs/security.md).
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

const TOKEN = 'tok-9f2c41e7d05b3a1c';
const MASKED = `••••${TOKEN.slice(-4)}`;
const NOTE = (id: number) =>
  `note: the URL of webhook ${id} is shown with its secret parts masked (••••): a token or key in the query, a password, a secret path. Pass --show-secret to print it in full.\n`;

describe.each(FLAVORS)('webhook URL secrets from the built binary against the %s sandbox', (flavor) => {
  const fx = useSandboxFixture({ flavor, allowPrivateWebhooks: true, seed: 1 });
  let slug: string;
  let receiver: Server;
  let url: string;
  let id: number;

  beforeAll(async () => {
    slug = fx.sb.formSlug!;
    // A receiver that redirects, so the service's failure message quotes a URL with a token.
    receiver = createServer((req, res) => {
      req.resume();
      res.writeHead(302, { location: `https://elsewhere.example/in?token=${TOKEN}` }).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const { port } = receiver.address() as { port: number };
    url = `http://127.0.0.1:${port}/in?token=${TOKEN}&page=2`;
  });

  afterAll(async () => {
    await new Promise((r) => receiver?.close(r));
  });

  const masked = () => url.replace(TOKEN, MASKED);

  it('create, list and get print the URL masked, with a note; --show-secret prints it whole', async () => {
    const secretFile = join(fx.home.dir, 'secret.txt');
    writeFileSync(secretFile, 'a-signing-secret-0123\n');
    const created = await runFormctl(['webhook', 'create', slug, '--url', url, '--secret-file', secretFile, '--allow-private', '--json'], { env: fx.env });
    expect(created.code).toBe(0);
    const hook = JSON.parse(created.stdout) as { id: number; data: { webhook_url: string } };
    id = hook.id;
    expect(hook.data.webhook_url).toBe(masked());
    expect(created.stderr).toContain(NOTE(id));
    expect(created.stderr).not.toContain(TOKEN);

    const tsv = await runFormctl(['webhook', 'list', slug], { env: fx.env });
    expect(tsv.code).toBe(0);
    expect(tsv.stdout).toContain(`${id}\tactive\t${masked()}\t`);
    expect(tsv.stderr).toBe(NOTE(id));
    for (const args of [
      ['list', slug, '--json'],
      ['list', slug, '--ndjson'],
      ['get', slug, String(id)],
      ['get', slug, String(id), '--json'],
      ['get', slug, String(id), '--json', 'data'],
      ['list', slug, '--debug'],
    ]) {
      const r = await runFormctl(['webhook', ...args], { env: fx.env });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(TOKEN);
      expect(r.stdout, args.join(' ')).toContain(MASKED);
      expect(r.stderr, args.join(' ')).toContain(NOTE(id));
    }
    const json = await runFormctl(['webhook', 'get', slug, String(id), '--json', 'data'], { env: fx.env });
    expect(JSON.parse(json.stdout)).toEqual({ data: { webhook_url: masked(), webhook_secret: '••••0123', webhook_headers: {} } });
    const other = await runFormctl(['webhook', 'get', slug, String(id), '--json', 'id,status'], { env: fx.env });
    expect(other.stderr).toBe('');

    const shown = await runFormctl(['webhook', 'get', slug, String(id), '--json', 'data', '--show-secret'], { env: fx.env });
    expect(JSON.parse(shown.stdout)).toEqual({ data: { webhook_url: url, webhook_secret: 'a-signing-secret-0123', webhook_headers: {} } });
    expect(shown.stderr).toBe('');
  });

  it('update and rotate-secret send the stored URL back, never the masked one', async () => {
    const upd = await runFormctl(['webhook', 'update', slug, String(id), '--header', 'X-Team: forms', '--json', 'data'], { env: fx.env });
    expect(upd.code).toBe(0);
    expect(JSON.parse(upd.stdout).data.webhook_url).toBe(masked());
    expect(upd.stderr).toContain(NOTE(id));
    expect(upd.stdout + upd.stderr).not.toContain(TOKEN);
    expect((await runFormctl(['webhook', 'update', slug, String(id), '--deactivate'], { env: fx.env })).code).toBe(0);
    expect((await runFormctl(['webhook', 'update', slug, String(id), '--activate'], { env: fx.env })).code).toBe(0);
    expect((await runFormctl(['webhook', 'rotate-secret', slug, String(id)], { env: fx.env })).code).toBe(0);
    const after = await runFormctl(['webhook', 'get', slug, String(id), '--json', 'status,data', '--show-secret'], { env: fx.env });
    const data = JSON.parse(after.stdout) as { status: string; data: { webhook_url: string; webhook_headers: Record<string, string> } };
    expect(data.status).toBe('active');
    expect(data.data.webhook_url).toBe(url);
    expect(data.data.webhook_headers).toEqual({ 'X-Team': 'forms' });
  });

  it('a new secret left out by --json fields or --jq gets a warning naming webhook get --show-secret, which prints it', async () => {
    const warning = (hook: number) =>
      `warning: the new signing secret is not in the output (%s leaves it out); print it with: formctl webhook get ${slug} ${hook} --show-secret\n`;
    const secretOf = async (hook: number) => {
      const r = await runFormctl(['webhook', 'get', slug, String(hook), '--show-secret', '--jq', '.data.webhook_secret'], { env: fx.env });
      expect(r.code).toBe(0);
      return r.stdout.trim();
    };
    for (const [args, by] of [
      [['--json', 'id'], '--json id'],
      [['--jq', '.id'], '--jq'],
    ] as const) {
      const rotated = await runFormctl(['webhook', 'rotate-secret', slug, String(id), ...args], { env: fx.env });
      expect(rotated.code, by).toBe(0);
      expect(rotated.stderr, by).toContain(warning(id).replace('%s', by));
      const secret = await secretOf(id);
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      expect(rotated.stdout + rotated.stderr).not.toContain(secret);

      const created = await runFormctl(['webhook', 'create', slug, '--url', url, '--generate-secret', '--allow-private', ...args], { env: fx.env });
      expect(created.code, by).toBe(0);
      const newId = by === '--jq' ? Number(created.stdout) : (JSON.parse(created.stdout) as { id: number }).id;
      expect(created.stderr, by).toContain(warning(newId).replace('%s', by));
      expect(await secretOf(newId)).toMatch(/^[0-9a-f]{64}$/);
      expect((await runFormctl(['webhook', 'delete', slug, String(newId), '--yes'], { env: fx.env })).code).toBe(0);
    }
    // Asked for, the secret is printed and there is no warning.
    for (const args of [['--json', 'id,secret'], ['--jq', '.secret'], ['--json']]) {
      const r = await runFormctl(['webhook', 'rotate-secret', slug, String(id), ...args], { env: fx.env });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toContain(await secretOf(id));
      expect(r.stderr, args.join(' ')).not.toContain('not in the output');
    }
    const generated = await runFormctl(['webhook', 'create', slug, '--url', url, '--generate-secret', '--allow-private', '--json', 'id,generated_secret'], {
      env: fx.env,
    });
    const hook = JSON.parse(generated.stdout) as { id: number; generated_secret: string };
    expect(hook.generated_secret).toBe(await secretOf(hook.id));
    expect(generated.stderr).not.toContain('not in the output');
    // delete takes --json, as workspace delete and form delete do.
    const deleted = await runFormctl(['webhook', 'delete', slug, String(hook.id), '--yes', '--json'], { env: fx.env });
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ id: hook.id, form_id: fx.sb.formId, deleted: true });
    const gone = await runFormctl(['webhook', 'get', slug, String(hook.id)], { env: fx.env });
    expect(gone.code).toBe(6);
  });

  it("events mask a URL quoted in a delivery's error message unless --show-secret", async () => {
    const trig = await runFormctl(['webhook', 'trigger', slug], { env: fx.env });
    expect(trig.code).toBe(0);
    await fx.sb.admin.deliveries();
    const events = await runFormctl(['webhook', 'events', slug, String(id), '--json', 'status,error_message'], { env: fx.env });
    expect(events.code).toBe(0);
    const records = JSON.parse(events.stdout) as Array<{ status: string; error_message: string }>;
    expect(records[0]!.error_message).toContain(`https://elsewhere.example/in?token=${MASKED}`);
    expect(events.stdout + events.stderr).not.toContain(TOKEN);
    expect(events.stderr).toBe('note: URLs in error messages are shown with their secret parts masked (••••). Pass --show-secret to print them in full.\n');
    const shown = await runFormctl(['webhook', 'events', slug, String(id), '--json', 'error_message', '--show-secret'], { env: fx.env });
    expect(shown.stdout).toContain(TOKEN);
  });

  it('refuses a URL with credentials before the host, without printing them', async () => {
    const r = await runFormctl(['webhook', 'create', slug, '--url', `http://bot:${TOKEN}@127.0.0.1:9/in`, '--allow-private'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('data.webhook_url: The webhook URL cannot contain embedded credentials.');
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });
});

describe('webhook send names the receiver URL masked in its errors', () => {
  it('masks a token in the query and after /token/ in the path', async () => {
    const home = tempHome();
    try {
      const bad = await runFormctl(['webhook', 'send', `ftp://h.example/in?token=${TOKEN}`], { env: home.env });
      expect(bad).toEqual({ code: 2, stdout: '', stderr: `error: The receiver URL must be http:// or https://, got "ftp://h.example/in?token=${MASKED}".\n` });
      const down = await runFormctl(['webhook', 'send', `http://127.0.0.1:9/hooks/token/${TOKEN}/in`], { env: home.env });
      expect(down.code).toBe(11);
      expect(down.stderr).toContain(`(POST http://127.0.0.1:9/hooks/token/${MASKED}/in)`);
      expect(down.stderr).not.toContain(TOKEN);
      const shown = await runFormctl(['webhook', 'send', `http://127.0.0.1:9/hooks/token/${TOKEN}/in`, '--show-secret'], { env: home.env });
      expect(shown.stderr).toContain(TOKEN);
    } finally {
      home.cleanup();
    }
  });
});

describe('webhook send --header takes only what a webhook custom header may be', () => {
  it('refuses X-Webhook-Signature (computed from --secret-file) and the other names the service blocks, before sending', async () => {
    const home = tempHome();
    const seen: Array<Record<string, unknown>> = [];
    const receiver = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    try {
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/in`;
      const secretFile = join(home.dir, 'secret.txt');
      writeFileSync(secretFile, 'a-signing-secret-0123\n');
      const forged = await runFormctl(['webhook', 'send', url, '--secret-file', secretFile, '--header', 'x-webhook-signature: forged'], { env: home.env });
      expect(forged).toEqual({
        code: 2,
        stdout: '',
        stderr:
          'error: --header x-webhook-signature: send computes the signature itself, from --secret-file over the exact bytes it sends.\n' +
          'hint: Pass --secret-file with the secret the receiver verifies with (without it the delivery is unsigned); to test a wrong signature, use a wrong secret.\n',
      });
      const typed = await runFormctl(['webhook', 'send', url, '--header', 'Content-Type: text/plain'], { env: home.env });
      expect(typed.code).toBe(2);
      expect(typed.stderr).toContain("error: --header: The 'Content-Type' header cannot be customized for security reasons.\n");
      expect(seen).toEqual([]);
      // A custom header the service allows is sent beside the computed signature.
      const ok = await runFormctl(['webhook', 'send', url, '--secret-file', secretFile, '--header', 'X-Api-Key: k1'], { env: home.env });
      expect(ok.code).toBe(0);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ 'x-api-key': 'k1', 'x-webhook-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/) });
    } finally {
      await new Promise((r) => receiver.close(r));
      home.cleanup();
    }
  });
});
