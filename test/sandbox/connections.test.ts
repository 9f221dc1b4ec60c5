// Connection limits of the sandbox (docs/sandbox.md, "Behaviour the spec leaves open, and what the sandbox does": connections): a connection over the
// per-client limit takes an idle one's place, and when every one is busy it is answered 503 at
// once instead of waiting.
import { type Socket, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAX_CONNECTIONS_PER_CLIENT } from '../../src/sandbox/server.js';
import { boot } from './helpers.js';

/** Opens a connection and sends `text`; resolves once connected. */
function open(port: number, text = ''): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port }, () => {
      if (text) s.write(text);
      resolve(s);
    });
    s.on('error', reject);
  });
}

/** Everything the server sends on `s` until it closes it. */
function readAll(s: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => (text += d));
    s.on('close', () => resolve(text));
  });
}

describe('sandbox connection limits', () => {
  it('a connection past the per-client limit, with every connection busy, is answered 503 and closed', async () => {
    const sb = await boot({ seed: 1 });
    const port = Number(new URL(sb.url).port);
    const busy: Socket[] = [];
    try {
      // Each holds a request in progress: its headers are in, its body never comes. Node answers
      // `Expect: 100-continue` as it hands the request on, so the 100 says the sandbox has it.
      const head = `POST /open/forms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sb.tokens.all}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`;
      for (let i = 0; i < MAX_CONNECTIONS_PER_CLIENT; i++) {
        const s = await open(port, head);
        await new Promise<void>((r) => s.once('data', () => r()));
        busy.push(s);
      }
      const probe = await open(port, 'GET /open/workspaces HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      const answer = await readAll(probe);
      expect(answer).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(answer).toContain('this client has too many connections open');
    } finally {
      for (const s of busy) s.destroy();
    }
  });

  it('a connection past the per-client limit takes the place of the oldest idle one', async () => {
    const sb = await boot({ seed: 1 });
    const port = Number(new URL(sb.url).port);
    const idle: Socket[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS_PER_CLIENT; i++) idle.push(await open(port));
      const oldestClosed = new Promise<void>((r) => idle[0]!.once('close', () => r()));
      idle[0]!.on('error', () => undefined);
      const res = await fetch(`${sb.url}/open/workspaces`, { headers: { authorization: `Bearer ${sb.tokens.all}` } });
      expect(res.status).toBe(200);
      await oldestClosed;
      expect(idle.slice(1).every((s) => !s.destroyed)).toBe(true);
    } finally {
      for (const s of idle) s.destroy();
    }
  });
});
