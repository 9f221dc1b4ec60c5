// The wire's direct path (node:http): what fetch used to give the client for free, given here by
// src/api/transport.ts itself: decoding, the download's idle timeouts, abort reasons, the request's
// headers, unread bodies dropping their connection, no redirect followed, sockets reused.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { codedError, discardBody, exchange } from '../../../src/api/transport.js';

interface Stub {
  url: URL;
  requests: IncomingMessage[];
  sockets: Set<Socket>;
  closed: () => number;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function stub(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Stub> {
  const requests: IncomingMessage[] = [];
  const sockets = new Set<Socket>();
  let closed = 0;
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => closed++);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`), requests, sockets, closed: () => closed };
}

async function text(body: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const CSV = 'id,name\n1,Ada\n2,Grace\n'.repeat(50);

describe('decoding', () => {
  it.each([
    ['gzip', gzipSync(CSV)],
    ['x-gzip', gzipSync(CSV)],
    ['deflate', deflateSync(CSV)],
    ['deflate', deflateRawSync(CSV)],
    ['br', brotliCompressSync(CSV)],
    ['gzip, br', brotliCompressSync(gzipSync(CSV))],
    ['identity', Buffer.from(CSV)],
  ])('Content-Encoding %s is undone as the body streams', async (coding, bytes) => {
    const s = await stub((_req, res) => res.writeHead(200, { 'content-encoding': coding }).end(bytes));
    const res = await exchange({ url: s.url, method: 'GET', headers: {} });
    expect(res.statusCode).toBe(200);
    expect(await text(res.body)).toBe(CSV);
  });

  it('a coding it cannot undo leaves the body as sent', async () => {
    const s = await stub((_req, res) => res.writeHead(200, { 'content-encoding': 'zstd' }).end('raw'));
    const res = await exchange({ url: s.url, method: 'GET', headers: {} });
    expect(await text(res.body)).toBe('raw');
  });

  it('a truncated gzip body fails the read, not a short file', async () => {
    const whole = gzipSync(CSV);
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(whole.length) });
      res.write(whole.subarray(0, whole.length >> 1), () => res.socket?.destroy());
    });
    const res = await exchange({ url: s.url, method: 'GET', headers: {} });
    await expect(text(res.body)).rejects.toThrow();
  });
});

describe('timeouts and aborts', () => {
  it('a download with no headers within its idle timeout fails with UND_ERR_HEADERS_TIMEOUT', async () => {
    const s = await stub(() => undefined);
    await expect(exchange({ url: s.url, method: 'GET', headers: {}, idleTimeoutMs: 100 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  it('a download body silent for its idle timeout fails its read with UND_ERR_BODY_TIMEOUT', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('id\n');
    });
    const res = await exchange({ url: s.url, method: 'GET', headers: {}, idleTimeoutMs: 100 });
    await expect(text(res.body)).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('the same, for a compressed body', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.write(gzipSync(CSV).subarray(0, 20));
    });
    const res = await exchange({ url: s.url, method: 'GET', headers: {}, idleTimeoutMs: 100 });
    await expect(text(res.body)).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it("an abort before the answer rejects with the signal's reason", async () => {
    const s = await stub(() => undefined);
    const ac = new AbortController();
    const p = exchange({ url: s.url, method: 'GET', headers: {}, signal: ac.signal });
    await new Promise((r) => setImmediate(r));
    ac.abort(codedError('exchange timeout', 'FORMCTL_EXCHANGE_TIMEOUT'));
    await expect(p).rejects.toMatchObject({ code: 'FORMCTL_EXCHANGE_TIMEOUT' });
  });

  it("an abort during the body fails its read with the signal's reason (also before anyone reads it)", async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[1,');
    });
    const ac = new AbortController();
    const res = await exchange({ url: s.url, method: 'GET', headers: {}, signal: ac.signal });
    ac.abort(codedError('exchange timeout', 'FORMCTL_EXCHANGE_TIMEOUT'));
    await new Promise((r) => setTimeout(r, 20));
    await expect(text(res.body)).rejects.toMatchObject({ code: 'FORMCTL_EXCHANGE_TIMEOUT' });
  });
  it("the same through a decoder: an abort during a gzip body fails its read with the signal's reason", async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.write(gzipSync(CSV).subarray(0, 20));
    });
    const ac = new AbortController();
    const res = await exchange({ url: s.url, method: 'GET', headers: {}, signal: ac.signal });
    ac.abort(codedError('exchange timeout', 'FORMCTL_EXCHANGE_TIMEOUT'));
    await new Promise((r) => setTimeout(r, 20));
    await expect(text(res.body)).rejects.toMatchObject({ code: 'FORMCTL_EXCHANGE_TIMEOUT' });
  });
});

describe('the request', () => {
  it('sends header names lower-cased, one of each, compression offered, and the body with its length', async () => {
    const s = await stub((req, res) => req.resume().on('end', () => res.end()));
    const res = await exchange({ url: s.url, method: 'POST', headers: { 'Accept-Encoding': 'identity', 'X-Thing': 'a' }, body: 'héllo' });
    await text(res.body);
    const h = s.requests[0]!.rawHeaders;
    expect(h.filter((n, i) => i % 2 === 0 && n.toLowerCase() === 'accept-encoding')).toEqual(['accept-encoding']);
    expect(s.requests[0]!.headers).toMatchObject({ 'accept-encoding': 'identity', 'x-thing': 'a', 'content-length': '6' });
    expect(s.requests[0]!.headers['transfer-encoding']).toBeUndefined();
  });

  it('a POST without a body says Content-Length: 0 (not chunked), a GET says nothing', async () => {
    const s = await stub((req, res) => req.resume().on('end', () => res.end()));
    await text((await exchange({ url: s.url, method: 'POST', headers: {} })).body);
    await text((await exchange({ url: s.url, method: 'GET', headers: {} })).body);
    expect(s.requests.map((r) => [r.headers['content-length'], r.headers['transfer-encoding']])).toEqual([
      ['0', undefined],
      [undefined, undefined],
    ]);
    expect(s.requests[0]!.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it.each([
    ['node:http (direct)', undefined],
    ['fetch (with a dispatcher, as through a proxy)', 'agent'],
  ])('%s: credentials in the URL go as Basic authorization, and an Authorization header given wins', async (_name, kind) => {
    const { Agent } = (await import('undici')).default;
    const dispatcher = kind ? new Agent() : undefined;
    try {
      const s = await stub((req, res) => req.resume().on('end', () => res.end()));
      const url = new URL(s.url);
      url.username = 'b%40b';
      url.password = 'p%3Ass';
      await text((await exchange({ url, method: 'POST', headers: {}, body: '{}', dispatcher })).body);
      await text((await exchange({ url, method: 'GET', headers: { Authorization: 'Bearer t' }, dispatcher })).body);
      expect(s.requests.map((r) => r.headers.authorization)).toEqual([`Basic ${Buffer.from('b@b:p:ss').toString('base64')}`, 'Bearer t']);
      expect(s.requests.map((r) => r.url)).toEqual(['/x', '/x']);
    } finally {
      await dispatcher?.close();
    }
  });

  it('an invalid header value is refused before anything is sent', async () => {
    const s = await stub((_req, res) => res.end());
    await expect(exchange({ url: s.url, method: 'GET', headers: { 'x-bad': 'a\nb' } })).rejects.toMatchObject({ code: 'ERR_INVALID_CHAR' });
    expect(s.requests).toHaveLength(0);
  });
});

describe('answers and connections', () => {
  it('a redirect is handed back, not followed', async () => {
    const s = await stub((_req, res) => res.writeHead(302, { location: 'http://elsewhere.example/' }).end());
    const res = await exchange({ url: s.url, method: 'GET', headers: {} });
    expect([res.statusCode, res.headers.location]).toEqual([302, 'http://elsewhere.example/']);
    await text(res.body);
    expect(s.requests).toHaveLength(1);
  });

  it('repeated headers come back as the client reads them: set-cookie a list, the rest one value', async () => {
    const s = await stub((_req, res) => {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.setHeader('x-ratelimit-remaining', '7');
      res.end('{}');
    });
    const res = await exchange({ url: s.url, method: 'GET', headers: {} });
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.headers['x-ratelimit-remaining']).toBe('7');
    await text(res.body);
  });

  it('answers read to the end reuse one connection', async () => {
    const s = await stub((_req, res) => res.end('[]'));
    for (let i = 0; i < 3; i++) await text((await exchange({ url: s.url, method: 'GET', headers: {} })).body);
    expect(s.requests).toHaveLength(3);
    expect(s.sockets.size).toBe(1);
  });

  it('a body left unread and discarded drops its connection', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('id\n');
    });
    const res = await exchange({ url: s.url, method: 'GET', headers: {} });
    discardBody(res.body);
    await expect.poll(() => s.closed()).toBe(1);
  });
});
