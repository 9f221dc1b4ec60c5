import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type NeverEndingReceiver, RECEIVER_STOPS_AT, startNeverEndingReceiver } from '../helpers/never-ending-receiver.js';
import { TINYPROXY, type Tinyproxy, startTinyproxy } from '../helpers/tinyproxy.js';

// `webhook send` (built binary) against receivers that never finish their answer: an endless body is
// read up to 1 MiB, cut, reported, and the process ends; a body trickling in a byte at a time times
// out at --timeout for the whole exchange, in the usual words, exit 11 (docs/security.md).

const MIB = 1024 * 1024;

const open: NeverEndingReceiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

async function receiver(kind: 'endless' | 'trickle'): Promise<NeverEndingReceiver> {
  const r = await startNeverEndingReceiver(kind);
  open.push(r);
  return r;
}

const CUT_NOTE = `warning: the receiver's answer is longer than 1 MiB, the most formctl reads of it:`;

/**
 * `webhook send --json` of an endless answer, run with FORMCTL_TEST_LIVE_HANDLES: exit 0, the first
 * 1 MiB as "response", response_truncated true, the warning, no live handle, and the receiver stopped
 * being read long before its own bound.
 */
function expectCutJson(run: { code: number | null; stdout: string; stderr: string }, r: NeverEndingReceiver): void {
  expect(run.stderr).not.toMatch(/^error:/m);
  expect(run.code).toBe(0);
  const out = JSON.parse(run.stdout) as Record<string, unknown>;
  expect(out).toMatchObject({ status: 200, response_truncated: true });
  expect(out.response).toBe('a'.repeat(MIB));
  expect(run.stderr).toContain(`${CUT_NOTE} "response" holds its first 1 MiB; the rest was not read.\n`);
  expect(run.stderr.split('\n').filter((l) => l.startsWith('live handles'))).toEqual(['live handles after the command: []']);
  expect(r.written()).toBeLessThan(RECEIVER_STOPS_AT);
}

describe('webhook send: an endless answer (e2e, built binary)', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  it('--json: the status, the first 1 MiB as "response", response_truncated true, a warning; the process ends with no live handle', async () => {
    const r = await receiver('endless');
    const run = await runFormctl(['webhook', 'send', r.url, '--json', '--timeout', '60'], { env: { ...home.env, FORMCTL_TEST_LIVE_HANDLES: '1' } });
    expectCutJson(run, r);
  });

  it('text: HTTP 200, the first 1 MiB, then the warning', async () => {
    const r = await receiver('endless');
    const run = await runFormctl(['webhook', 'send', r.url, '--timeout', '60'], { env: home.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`HTTP 200\n${'a'.repeat(MIB)}\n`);
    expect(run.stderr).toContain(`${CUT_NOTE} the text above is its first 1 MiB; the rest was not read.\n`);
  });

  it('an answer cut inside a character ends at the last whole character, not U+FFFD', async () => {
    // 'é' is two bytes: the first is the 1 MiB-th byte of the answer, the second is past the cut.
    const answer = Buffer.concat([Buffer.from('a'.repeat(MIB - 1)), Buffer.from('é'), Buffer.from('b'.repeat(MIB))]);
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-length': String(answer.length) }).end(answer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const run = await runFormctl(['webhook', 'send', `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, '--json'], { env: home.env });
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout) as { response: string; response_truncated: boolean };
      expect(out.response_truncated).toBe(true);
      expect(out.response).toBe('a'.repeat(MIB - 1));
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a whole answer says response_truncated false', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(202).end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const run = await runFormctl(['webhook', 'send', `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, '--json'], { env: home.env });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ status: 202, response: 'ok', response_truncated: false });
      expect(run.stderr).not.toContain(CUT_NOTE);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('webhook send: --timeout bounds the whole exchange (e2e, built binary)', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  it('a receiver trickling its answer a byte at a time: "No answer … within 1 s", exit 11, the process ends', async () => {
    const r = await receiver('trickle');
    const host = new URL(r.url).host;
    const run = await runFormctl(['webhook', 'send', r.url, '--timeout', '1'], { env: { ...home.env, FORMCTL_TEST_LIVE_HANDLES: '1' } });
    expect(run.code).toBe(11);
    expect(run.stderr).toContain(
      `error: No answer from ${host} within 1 s (POST ${r.url}).\nhint: Is the receiver stuck? Raise --timeout if it is just slow.\n`,
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr.split('\n').filter((l) => l.startsWith('live handles'))).toEqual(['live handles after the command: []']);
  });
});

// Through a real proxy (tinyproxy, as test/e2e/proxy.test.ts; CI requires it there): the proxy path
// reads the answer with undici, and is bounded the same way.
const IN_CI = /^(?!0$|false$)./i.test(process.env.CI ?? '');
if (!TINYPROXY && !IN_CI) console.warn('webhook send proxy bound test skipped: tinyproxy is not installed (apt-get install -y tinyproxy; .ci/run installs it)');

describe.skipIf(!TINYPROXY && !IN_CI)('webhook send through HTTP_PROXY (e2e, built binary, tinyproxy)', () => {
  const home = tempHome();
  let proxy: Tinyproxy;
  beforeAll(async () => {
    proxy = await startTinyproxy();
  });
  afterAll(async () => {
    await proxy?.stop();
    home.cleanup();
  });

  it('an endless answer through the proxy: cut at 1 MiB and reported, the process ends', async () => {
    const r = await receiver('endless');
    const before = proxy.requests().length;
    const run = await runFormctl(['webhook', 'send', r.url, '--json', '--timeout', '60'], {
      env: { ...home.env, HTTP_PROXY: proxy.url, FORMCTL_TEST_LIVE_HANDLES: '1' },
    });
    expectCutJson(run, r);
    expect(proxy.requests().slice(before)).toEqual([`POST ${r.url}`]);
  });
});
