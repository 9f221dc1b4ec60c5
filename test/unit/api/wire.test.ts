import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as TlsServer, createServer as createTlsServer } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BodySink, type WireRequest, decoderFor, parseHead, wireRequest } from '../../../src/api/wire.js';
import { HAS_OPENSSL, selfSignedCert } from '../../helpers/tls.js';

/** A raw TCP server: `answer` gets the request head and the socket, and writes whatever bytes a test needs. */
interface RawServer {
  url: string;
  heads: string[];
  server: Server;
}
let servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  // Timeout tests leave connections open on purpose; close() would wait for them.
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  for (const s of servers) await new Promise((r) => s.close(r));
  servers = [];
});

async function rawServer(answer: (socket: Socket, head: string, body: Buffer) => void, server: Server = createServer()): Promise<RawServer> {
  const heads: string[] = [];
  const onSocket = (socket: Socket) => {
    sockets.add(socket);
    let got = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      got = Buffer.concat([got, d]);
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = got.subarray(0, end).toString('latin1');
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (got.length < end + 4 + length) return;
      socket.off('data', onData);
      heads.push(head);
      answer(socket, head, got.subarray(end + 4, end + 4 + length));
    };
    socket.on('data', onData);
    socket.on('error', () => undefined);
  };
  // A TLS server's 'connection' is the encrypted stream: read the decrypted one.
  server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', onSocket);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, heads, server };
}

function req(url: string, extra: Partial<WireRequest> = {}): WireRequest {
  return { url: new URL(url), method: 'GET', headers: { accept: 'text/csv' }, timeoutMs: 2000, ...extra };
}

/** Collects a body; `pauses` makes the sink full after every piece, for that many times. */
function collector(pauses = 0) {
  const parts: Buffer[] = [];
  let waits = 0;
  let full = false;
  const sink: BodySink = {
    write(b) {
      parts.push(Buffer.from(b));
      if (waits < pauses) full = true;
      return b.length;
    },
    ready() {
      if (!full) return undefined;
      full = false;
      waits++;
      return new Promise((r) => setTimeout(r, 1));
    },
  };
  return { sink, text: () => Buffer.concat(parts).toString('latin1'), waits: () => waits };
}

/** Takes at most `room` bytes, then stays full until a timer empties it (a slow disk): pieces are taken in parts. */
function throttled(room: number) {
  const parts: Buffer[] = [];
  let used = 0;
  let emptying: Promise<void> | undefined;
  let waits = 0;
  const sink: BodySink = {
    write(b) {
      const n = Math.min(b.length, room - used);
      parts.push(Buffer.from(b.subarray(0, n)));
      used += n;
      return n;
    },
    ready() {
      if (used < room) return undefined;
      waits++;
      emptying ??= new Promise<void>((r) => setTimeout(r, 1)).then(() => {
        used = 0;
        emptying = undefined;
      });
      return emptying;
    },
  };
  return { sink, text: () => Buffer.concat(parts).toString('latin1'), waits: () => waits };
}

const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure'); }, (e: NodeJS.ErrnoException) => e);

