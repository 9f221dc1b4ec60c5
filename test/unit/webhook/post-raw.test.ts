import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_ANSWER_LIMIT, describeFailure, postRaw } from '../../../src/webhooks/http.js';

// postRaw against real local receivers (node:http on port 0): the answer it reads is bounded in
// size, and --timeout bounds the whole exchange, not only the socket's idle time.

interface Receiver {
  url: URL;
  /** Bytes of answer body the receiver managed to write, and whether the client closed on it. */
  written(): number;
  closedByClient(): Promise<void>;
  close(): Promise<void>;
}

/** Ends the test receiver's endless answers here, so that a postRaw without a bound fails its test instead of filling the memory. */
const RECEIVER_STOPS_AT = 64 * 1024 * 1024;

const open: Receiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

/**
 * `endless`: 200 with an answer body that never ends (64 KiB chunks as fast as the client reads;
 * it stops sending at RECEIVER_STOPS_AT and then holds the connection open, never ending it).
 * `trickle`: 200, then one byte every 100 ms, forever: never idle for long, never done.
 * `exact`: an answer of exactly `size` bytes.
 */
async function receiver(kind: 'endless' | 'trickle' | 'exact', size = 0): Promise<Receiver> {
  let written = 0;
  let closed!: () => void;
  const closedByClient = new Promise<void>((r) => (closed = r));
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    req.resume();
    res.on('close', () => closed());
    res.writeHead(200, { 'content-type': 'text/plain' });
    if (kind === 'exact') {
      written = size;
      res.end(Buffer.alloc(size, 'a'));
    } else if (kind === 'trickle') {
      const t = setInterval(() => {
        written += 1;
        res.write('.');
      }, 100);
      timers.add(t);
      res.on('close', () => clearInterval(t));
    } else {
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = (): void => {
        while (!res.destroyed && written < RECEIVER_STOPS_AT) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const r: Receiver = {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`),
    written: () => written,
    closedByClient: () => closedByClient,
    close: async () => {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  open.push(r);
  return r;
}

const send = (url: URL, o: { timeoutMs?: number; maxAnswerBytes?: number } = {}) =>
  postRaw(url, {
    headers: { 'content-type': 'application/json' },
    body: Buffer.from('{}'),
    timeoutMs: o.timeoutMs ?? 20_000,
    maxAnswerBytes: o.maxAnswerBytes,
  });

describe('postRaw: the answer is bounded', () => {
  it('reads an endless answer up to the limit, closes the connection, and keeps the status', async () => {
    const r = await receiver('endless');
    const res = await send(r.url, { maxAnswerBytes: 100_000 });
    expect(res).toMatchObject({ status: 200, truncated: true });
    expect(res.body).toEqual(Buffer.alloc(100_000, 'a'));
    await r.closedByClient();
    expect(r.written()).toBeLessThan(RECEIVER_STOPS_AT);
  });

  it('an answer of exactly the limit is whole, not cut', async () => {
    const r = await receiver('exact', 4096);
    const res = await send(r.url, { maxAnswerBytes: 4096 });
    expect(res).toMatchObject({ status: 200, truncated: false });
    expect(res.body.length).toBe(4096);
  });

  it('defaults to 1 MiB, far above any acknowledgement a receiver sends', async () => {
    expect(WEBHOOK_ANSWER_LIMIT).toBe(1024 * 1024);
    const r = await receiver('endless');
    const res = await send(r.url);
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(WEBHOOK_ANSWER_LIMIT);
  });
});

describe('postRaw: --timeout bounds the whole exchange', () => {
  it('a receiver that trickles its answer a byte at a time still times out, in the usual words', async () => {
    const r = await receiver('trickle');
    const err = await send(r.url, { timeoutMs: 1000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ETIMEDOUT' });
    expect(describeFailure(err, r.url)).toEqual({ reason: `No answer from ${r.url.host} within 1 s`, code: 'ETIMEDOUT' });
    await r.closedByClient();
  });
});
