import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_ANSWER_LIMIT, describeFailure, postRaw } from '../../../src/webhooks/http.js';
import { type NeverEndingReceiver, RECEIVER_STOPS_AT, startNeverEndingReceiver } from '../../helpers/never-ending-receiver.js';

// postRaw against real local receivers (node:http on port 0): the answer it reads is bounded in
// size, and --timeout bounds the whole exchange, not only the socket's idle time.

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

async function receiver(kind: 'endless' | 'trickle'): Promise<NeverEndingReceiver & { target: URL }> {
  const r = await startNeverEndingReceiver(kind);
  open.push(r);
  return { ...r, target: new URL(r.url) };
}

/** An answer of exactly `size` bytes. */
async function exact(size: number): Promise<URL> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200).end(Buffer.alloc(size, 'a'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push({
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  });
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
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
    const res = await send(r.target, { maxAnswerBytes: 100_000 });
    expect(res).toMatchObject({ status: 200, truncated: true });
    expect(res.body).toEqual(Buffer.alloc(100_000, 'a'));
    await r.hungUp();
    expect(r.written()).toBeLessThan(RECEIVER_STOPS_AT);
  });

  it('an answer of exactly the limit is whole, not cut', async () => {
    const res = await send(await exact(4096), { maxAnswerBytes: 4096 });
    expect(res).toMatchObject({ status: 200, truncated: false });
    expect(res.body.length).toBe(4096);
  });

  it('defaults to 1 MiB, far above any acknowledgement a receiver sends', async () => {
    expect(WEBHOOK_ANSWER_LIMIT).toBe(1024 * 1024);
    const r = await receiver('endless');
    const res = await send(r.target);
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(WEBHOOK_ANSWER_LIMIT);
  });
});

describe('postRaw: --timeout bounds the whole exchange', () => {
  it('a receiver that trickles its answer a byte at a time still times out, in the usual words', async () => {
    const r = await receiver('trickle');
    const err = await send(r.target, { timeoutMs: 1000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ETIMEDOUT' });
    expect(describeFailure(err, r.target)).toEqual({ reason: `No answer from ${r.target.host} within 1 s`, code: 'ETIMEDOUT' });
    await r.hungUp();
  });
});
