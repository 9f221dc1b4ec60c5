import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { afterEach, describe, expect, it } from 'vitest';
import { PRIVATE_NOTE, deliveryRecord, isPrivateHost, webhookListenRun } from '../../../src/commands/webhook/listen.js';
import newWebhookCommand from '../../../src/commands/webhook/index.js';
import { CliError } from '../../../src/errors.js';
import type { Factory } from '../../../src/factory.js';
import { WEBHOOK_ANSWER_LIMIT, postRaw } from '../../../src/webhooks/http.js';
import { DEFAULT_MAX_BODY_BYTES, type Delivery, type Listener, startListener } from '../../../src/webhooks/listener.js';
import { signBody } from '../../../src/webhooks/signature.js';
import { fakeIO } from '../../helpers/io.js';
import { type StubServer, startStubServer } from '../../helpers/http.js';
import { type NeverEndingReceiver, RECEIVER_STOPS_AT, startNeverEndingReceiver } from '../../helpers/never-ending-receiver.js';

const SECRET = 'listener-secret-123456';
const body = Buffer.from('{"form_id":1,"submission_id":5}');
const open: Array<Listener | StubServer | NeverEndingReceiver> = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function listener(o: { secret?: string; forwardTo?: URL; saveDir?: string; maxBodyBytes?: number; maxAnswerBytes?: number; forwardTimeoutMs?: number }) {
  const got: Delivery[] = [];
  const l = await startListener({ host: '127.0.0.1', port: 0, now: () => new Date('2025-01-01T00:00:00Z'), onDelivery: (d) => void got.push(d), ...o });
  open.push(l);
  return { l, got };
}

const post = (url: string, headers: Record<string, string>) =>
  postRaw(new URL(url), { headers: { 'content-type': 'application/json', ...headers }, body, timeoutMs: 5000 });

