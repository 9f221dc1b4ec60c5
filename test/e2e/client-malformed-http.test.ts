import { createServer as createHttpServer } from 'node:http';
import { type Server, type Socket, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';

// Servers that misbehave at the HTTP level: formctl must end with a clear error, in bounded
// memory and time, and not retry what cannot get better.
let home: ReturnType<typeof tempHome>;
beforeAll(() => {
  home = tempHome();
});
afterAll(() => home.cleanup());

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A raw TCP server that answers every request with `reply` (bytes as given); counts connections. */
async function rawServer(reply: (socket: Socket) => void): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => reply(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () =>
    new Promise((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

function env(url: string): NodeJS.ProcessEnv {
  return { ...home.env, FORMCTL_BASE_URL: url, FORMCTL_TOKEN: 'fsk_t' };
}

describe('malformed HTTP is final: one attempt, a clear error', () => {
  it.each([
    ['a garbage status line', 'HELLO THERE\r\n\r\n'],
    // node:http's parser refuses a bare CR on every Node line (fetch's reads it leniently on Node 20 and 22).
    ['a bare CR in the header block', 'HTTP/1.1 200 OK\rContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]'],
    ['conflicting Content-Length', 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 7\r\n\r\n[]'],
  ])('%s', async (_name, bytes) => {
    const s = await rawServer((socket) => socket.end(bytes));
    const r = await runFormctl(['workspace', 'list'], { env: env(s.url) });
    expect(r.code).toBe(11);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: 127\.0\.0\.1:\d+ sent a malformed HTTP answer \([^)]+\) \(GET \/open\/workspaces\); not retried\.$/);
    expect(r.stderr).not.toContain('note:');
    expect(s.connections()).toBe(1);
  });
});

describe('--timeout bounds a whole JSON exchange', () => {
  it('a body trickling one byte a second ends with exit 11 after --timeout, not never', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const t = setInterval(() => res.write(' '), 1000);
      timers.add(t);
      res.on('close', () => clearInterval(t));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    close = () =>
      new Promise((r) => {
        for (const t of timers) clearInterval(t);
        server.closeAllConnections();
        server.close(() => r());
      });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await runFormctl(['--timeout', '2', 'workspace', 'list'], { env: env(url), timeoutMs: 15_000 });
    expect(r.code).toBe(11);
    expect(r.stderr.split('\n')[0]).toBe('error: The service did not answer within 2 s (--timeout) (GET /open/workspaces).');
  });
});

describe('JSON answers are capped at 64 MiB', () => {
  it('an endless body: formctl stops reading at the cap (bounded memory) and says why', async () => {
    let written = 0;
    const chunk = Buffer.from(`${'"x",'.repeat(16 * 1024)}`);
    const server = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const pump = (): void => {
        while (!res.destroyed && written < 2 * 1024 ** 3) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    close = () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A V8 heap of 160 MB: reading the whole body (the old behaviour) dies of it.
    const r = await runFormctl(['workspace', 'list'], { env: { ...env(url), NODE_OPTIONS: '--max-old-space-size=160' }, timeoutMs: 60_000 });
    expect(r.stderr.split('\n')[0]).toBe(
      "error: The service's answer is larger than 64 MiB, the most formctl reads of a JSON answer (HTTP 200, GET /open/workspaces).",
    );
    expect(r.code).toBe(1);
    // What the server got rid of before the connection closed: the cap plus socket buffers.
    expect(written).toBeLessThan(96 * 1024 * 1024);
  });

  it('an announced Content-Length above the cap is refused before reading', async () => {
    const s = await rawServer((socket) => socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${200 * 1024 * 1024}\r\n\r\n[`));
    const r = await runFormctl(['workspace', 'list'], { env: env(s.url), timeoutMs: 15_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('larger than 64 MiB');
  });
});
