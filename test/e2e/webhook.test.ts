import { type ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnTracked as spawn } from '../helpers/processes.js';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

/** A long-running `formctl webhook listen`, read line by line. */
interface Listen {
  url: string;
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the n-th NDJSON record (1-based) once it has been printed. */
  record(n: number): Promise<Record<string, any>>;
  stop(): Promise<number | null>;
}

function startListen(args: string[], env: NodeJS.ProcessEnv): Promise<Listen> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
    });
    let out = '';
    let err = '';
    const waiters: Array<() => void> = [];
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      for (const w of waiters.splice(0)) w();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /^Listening on (http:\/\/\S+)$/m.exec(err);
      if (m) {
        resolve({
          url: m[1]!,
          child,
          stdout: () => out,
          stderr: () => err,
          record: (n) =>
            new Promise((res) => {
              const check = () => {
                const lines = out.split('\n').filter(Boolean);
                if (lines.length >= n) res(JSON.parse(lines[n - 1]!));
                else waiters.push(check);
              };
              check();
            }),
          stop: () => {
            child.kill('SIGINT');
            return exited;
          },
        });
      }
    });
    child.on('error', reject);
    void exited.then((code) => reject(new Error(`listen exited early (${code}): ${err}`)));
  });
}

const fx = useSandboxFixture({ allowPrivateWebhooks: true, seed: 1 });
let slug: string;

beforeAll(() => {
  slug = fx.sb.formSlug!;
});

