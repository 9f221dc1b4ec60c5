import { readdir, writeFile } from 'node:fs/promises';
import { makeDir } from '../io/files.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describeFailure, postRaw } from './http.js';
import { SIGNATURE_HEADER, type VerifyFailure, verifySignature } from './signature.js';

/** The signature verdict shown for each delivery; `unchecked` when the listener has no secret. */
export type Verdict = 'valid' | 'invalid' | 'unchecked';

/** One request received by the listener, with what was done about it. */
export interface Delivery {
  seq: number;
  receivedAt: Date;
  method: string;
  path: string;
  /** Header names and values in the order and case they arrived. */
  rawHeaders: Array<[string, string]>;
  body: Buffer;
  signature: { verdict: Verdict; reason?: VerifyFailure; message?: string };
  /** `error` in words; `code` the errno (ECONNREFUSED…) when there is one. */
  /** `truncated`: the target's answer went on past WEBHOOK_ANSWER_LIMIT; its beginning was passed back. */
  forward?: { url: string; status?: number; error?: string; code?: string; truncated?: boolean };
  /** A delivery with an invalid signature is not forwarded (held: the forward URL it was not sent to). */
  held?: string;
  /** The status the listener answered the sender with. */
  responseStatus: number;
  saved?: { body: string; headers: string };
}

export interface ListenerOptions {
  host: string;
  port: number;
  secret?: string;
  forwardTo?: URL;
  saveDir?: string;
  /** Bodies larger than this are refused with 413 before they are buffered; default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** The most read of a forward target's answer; default WEBHOOK_ANSWER_LIMIT (src/webhooks/http.ts). */
  maxAnswerBytes?: number;
  /** How long a whole forward may take, connect to the answer's last byte (the service gives a delivery 5 s). */
  forwardTimeoutMs?: number;
  now: () => Date;
  /** Called once per delivery, in arrival order; the answer to the sender waits for it. */
  onDelivery: (d: Delivery) => Promise<void> | void;
}