describe('wireRequest: framing', () => {
  const body = 'id,name\n1,Ada\n2,"Grace, H"\n';
  const chunked = '5\r\nid,na\r\n3;ext=1\r\nme\n\r\n' + `${(body.length - 8).toString(16)}\r\n${body.slice(8)}\r\n0\r\nx-trailer: t\r\n\r\n`;
  const answers: Array<[string, string]> = [
    ['content-length', `HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\ncontent-length: ${body.length}\r\n\r\n${body}`],
    ['chunked, with an extension and a trailer', `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${chunked}`],
    ['until the connection closes', `HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\n\r\n${body}`],
    ['after a 100 Continue', `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`],
  ];
  for (const [name, raw] of answers) {
    for (const readBufferBytes of [1, 3, 7, 1 << 20]) {
      it(`reads a body framed by ${name}, split into reads of ${readBufferBytes} byte(s)`, async () => {
        const s = await rawServer((socket) => socket.end(raw, 'latin1'));
        const res = await wireRequest(req(s.url, { readBufferBytes }));
        expect(res.statusCode).toBe(200);
        const c = collector();
        await res.body.pipeTo(c.sink);
        expect(c.text()).toBe(body);
      });
    }
  }

  it('sends one well-formed request: method, path and query, host, headers, body with its length, connection: close', async () => {
    const s = await rawServer((socket) => socket.end('HTTP/1.1 204 No Content\r\n\r\n'));
    const res = await wireRequest(req(`${s.url}/open/forms/7/submissions/export?x=1`, { method: 'POST', headers: { accept: 'text/csv', authorization: 'Bearer t' }, body: '{"columns":{"a":true}}' }));
    expect(res.statusCode).toBe(204);
    expect(await res.body.text()).toBe('');
    expect(s.heads[0]!.split('\r\n')).toEqual([
      'POST /open/forms/7/submissions/export?x=1 HTTP/1.1',
      `host: ${new URL(s.url).host}`,
      'accept: text/csv',
      'authorization: Bearer t',
      'content-length: 22',
      'connection: close',
    ]);
  });

  it('refuses a header value that would split the request, sending nothing', async () => {
    const s = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\n\r\n'));
    const e = await failure(wireRequest(req(s.url, { headers: { 'x-a': 'b\r\nx-injected: 1' } })));
    expect(e.message).toBe('Invalid HTTP header "x-a".');
    expect(s.heads).toEqual([]);
  });

  it('gives headers lower-cased, a repeated one as an array, and the JSON of a small answer', async () => {
    const s = await rawServer((socket) => socket.end('HTTP/1.1 202 Accepted\r\nContent-Type: application/json\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 14\r\n\r\n{"job_id":"j"}'));
    const res = await wireRequest(req(s.url));
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(await res.body.json()).toEqual({ job_id: 'j' });
  });

  it('stops reading while the sink is full and goes on when it is ready (every byte, in order)', async () => {
    const big = Buffer.alloc(3 << 20, 'x');
    big.write('start', 0);
    big.write('end', big.length - 3);
    const s = await rawServer((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${big.length}\r\n\r\n`);
      socket.end(big);
    });
    const res = await wireRequest(req(s.url, { readBufferBytes: 64 * 1024 }));
    const c = collector(20);
    await res.body.pipeTo(c.sink);
    expect(c.waits()).toBe(20);
    expect(c.text().length).toBe(big.length);
    expect(c.text() === big.toString('latin1')).toBe(true);
  });
});

describe('wireRequest: a sink that takes pieces in parts (plain TCP keeps views, no copies)', () => {
  const body = Buffer.alloc(2_000_000);
  for (let i = 0; i < body.length; i += 8) body.write(String(i).padStart(8, '0'), i, 'latin1');
  for (const chunked of [false, true]) {
    it(`every byte arrives in order (${chunked ? 'chunked' : 'content-length'})`, async () => {
      const s = await rawServer((socket) => {
        socket.write(`HTTP/1.1 200 OK\r\n${chunked ? 'transfer-encoding: chunked' : `content-length: ${body.length}`}\r\n\r\n`);
        for (let i = 0; i < body.length; i += 100_000) {
          const part = body.subarray(i, i + 100_000);
          socket.write(chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part);
        }
        if (chunked) socket.end('0\r\n\r\n');
        else socket.end();
      });
      const res = await wireRequest(req(s.url));
      const c = throttled(50_000);
      await res.body.pipeTo(c.sink);
      expect(c.waits()).toBeGreaterThan(10);
      expect(c.text() === body.toString('latin1')).toBe(true);
    });
  }
});

describe('wireRequest: failures', () => {
  it('a connection closed before the declared length is a dropped connection (UND_ERR_SOCKET)', async () => {
    const s = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly this'));
    const res = await wireRequest(req(s.url));
    const e = await failure(res.body.pipeTo(collector().sink));
    expect([e.code, e.message]).toEqual(['UND_ERR_SOCKET', 'other side closed']);
  });

  it('a chunked body cut off before its last chunk is a dropped connection', async () => {
    const s = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4\r\nid,n\r\n'));
    const res = await wireRequest(req(s.url));
    expect((await failure(res.body.text())).code).toBe('UND_ERR_SOCKET');
  });

  it('a connection reset mid-body fails the body, not the process', async () => {
    const s = await rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\nid\n');
      setTimeout(() => socket.resetAndDestroy(), 20);
    });
    const res = await wireRequest(req(s.url));
    expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain((await failure(res.body.text())).code);
  });

  it('a closed connection before any answer, and a refused one, fail the request', async () => {
    const s = await rawServer((socket) => socket.end());
    expect((await failure(wireRequest(req(s.url)))).code).toBe('UND_ERR_SOCKET');
    const port = (s.server.address() as AddressInfo).port;
    await new Promise((r) => s.server.close(r));
    servers = [];
    expect((await failure(wireRequest(req(`http://127.0.0.1:${port}`)))).code).toBe('ECONNREFUSED');
  });

  it.each([
    ['not HTTP', 'SSH-2.0-OpenSSH\r\n\r\n', 'The server sent a malformed HTTP response (status line "SSH-2.0-OpenSSH").'],
    ['a bad header line', 'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', 'The server sent a malformed HTTP response (header line "no colon here").'],
    ['two different lengths', 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhello', 'The server sent a malformed HTTP response (content-length "5, 6").'],
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n', 'The server sent a malformed HTTP response (chunk size "zz").'],
    ['a protocol switch', 'HTTP/1.1 101 Switching Protocols\r\n\r\n', 'The server sent a malformed HTTP response (an unexpected protocol switch).'],
  ])('%s is a malformed response', async (_name, raw, message) => {
    const s = await rawServer((socket) => socket.end(raw));
    const e = await failure(wireRequest(req(s.url)).then((res) => res.body.text()));
    expect([e.code, e.message]).toEqual(['ERR_BAD_HTTP_RESPONSE', message]);
  });

  it('headers larger than 64 KiB are refused', async () => {
    const s = await rawServer((socket) => socket.end(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(70_000)}\r\n\r\n`));
    expect((await failure(wireRequest(req(s.url)))).message).toBe('The server sent a malformed HTTP response (headers larger than 64 KiB).');
  });

  it('no answer within the timeout is a headers timeout; a silent body is a body timeout', async () => {
    const silent = await rawServer(() => undefined);
    expect((await failure(wireRequest(req(silent.url, { timeoutMs: 100 })))).code).toBe('UND_ERR_HEADERS_TIMEOUT');
    const stalls = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc'));
    const res = await wireRequest(req(stalls.url, { timeoutMs: 100 }));
    expect((await failure(res.body.text())).code).toBe('UND_ERR_BODY_TIMEOUT');
  });

  it('a sink that waits longer than the timeout is not a body timeout (the disk is slow, not the server)', async () => {
    const s = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nabcdef'));
    const res = await wireRequest(req(s.url, { timeoutMs: 50, readBufferBytes: 2 }));
    const parts: string[] = [];
    let wrote = false;
    const sink: BodySink = {
      write: (b) => ((wrote = true), parts.push(b.toString()), b.length),
      ready: () => (wrote && !(wrote = false) ? new Promise((r) => setTimeout(r, 120)) : undefined),
    };
    await res.body.pipeTo(sink);
    expect(parts.join('')).toBe('abcdef');
  });

  it('an abort before the answer, while the body waits unread, and mid-body all fail with AbortError', async () => {
    const silent = await rawServer(() => undefined);
    const a1 = new AbortController();
    const p1 = wireRequest(req(silent.url, { signal: a1.signal }));
    setTimeout(() => a1.abort(), 20);
    expect((await failure(p1)).name).toBe('AbortError');

    const s = await rawServer((socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nab'));
    const a2 = new AbortController();
    const held = await wireRequest(req(s.url, { signal: a2.signal }));
    a2.abort();
    expect((await failure(held.body.text())).name).toBe('AbortError');

    const a3 = new AbortController();
    const res = await wireRequest(req(s.url));
    const p3 = res.body.pipeTo(collector().sink, a3.signal);
    setTimeout(() => a3.abort(), 20);
    expect((await failure(p3)).name).toBe('AbortError');
  });

  it('a sink error ends the body with that error', async () => {
    const s = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nabcdef'));
    const res = await wireRequest(req(s.url));
    const full = Object.assign(new Error('no space'), { code: 'ENOSPC' });
    const e = await failure(res.body.pipeTo({ write: () => 0, ready: () => Promise.reject(full) }));
    expect(e.code).toBe('ENOSPC');
  });

  it('a body read twice is refused; dump closes the connection without reading', async () => {
    const s = await rawServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'));
    const res = await wireRequest(req(s.url));
    expect(await res.body.text()).toBe('ok');
    expect((await failure(res.body.text())).message).toBe('The response body was already read.');
    const again = await wireRequest(req(s.url));
    await again.body.dump();
    expect((await failure(again.body.text())).message).toBe('The response body was already read.');
  });
});

describe('wireRequest: https', () => {
  const hasOpenssl = HAS_OPENSSL;
  let tlsDir = '';
  let cert: Buffer = Buffer.alloc(0);
  let key: Buffer = Buffer.alloc(0);
  beforeAll(() => {
    if (!hasOpenssl) return;
    tlsDir = mkdtempSync(join(tmpdir(), 'formctl-wire-tls-'));
    ({ cert, key } = selfSignedCert(tlsDir));
  });
  afterAll(() => {
    if (tlsDir) rmSync(tlsDir, { recursive: true, force: true });
  });
  const tlsServer = async (answer: (socket: Socket) => void) => {
    const s = await rawServer((socket) => answer(socket), createTlsServer({ key, cert }));
    return s.url.replace('http:', 'https:');
  };

  it.skipIf(!hasOpenssl)('speaks TLS with the given CA, and refuses a certificate it does not trust', async () => {
    const url = await tlsServer((socket) => socket.end('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'));
    const res = await wireRequest(req(url, { ca: cert }));
    expect(await res.body.text()).toBe('abc');
    const untrusted = await failure(wireRequest(req(url)));
    expect(untrusted.code).toMatch(/CERT|SELF_SIGNED/);
  });

  // A paused TLS socket still delivers the records it has decrypted: each must be kept, in order.
  const body = Buffer.alloc(600_000);
  for (let i = 0; i < body.length; i += 8) body.write(String(i).padStart(8, '0'), i, 'latin1');
  const framings: Array<[string, string, (b: Buffer) => Buffer]> = [
    ['content-length', `content-length: ${body.length}\r\n`, (b) => b],
    ['chunked', 'transfer-encoding: chunked\r\n', (b) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')])],
    ['the connection closing', '', (b) => b],
  ];
  for (const [name, header, frame] of framings) {
    it.skipIf(!hasOpenssl)(`over TLS, a body framed by ${name} arrives whole and in order through a sink that keeps pausing`, async () => {
      const url = await tlsServer((socket) => {
        socket.write(`HTTP/1.1 200 OK\r\n${header}\r\n`);
        // The body comes as one burst once the client reads it: many records per socket read.
        setTimeout(() => {
          for (let i = 0; i < body.length; i += 10_000) socket.write(frame(body.subarray(i, i + 10_000)));
          setTimeout(() => (name === 'chunked' ? socket.end('0\r\n\r\n') : socket.end()), 50);
        }, 100);
      });
      const res = await wireRequest(req(url, { ca: cert }));
      const c = throttled(7_000);
      await res.body.pipeTo(c.sink);
      expect(c.waits()).toBeGreaterThan(10);
      expect(c.text().length).toBe(body.length);
      expect(c.text() === body.toString('latin1')).toBe(true);
    });
  }

  it.skipIf(!hasOpenssl)('over TLS, a short body whose connection ends before the caller reads it is still read whole', async () => {
    const url = await tlsServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nabc'));
    const res = await wireRequest(req(url, { ca: cert }));
    await new Promise((r) => setTimeout(r, 50));
    expect(await res.body.text()).toBe('abc');
    const cut = await tlsServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\nabc'));
    const short = await wireRequest(req(cut, { ca: cert }));
    await new Promise((r) => setTimeout(r, 50));
    expect((await failure(short.body.text())).code).toBe('UND_ERR_SOCKET');
  });
});

describe('wireRequest: hostile answers', () => {
  it('many 1xx answers in one read are skipped in a loop, not by recursion', async () => {
    const s = await rawServer((socket) => socket.end(`${'HTTP/1.1 100 Continue\r\n\r\n'.repeat(60_000)}HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok`));
    const res = await wireRequest(req(s.url));
    expect(await res.body.text()).toBe('ok');
  });

  it('text() refuses an answer larger than 4 MiB instead of holding it all', async () => {
    const s = await rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n');
      socket.end(Buffer.alloc(5 << 20, 0x20));
    });
    const res = await wireRequest(req(s.url));
    expect((await failure(res.body.text())).message).toBe('The server sent a malformed HTTP response (an answer larger than 4 MiB where a short one was expected).');
  });
});

describe('framing rules', () => {
  it('a chunk size may carry leading zeros, not more than 12 significant digits', () => {
    const d = decoderFor('GET', 200, { 'transfer-encoding': 'chunked' });
    expect(d.step(Buffer.from('00000000000000003\r\n')).used).toBe(19);
    expect(d.step(Buffer.from('abc')).piece.toString()).toBe('abc');
    const big = decoderFor('GET', 200, { 'transfer-encoding': 'chunked' });
    expect(() => big.step(Buffer.from('1000000000000\r\n'))).toThrow('chunk size');
  });

  it('a header named __proto__ or constructor is kept as a header, never reaching the object prototype', () => {
    const { headers } = parseHead('HTTP/1.1 200 OK\r\n__proto__: a\r\nconstructor: x\r\ncontent-type: text/csv');
    expect(Object.getPrototypeOf(headers)).toBeNull();
    expect(Object.entries(headers)).toEqual([['__proto__', 'a'], ['constructor', 'x'], ['content-type', 'text/csv']]);
    expect(headers.constructor).toBe('x');
  });

  it('parses a status line without a reason phrase', () => {
    expect(parseHead('HTTP/1.1 200\r\nA: b')).toEqual({ statusCode: 200, headers: { a: 'b' } });
  });
  it('HEAD, 204 and 304 have no body; a coding after chunked reads until close', () => {
    expect(decoderFor('HEAD', 200, { 'content-length': '10' }).done).toBe(true);
    expect(decoderFor('GET', 204, {}).done).toBe(true);
    expect(decoderFor('GET', 304, { 'transfer-encoding': 'chunked' }).done).toBe(true);
    expect(decoderFor('GET', 200, { 'transfer-encoding': 'chunked, gzip' }).untilClose).toBe(true);
    expect(decoderFor('GET', 200, { 'transfer-encoding': 'gzip, chunked', 'content-length': '3' }).untilClose).toBe(false);
    expect(decoderFor('GET', 200, { 'content-length': ['7', '7'] }).done).toBe(false);
  });
});