describe('startListener', () => {
  it('verifies the raw bytes: 200 for a valid signature, 401 for a wrong or missing one', async () => {
    const { l, got } = await listener({ secret: SECRET });
    expect((await post(`${l.url}/hook`, { 'X-Webhook-Signature': signBody(SECRET, body) })).status).toBe(200);
    expect((await post(`${l.url}/hook`, { 'X-Webhook-Signature': signBody('other-secret-000', body) })).status).toBe(401);
    expect((await post(`${l.url}/hook`, {})).status).toBe(401);
    expect(got.map((d) => [d.seq, d.path, d.signature.verdict, d.signature.reason, d.responseStatus])).toEqual([
      [1, '/hook', 'valid', undefined, 200],
      [2, '/hook', 'invalid', 'mismatch', 401],
      [3, '/hook', 'invalid', 'missing', 401],
    ]);
    expect(got[0]!.body.equals(body)).toBe(true);
  });

  it('without a secret leaves signatures unchecked and answers 200; GET is a health check', async () => {
    const { l, got } = await listener({});
    expect((await post(l.url, {})).status).toBe(200);
    expect(got[0]!.signature).toEqual({ verdict: 'unchecked' });
    expect((await postRaw(new URL(l.url), { method: 'GET', headers: {}, body: Buffer.alloc(0), timeoutMs: 5000 })).status).toBe(200);
    expect(got).toHaveLength(1);
  });

  it("forwards the bytes and headers unchanged and passes the target's answer back", async () => {
    const target = await startStubServer((_req, res) => {
      res.writeHead(202, { 'content-type': 'text/plain' });
      res.end('queued');
    });
    open.push(target);
    const { l, got } = await listener({ secret: SECRET, forwardTo: new URL(`${target.url}/app`) });
    const sig = signBody(SECRET, body);
    const res = await post(`${l.url}/hook?x=1`, { 'X-Webhook-Signature': sig, 'X-Env': 'dev' });
    expect(res.status).toBe(202);
    expect(res.body.toString()).toBe('queued');
    const fwd = target.requests[0]!;
    expect(fwd.url).toBe('/app/hook?x=1');
    expect(fwd.body).toBe(body.toString());
    expect(fwd.headers['x-webhook-signature']).toBe(sig);
    expect(fwd.headers['x-env']).toBe('dev');
    expect(got[0]!.forward).toEqual({ url: `${target.url}/app/hook?x=1`, status: 202 });
  });

  it('a delivery whose signature is not valid is answered 401 and not forwarded; listen says so', async () => {
    const target = await startStubServer((_req, res) => {
      res.writeHead(200);
      res.end('ok');
    });
    open.push(target);
    const { l, got } = await listener({ secret: SECRET, forwardTo: new URL(`${target.url}/app`) });
    expect((await post(`${l.url}/hook`, { 'X-Webhook-Signature': signBody('stale-secret-0000', body) })).status).toBe(401);
    expect((await post(`${l.url}/hook`, {})).status).toBe(401);
    expect(target.requests).toHaveLength(0);
    expect(got.map((d) => [d.forward, d.held, d.responseStatus])).toEqual([
      [undefined, `${target.url}/app`, 401],
      [undefined, `${target.url}/app`, 401],
    ]);
    expect((await post(`${l.url}/hook`, { 'X-Webhook-Signature': signBody(SECRET, body) })).status).toBe(200);
    expect(target.requests).toHaveLength(1);
  });

  it('a failed forward answers 502 and says why', async () => {
    const gone = await startStubServer(() => undefined);
    const url = gone.url;
    await gone.close();
    const { l, got } = await listener({ forwardTo: new URL(url) });
    expect((await post(l.url, {})).status).toBe(502);
    // In words, as the API client says it; the errno stays in `code` for scripts.
    expect(got[0]!.forward).toEqual({ url: `${url}/`, error: `Connection refused by ${new URL(url).host}`, code: 'ECONNREFUSED' });
  });

  it('listen prints a failed forward in words, and its NDJSON record keeps the code', async () => {
    const gone = await startStubServer(() => undefined);
    const target = gone.url;
    await gone.close();
    const host = new URL(target).host;
    for (const json of [undefined, true] as const) {
      const io = fakeIO();
      const controller = new AbortController();
      let url = '';
      let onListening: () => void = () => undefined;
      const listening = new Promise<void>((r) => (onListening = r));
      const done = webhookListenRun({
        io: io.io,
        now: () => new Date('2025-01-01T00:00:00Z'),
        signal: controller.signal,
        port: 0,
        host: '127.0.0.1',
        forwardTo: target,
        json,
        onListening: (u) => {
          url = u;
          onListening();
        },
      });
      await listening;
      expect((await post(`${url}/x`, {})).status).toBe(502);
      controller.abort();
      await done;
      if (json)
        expect(JSON.parse(io.out()).forward).toEqual({
          url: `${target}/x`,
          status: null,
          error: `Connection refused by ${host}`,
          code: 'ECONNREFUSED',
          response_truncated: false,
        });
      else expect(io.out()).toContain(`→ forward to ${target}/x failed: connection refused by ${host}\n`);
    }
    // The first forward may be slow on a loaded 2-core runner.
  });

  it('--save-dir writes the raw body and header lines, numbering after existing files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'formctl-listen-'));
    dirs.push(dir);
    const { l, got } = await listener({ saveDir: dir });
    await post(l.url, { 'X-Webhook-Signature': 'sha256=abc' });
    expect(readFileSync(join(dir, 'delivery-0001.body')).equals(body)).toBe(true);
    // Deliveries hold answers and the receiver's custom headers: private to the user.
    expect(statSync(join(dir, 'delivery-0001.body')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'delivery-0001.headers')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'delivery-0001.headers'), 'utf8')).toMatch(/^content-type: application\/json\nX-Webhook-Signature: sha256=abc\n/);
    await l.close();
    open.length = 0;
    const again = await listener({ saveDir: dir });
    await post(again.l.url, {});
    expect(again.got[0]!.saved?.body).toBe(join(dir, 'delivery-0002.body'));
    expect(got).toHaveLength(1);
  });
});