/** A public answer to the demo form: triggers deliveries. */
async function submit(name: string): Promise<void> {
  const res = await fetch(`${fx.sb.url}/forms/${slug}/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email: 'ada@example.com' }),
  });
  expect(res.status).toBeLessThan(300);
  await res.arrayBuffer();
  await fx.sb.admin.deliveries();
}

describe('webhook: full loop with the sandbox, listen, verify and rotate-secret', () => {
  it('delivers signed submissions that listen and verify accept; after rotation the old secret fails', async () => {
    const secret = randomBytes(24).toString('hex');
    const secretFile = join(fx.home.dir, 'secret.txt');
    writeFileSync(secretFile, `${secret}\n`);
    const saveDir = join(fx.home.dir, 'deliveries');
    const listen = await startListen(['--ndjson', '--secret-file', secretFile, '--save-dir', saveDir], fx.env);
    try {
      const created = await runFormctl(['webhook', 'create', slug, '--url', `${listen.url}/hook`, '--secret-file', secretFile, '--allow-private', '--json'], {
        env: fx.env,
      });
      expect(created.stderr).toContain('warning: --allow-private: not checking HTTPS or public addresses');
      expect(created.code).toBe(0);
      const hook = JSON.parse(created.stdout);
      expect(hook).toMatchObject({
        form_id: fx.sb.formId,
        integration_id: 'webhook',
        status: 'active',
        data: { webhook_url: `${listen.url}/hook`, webhook_secret: `••••${secret.slice(-4)}`, webhook_headers: {} },
      });
      expect(created.stdout + created.stderr).not.toContain(secret);

      await submit('Ada');
      const first = await listen.record(1);
      expect(first).toMatchObject({ seq: 1, method: 'POST', path: '/hook', signature: { verdict: 'valid', reason: null }, response_status: 200 });
      expect(first.body).toMatchObject({ form_id: fx.sb.formId, form_slug: slug, submission: { Name: 'Ada' } });
      expect(first.headers['X-Webhook-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      // listen --ndjson prints the signature header (an HMAC), never the secret itself.
      expect(listen.stdout()).not.toContain(secret);

      const verify1 = await runFormctl(
        ['webhook', 'verify', '--secret-file', secretFile, '--header-file', first.saved.headers, '--body-file', first.saved.body],
        { env: fx.env },
      );
      expect(verify1).toEqual({ code: 0, stdout: `Signature is valid (${first.body_bytes} bytes).\n`, stderr: '' });

      const events1 = await runFormctl(['webhook', 'events', slug, String(hook.id), '--json', 'status,response_code,event'], { env: fx.env });
      expect(events1.code).toBe(0);
      expect(JSON.parse(events1.stdout)).toEqual([{ status: 'success', response_code: 200, event: 'submission.created' }]);

      const rotated = await runFormctl(['webhook', 'rotate-secret', slug, String(hook.id)], { env: fx.env });
      expect(rotated.code).toBe(0);
      const newSecret = rotated.stdout.trim();
      expect(rotated.stdout).toMatch(/^[0-9a-f]{64}\n$/);
      expect(rotated.stderr).toBe(
        'warning: every delivery from now on is signed with the new secret: receivers still using the old one will fail verification until you update them.\n',
      );
      const newSecretFile = join(fx.home.dir, 'new-secret.txt');
      writeFileSync(newSecretFile, newSecret);

      await submit('Grace');
      const second = await listen.record(2);
      expect(second).toMatchObject({ seq: 2, signature: { verdict: 'invalid', reason: 'mismatch' }, response_status: 401 });

      const oldVerify = await runFormctl(
        ['webhook', 'verify', '--secret-file', secretFile, '--header-file', second.saved.headers, '--body-file', second.saved.body],
        { env: fx.env },
      );
      expect(oldVerify.code).toBe(1);
      expect(oldVerify.stderr).toMatch(/^error: Invalid signature: the signature does not match this body and secret\.\nhint: /);
      const newVerify = await runFormctl(
        ['webhook', 'verify', '--secret-file', newSecretFile, '--signature', second.headers['X-Webhook-Signature'], '--json'],
        {
          env: fx.env,
          input: readFileSync(second.saved.body),
        },
      );
      expect(newVerify).toEqual({ code: 0, stdout: '{\n  "valid": true,\n  "reason": null,\n  "message": "The signature matches."\n}\n', stderr: '' });
      // --json takes a field list here too, like every other command.
      const onlyValid = await runFormctl(
        ['webhook', 'verify', '--secret-file', newSecretFile, '--signature', second.headers['X-Webhook-Signature'], '--json', 'valid'],
        {
          env: fx.env,
          input: readFileSync(second.saved.body),
        },
      );
      expect(onlyValid).toEqual({ code: 0, stdout: '{\n  "valid": true\n}\n', stderr: '' });

      // The listener (still on the old secret) answered 401, which the service records as a failure.
      const events2 = await runFormctl(['webhook', 'events', slug, String(hook.id), '--status', 'failed', '--json', 'status,response_code'], { env: fx.env });
      expect(JSON.parse(events2.stdout)).toEqual([{ status: 'failed', response_code: 401 }]);

      // The rest of the integration survived the rotation.
      const after = await runFormctl(['webhook', 'get', slug, String(hook.id), '--json', 'status,data', '--show-secret'], { env: fx.env });
      expect(JSON.parse(after.stdout)).toEqual({
        status: 'active',
        data: { webhook_url: `${listen.url}/hook`, webhook_secret: newSecret, webhook_headers: {} },
      });

      // `send` posts a sample shaped like this form's deliveries, signed with the new secret.
      const sent = await runFormctl(['webhook', 'send', `${listen.url}/hook`, '--secret-file', newSecretFile, '--form', slug, '--sample'], { env: fx.env });
      expect(sent).toMatchObject({ code: 1, stdout: 'HTTP 401\n{"message":"Invalid signature."}\n' });
      const third = await listen.record(3);
      expect(third.body).toMatchObject({ form_id: fx.sb.formId, form_slug: slug, submission: { Name: 'Sample name', Email: 'jane.doe@example.com' } });
      const v3 = await runFormctl(
        ['webhook', 'verify', '--secret-file', newSecretFile, '--header-file', third.saved.headers, '--body-file', third.saved.body],
        { env: fx.env },
      );
      expect(v3.code).toBe(0);
      expect(readdirSync(saveDir).sort()).toEqual([
        'delivery-0001.body',
        'delivery-0001.headers',
        'delivery-0002.body',
        'delivery-0002.headers',
        'delivery-0003.body',
        'delivery-0003.headers',
      ]);
    } finally {
      // Ctrl-C is the normal way to stop a listener: exit 0.
      expect(await listen.stop()).toBe(0);
    }
  });
});

describe('webhook create: local validation (exit 2, nothing sent)', () => {
  const cases: Array<[string, string[], string]> = [
    ['http://', ['--url', 'http://hooks.example.com/x'], '  data.webhook_url: The webhook URL must use HTTPS.'],
    [
      'loopback IPv4',
      ['--url', 'https://127.0.0.1/x'],
      '  data.webhook_url: The webhook URL must resolve only to public IP addresses (127.0.0.1, a loopback address).',
    ],
    ['loopback IPv6', ['--url', 'https://[::1]/x'], '  data.webhook_url: The webhook URL must resolve only to public IP addresses (::1, a loopback address).'],
    [
      'metadata',
      ['--url', 'https://169.254.169.254/latest'],
      '  data.webhook_url: The webhook URL must resolve only to public IP addresses (169.254.169.254, a cloud metadata address).',
    ],
    [
      'a name resolving to loopback',
      ['--url', 'https://localhost/x'],
      'data.webhook_url: The webhook URL must resolve only to public IP addresses (localhost resolves to',
    ],
    [
      'over-long header value',
      ['--url', 'https://8.8.8.8/x', '--header', `X-Long: ${'v'.repeat(256)}`],
      "  data.webhook_headers: Header value for 'X-Long' exceeds 255 characters (it has 256).",
    ],
    [
      '11 headers',
      ['--url', 'https://8.8.8.8/x', ...Array.from({ length: 11 }, (_, i) => ['--header', `X-H${i}: v`]).flat()],
      '  data.webhook_headers: Maximum 10 custom headers allowed (got 11).',
    ],
    [
      'blocked header in odd case',
      ['--url', 'https://8.8.8.8/x', '--header', 'x-FoRwArDeD-fOr: 1.2.3.4'],
      "  data.webhook_headers: The 'x-FoRwArDeD-fOr' header cannot be customized for security reasons.",
    ],
  ];
  it.each(cases)('refuses %s', async (_name, args, line) => {
    const r = await runFormctl(['webhook', 'create', slug, ...args], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith('error: The webhook settings would be rejected by the service:\n')).toBe(true);
    expect(r.stderr).toContain(line);
    expect(r.stderr).toMatch(/\nhint: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports a short secret under data.webhook_secret without echoing it', async () => {
    const r = await runFormctl(['webhook', 'create', slug, '--url', 'https://8.8.8.8/x', '--secret-stdin'], { env: fx.env, input: 'tiny-secret\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('  data.webhook_secret: The webhook secret must be at least 12 characters (it has 11).');
    expect(r.stderr).not.toContain('tiny-secret');
  });

  it('sent nothing to the service', async () => {
    const r = await runFormctl(['webhook', 'list', slug, '--json', 'id'], { env: fx.env });
    // Only the full-loop test's integration exists.
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });

  it('has no --secret flag: secrets do not belong in shell history', async () => {
    const r = await runFormctl(['webhook', 'create', slug, '--url', 'https://8.8.8.8/x', '--secret', 'abcdefghijklmnop'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--secret'");
  });
});

describe('webhook secrets stay out of output', () => {
  it('--generate-secret prints the secret once; list, get and --debug never show it, nor header values, unless asked', async () => {
    const key = 'key-9f2c41e7d05b';
    const created = await runFormctl(
      [
        'webhook',
        'create',
        slug,
        '--url',
        'http://127.0.0.1:9/never',
        '--generate-secret',
        '--allow-private',
        '--inactive',
        '--header',
        'X-Env: test',
        '--header',
        `X-Api-Key: ${key}`,
        '--debug',
      ],
      { env: fx.env },
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    const secret = created.stdout.trim();
    expect(created.stderr).toContain('[debug] > POST');
    expect(created.stderr).toContain(`note: created webhook 2 on form ${slug}; stdout holds its signing secret.\n`);
    expect(created.stderr).not.toContain(secret);
    expect(created.stderr).not.toContain(key);

    const list = await runFormctl(['webhook', 'list', slug, '--debug'], { env: fx.env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`\tinactive\thttp://127.0.0.1:9/never\t••••${secret.slice(-4)}\tX-Env, X-Api-Key\t`);
    const note =
      'note: the values of the custom headers X-Env, X-Api-Key are masked (••••): they may hold credentials. Pass --show-secret to print them (and the signing secret) in full.\n';
    expect(list.stderr).not.toContain(note);
    for (const args of [
      ['list', slug, '--json'],
      ['get', slug, '2'],
      ['get', slug, '2', '--json'],
      ['list', slug, '--ndjson'],
    ]) {
      const r = await runFormctl(['webhook', ...args, '--debug'], { env: fx.env });
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(secret);
      expect(r.stdout + r.stderr).not.toContain(key);
      expect(r.stderr).toContain(note);
    }
    const masked = await runFormctl(['webhook', 'get', slug, '2', '--json', 'data'], { env: fx.env });
    expect(JSON.parse(masked.stdout)).toEqual({
      data: { webhook_url: 'http://127.0.0.1:9/never', webhook_secret: `••••${secret.slice(-4)}`, webhook_headers: { 'X-Env': '••••', 'X-Api-Key': '••••' } },
    });
    expect(masked.stderr).toBe(note);
    const table = await runFormctl(['webhook', 'get', slug, '2'], { env: fx.env });
    expect(table.stdout).toContain('headers\tX-Env: ••••, X-Api-Key: ••••\n');
    const other = await runFormctl(['webhook', 'get', slug, '2', '--json', 'id,status'], { env: fx.env });
    expect(other.stderr).toBe('');
    const shown = await runFormctl(['webhook', 'get', slug, '2', '--json', 'data', '--show-secret'], { env: fx.env });
    expect(JSON.parse(shown.stdout)).toEqual({
      data: { webhook_url: 'http://127.0.0.1:9/never', webhook_secret: secret, webhook_headers: { 'X-Env': 'test', 'X-Api-Key': key } },
    });
    expect(shown.stderr).toBe('');
  });

  it('update keeps the secret and headers it was not asked to change, then delete needs --yes', async () => {
    const before = JSON.parse((await runFormctl(['webhook', 'get', slug, '2', '--json', 'data', '--show-secret'], { env: fx.env })).stdout);
    const upd = await runFormctl(['webhook', 'update', slug, '2', '--activate', '--header', 'X-Team: forms', '--allow-private'], { env: fx.env });
    expect(upd.code).toBe(0);
    const after = JSON.parse((await runFormctl(['webhook', 'get', slug, '2', '--json', 'status,data', '--show-secret'], { env: fx.env })).stdout);
    expect(after).toEqual({
      status: 'active',
      data: { ...before.data, webhook_headers: { 'X-Env': 'test', 'X-Api-Key': 'key-9f2c41e7d05b', 'X-Team': 'forms' } },
    });

    const refused = await runFormctl(['webhook', 'delete', slug, '2'], { env: fx.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('error: Delete webhook 2 of form ' + slug + ': refusing without confirmation.\nhint: Pass --yes to confirm.\n');
    const del = await runFormctl(['webhook', 'delete', slug, '2', '--yes'], { env: fx.env });
    expect(del).toEqual({ code: 0, stdout: '', stderr: '' });
    const gone = await runFormctl(['webhook', 'get', slug, '2'], { env: fx.env });
    expect(gone.code).toBe(6);
  });
});