export interface Listener {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A delivery is a few kilobytes; anything near this is not one, and must not fill the memory. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

// Hop-by-hop headers describe one connection, not the delivery; everything else is forwarded unchanged.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/** The raw `Name: value` lines of a delivery, as `webhook verify --header-file` reads them. */
export function headerText(rawHeaders: Array<[string, string]>): string {
  return rawHeaders.map(([k, v]) => `${k}: ${v}\n`).join('');
}

async function nextSeq(dir: string): Promise<number> {
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch {
    return 1;
  }
  const seqs = names
    .map((n) => /^delivery-(\d+)\.body$/.exec(n)?.[1])
    .filter(Boolean)
    .map(Number);
  return seqs.length === 0 ? 1 : Math.max(...seqs) + 1;
}

/**
 * A local webhook receiver: verifies each POST's signature over the raw bytes, optionally saves and
 * forwards it unchanged, then answers the sender. With a forward target the target's status is passed
 * back (so the service's event log shows your receiver's answer); otherwise 200. When a secret is set
 * and the signature is missing or wrong: 401, as a correct receiver would, and nothing is forwarded.
 */
export async function startListener(o: ListenerOptions): Promise<Listener> {
  // Saved deliveries hold form answers and the receiver's custom headers (often credentials). Made
  // before listening, so a file in the way is a usage error at start, not a failure per delivery.
  if (o.saveDir) await makeDir(o.saveDir, { mode: 0o700, hint: 'Pass --save-dir a directory (it is created when missing).' });
  let seq = o.saveDir ? (await nextSeq(o.saveDir)) - 1 : 0;
  let queue: Promise<unknown> = Promise.resolve();

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> => {
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 200 : 405, { 'content-type': 'text/plain', allow: 'POST' });
      res.end('formctl webhook listen: POST deliveries to this URL\n');
      return;
    }
    const rawHeaders: Array<[string, string]> = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) rawHeaders.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
    const sigHeader = req.headers[SIGNATURE_HEADER.toLowerCase()];
    const d: Delivery = {
      seq: ++seq,
      receivedAt: o.now(),
      method: req.method,
      path: req.url ?? '/',
      rawHeaders,
      body,
      signature: { verdict: 'unchecked' },
      responseStatus: 200,
    };
    if (o.secret !== undefined) {
      const r = verifySignature(o.secret, body, Array.isArray(sigHeader) ? sigHeader[0] : sigHeader);
      d.signature = r.valid ? { verdict: 'valid' } : { verdict: 'invalid', reason: r.reason, message: r.message };
    }
    if (o.saveDir) {
      const base = join(o.saveDir, `delivery-${String(d.seq).padStart(4, '0')}`);
      await writeFile(`${base}.body`, body, { mode: 0o600 });
      await writeFile(`${base}.headers`, headerText(rawHeaders), { mode: 0o600 });
      d.saved = { body: `${base}.body`, headers: `${base}.headers` };
    }
    let answer: { status: number; type: string; body: Buffer | string } =
      d.signature.verdict === 'invalid'
        ? { status: 401, type: 'application/json', body: JSON.stringify({ message: 'Invalid signature.' }) }
        : { status: 200, type: 'application/json', body: JSON.stringify({ received: true }) };
    // A delivery that fails verification is answered 401 and not forwarded: the receiver behind the
    // listener would otherwise take a forged or stale-secret delivery for a real one.
    if (o.forwardTo && d.signature.verdict === 'invalid') d.held = o.forwardTo.href;
    else if (o.forwardTo) {
      const target = new URL(o.forwardTo.href);
      const incoming = new URL(d.path, 'http://listener.invalid');
      // A delivery to /hooks/x?y=1 goes to the same path under the forward URL's path.
      if (incoming.pathname !== '/') target.pathname = target.pathname.replace(/\/$/, '') + incoming.pathname;
      if (incoming.search) target.search = incoming.search;
      const headers: Record<string, string> = {};
      for (const [k, v] of rawHeaders) if (!HOP_BY_HOP.has(k.toLowerCase())) headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`;
      try {
        const r = await postRaw(target, { headers, body, timeoutMs: o.forwardTimeoutMs ?? 5000, maxAnswerBytes: o.maxAnswerBytes });
        // A cut answer is still the target's status, with as much of its body as formctl reads (WEBHOOK_ANSWER_LIMIT).
        d.forward = { url: target.href, status: r.status, ...(r.truncated ? { truncated: true } : {}) };
        answer = { status: r.status, type: String(r.headers['content-type'] ?? 'application/octet-stream'), body: r.body };
      } catch (err) {
        const { reason, code } = describeFailure(err, target);
        d.forward = { url: target.href, error: reason, code };
        answer = { status: 502, type: 'application/json', body: JSON.stringify({ message: `Forward to ${target.href} failed.` }) };
      }
    }
    d.responseStatus = answer.status;
    const report = queue.then(() => o.onDelivery(d));
    queue = report.catch(() => undefined);
    await report;
    res.writeHead(answer.status, { 'content-type': answer.type });
    res.end(answer.body);
  };

  const max = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const refuse = () => {
      refused = true;
      chunks.length = 0;
      // The rest of the body is never read: answer, then drop the connection.
      res.on('finish', () => req.destroy());
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ message: `formctl webhook listen: the body is larger than ${max} bytes.` }));
    };
    if (Number(req.headers['content-length'] ?? 0) > max) {
      refuse();
      return;
    }
    req.on('data', (c: Buffer) => {
      if (refused) return;
      size += c.length;
      if (size > max) refuse();
      else chunks.push(c);
    });
    req.on('end', () => {
      if (refused) return;
      handle(req, res, Buffer.concat(chunks)).catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`formctl webhook listen failed: ${err.message}\n`);
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${hostPart}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