describe('startListener forward bounds', () => {
  it('a target whose answer never ends: its status and the first bytes are passed back, the cut is recorded', async () => {
    const target = await startNeverEndingReceiver('endless');
    open.push(target);
    const { l, got } = await listener({ forwardTo: new URL(target.url), maxAnswerBytes: 1000 });
    const res = await post(`${l.url}/`, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(Buffer.alloc(1000, 'a'));
    expect(got[0]!.forward).toEqual({ url: target.url, status: 200, truncated: true });
    expect(deliveryRecord(got[0]!).forward).toEqual({ url: target.url, status: 200, error: null, code: null, response_truncated: true });
    await target.hungUp();
    expect(target.written()).toBeLessThan(RECEIVER_STOPS_AT);
  });

  it('reads at most WEBHOOK_ANSWER_LIMIT (1 MiB) by default', async () => {
    const target = await startNeverEndingReceiver('endless');
    open.push(target);
    const { l, got } = await listener({ forwardTo: new URL(target.url) });
    const res = await post(`${l.url}/`, {});
    expect([res.status, res.body.length]).toEqual([200, WEBHOOK_ANSWER_LIMIT]);
    expect(got[0]!.forward?.truncated).toBe(true);
  });

  it("listen says on the delivery's line that the answer was cut", async () => {
    const target = await startNeverEndingReceiver('endless');
    open.push(target);
    const io = fakeIO();
    const controller = new AbortController();
    let onListening: (u: string) => void = () => undefined;
    const listening = new Promise<string>((r) => (onListening = r));
    const done = webhookListenRun({
      io: io.io,
      now: () => new Date('2025-01-01T00:00:00Z'),
      signal: controller.signal,
      port: 0,
      host: '127.0.0.1',
      forwardTo: target.url,
      onListening,
    });
    const res = await post(await listening, {});
    controller.abort();
    await done;
    expect([res.status, res.body.length]).toEqual([200, WEBHOOK_ANSWER_LIMIT]);
    expect(io.out()).toContain(`→ forwarded to ${target.url}: HTTP 200 (answer cut: only its first 1 MiB passed back)\n`);
  });

  it('a target trickling its answer times out at the forward timeout, for the whole exchange: 502, in words', async () => {
    const target = await startNeverEndingReceiver('trickle');
    open.push(target);
    const { l, got } = await listener({ forwardTo: new URL(target.url), forwardTimeoutMs: 1000 });
    expect((await post(`${l.url}/`, {})).status).toBe(502);
    expect(got[0]!.forward).toEqual({ url: target.url, error: `No answer from ${new URL(target.url).host} within 1 s`, code: 'ETIMEDOUT' });
  });
});

describe('startListener body limit', () => {
  it('answers 413 to a body over the limit without buffering or recording it, and keeps serving', async () => {
    const { l, got } = await listener({ maxBodyBytes: 64 });
    const big = await postRaw(new URL(`${l.url}/hook`), { headers: {}, body: Buffer.alloc(200, 'a'), timeoutMs: 5000 });
    expect(big.status).toBe(413);
    expect(got).toEqual([]);
    expect((await post(`${l.url}/hook`, {})).status).toBe(200);
    expect(got).toHaveLength(1);
  });

  it('counts the bytes of a chunked body too (no Content-Length)', async () => {
    const { l, got } = await listener({ maxBodyBytes: 64 });
    const status = await new Promise<number | string>((resolve) => {
      const req = http.request(`${l.url}/hook`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      req.write(Buffer.alloc(50, 'a'));
      req.write(Buffer.alloc(50, 'b'));
    });
    // The listener answers 413 and drops the connection; either is a refusal, and nothing is recorded.
    expect([413, 'ECONNRESET', 'EPIPE']).toContain(status);
    expect(got).toEqual([]);
  });

  it('defaults to a limit (10 MiB), far above any delivery', () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(10 * 1024 * 1024);
  });
});

describe('webhookListenRun', () => {
  it('human output shows escape sequences in the path, headers and a text body instead of sending them to the terminal', async () => {
    const io = fakeIO({ tty: true });
    const controller = new AbortController();
    let url = '';
    let onListening: () => void = () => undefined;
    const listening = new Promise<void>((r) => (onListening = r));
    const done = webhookListenRun({
      io: io.io,
      now: () => new Date('2025-01-01T00:00:00Z'),
      signal: controller.signal,
      port: 0,
      host: '127.0.0.1',
      onListening: (u) => {
        url = u;
        onListening();
      },
    });
    await listening;
    await postRaw(new URL(`${url}/x`), {
      headers: { 'content-type': 'text/plain', 'X-Note': 'caf\u00e9 \u009b2J' },
      body: Buffer.from('hello \x1b]0;pwned\x07\x1b[2J\r\n'),
      timeoutMs: 5000,
    });
    await postRaw(new URL(`${url}/json`), { headers: { 'content-type': 'application/json' }, body: Buffer.from('{"name":"a\u009bb"}'), timeoutMs: 5000 });
    controller.abort();
    await done;
    // eslint-disable-next-line no-control-regex
    expect(io.out()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(io.out()).toContain('hello \\x1b]0;pwned\\x07\\x1b[2J\\x0d');
    expect(io.out()).toContain('X-Note: café \\x9b2J');
    // JSON.stringify leaves DEL and C1 as they are: the pretty-printed JSON body is escaped too.
    expect(io.out()).toContain('"name": "a\\x9bb"');
  });

  it('prints the URL to stderr, one NDJSON record per delivery, and stops on abort', async () => {
    const io = fakeIO();
    const controller = new AbortController();
    let url = '';
    let onListening: () => void = () => undefined;
    const listening = new Promise<void>((r) => (onListening = r));
    const done = webhookListenRun({
      io: io.io,
      now: () => new Date('2025-01-01T00:00:00Z'),
      signal: controller.signal,
      port: 0,
      host: '127.0.0.1',
      json: true,
      onListening: (u) => {
        url = u;
        onListening();
      },
    });
    await listening;
    await post(`${url}/x`, {});
    controller.abort();
    await done;
    // A private address: it says plainly that the hosted service cannot deliver here, and what can.
    expect(io.err()).toBe(`Listening on ${url}\nNot checking signatures (pass --secret-file). Press Ctrl-C to stop.\n${PRIVATE_NOTE}\n`);
    const rec = JSON.parse(io.out());
    expect(rec).toMatchObject({
      seq: 1,
      received_at: '2025-01-01T00:00:00.000Z',
      method: 'POST',
      path: '/x',
      body: { form_id: 1, submission_id: 5 },
      body_bytes: body.length,
      signature: { verdict: 'unchecked', reason: null, message: null },
      forward: null,
      response_status: 200,
      saved: null,
    });
  });

  it('a port in use is an environment problem: exit 1 with the way out, as `formctl sandbox` says it', async () => {
    const busy = await startStubServer(() => undefined);
    open.push(busy);
    const port = Number(new URL(busy.url).port);
    const io = fakeIO();
    const err = await webhookListenRun({ io: io.io, now: () => new Date(), signal: new AbortController().signal, port, host: '127.0.0.1' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CliError);
    expect(err).toMatchObject({ exitCode: 2, message: `Port ${port} is in use.`, hint: 'Pick another --port (0 picks a free one).' });
    expect(io.err()).toBe('');
  });

  it('deliveryRecord keeps a non-JSON body as text', () => {
    const d: Delivery = {
      seq: 1,
      receivedAt: new Date(0),
      method: 'POST',
      path: '/',
      rawHeaders: [
        ['A', '1'],
        ['A', '2'],
      ],
      body: Buffer.from('plain'),
      signature: { verdict: 'unchecked' },
      responseStatus: 200,
    };
    expect(deliveryRecord(d)).toMatchObject({ body: 'plain', headers: { A: '1, 2' } });
  });
});

describe('webhook command tree', () => {
  const cmd = newWebhookCommand({} as Factory);
  const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];

  it('every verb has a description and an Examples block', () => {
    for (const c of all(cmd)) {
      expect(c.description()).not.toBe('');
      const help: string[] = [];
      c.configureOutput({ writeOut: (s) => void help.push(s) });
      c.outputHelp();
      expect(help.join('')).toContain('Examples:');
    }
  });

  it('no verb takes the secret value as a flag (it would land in shell history)', () => {
    for (const c of all(cmd)) for (const o of c.options) expect(o.long).not.toBe('--secret');
  });
});

describe('isPrivateHost', () => {
  it('loopback, private, link-local and unspecified addresses are private; a public one is not', async () => {
    for (const h of ['127.0.0.1', 'localhost', '::1', '[::1]', '10.1.2.3', '192.168.0.5', '0.0.0.0', '::', 'fe80::1'])
      expect(await isPrivateHost(h), h).toBe(true);
    for (const h of ['93.184.216.34', '2606:2800:220:1::1']) expect(await isPrivateHost(h), h).toBe(false);
  });
});