describe('webhook events --follow', () => {
  it('prints new records as NDJSON as they arrive, and exits 0 on Ctrl-C', async () => {
    // Its own webhook, to a port nobody listens on: every delivery is a `failed` record.
    const created = await runFormctl(['webhook', 'create', slug, '--url', 'http://127.0.0.1:9/down', '--allow-private', '--json', 'id'], { env: fx.env });
    const { id } = JSON.parse(created.stdout) as { id: number };
    const child = spawn(process.execPath, [BIN, 'webhook', 'events', slug, String(id), '--follow', '--interval', '1', '--json', 'id,status'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...fx.env },
    });
    let out = '';
    let waiter: (() => void) | undefined;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      waiter?.();
    });
    const lines = (n: number) =>
      new Promise<void>((r) => {
        waiter = () => out.split('\n').filter(Boolean).length >= n && r();
        waiter();
      });
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    // Whether a record lands before the first poll or after it, it is printed once, oldest first.
    await submit('Linus');
    await lines(1);
    await submit('Ken');
    await lines(2);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const records = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; status: string });
    expect(records.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(records[0]!.id).toBeLessThan(records[1]!.id);
  });
});

describe('webhook create piped', () => {
  it('prints only the new id, so ID=$(formctl webhook create …) works', async () => {
    const created = await runFormctl(['webhook', 'create', slug, '--url', 'http://127.0.0.1:9/piped', '--allow-private', '--inactive'], { env: fx.env });
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^\d+\n$/);
    const id = created.stdout.trim();
    const got = await runFormctl(['webhook', 'get', slug, id, '--json', 'id,status'], { env: fx.env });
    expect(JSON.parse(got.stdout)).toEqual({ id: Number(id), status: 'inactive' });
  });
});

describe('webhook listen on a port in use', () => {
  it("exits 1 (the machine, not the command) with the sandbox's advice", async () => {
    const port = Number(new URL(fx.sb.url).port);
    const r = await runFormctl(['webhook', 'listen', '--port', String(port)], { env: fx.env });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: Port ${port} is in use.\nhint: Pick another --port (0 picks a free one).\n` });
  });
});
