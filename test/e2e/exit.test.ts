import { type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo, type Server as TcpServer, type Socket, createServer as createTcpServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { TINYPROXY, startTinyproxy } from '../helpers/tinyproxy.js';

// After its output, a command must leave nothing that keeps the process alive: a pooled keep-alive
// socket, a timer, a child. The server here keeps every connection open for minutes (keep-alive),
// so a client that holds its socket would outlive the test's kill timer; the binary reports what
// is still alive once the command is done (FORMCTL_TEST_LIVE_HANDLES, src/main.ts).
let home: ReturnType<typeof tempHome>;
beforeAll(() => {
  home = tempHome();
});
afterAll(() => home.cleanup());

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function holdingServer(handler: (url: string, res: ServerResponse) => void): Promise<{ url: string; closedByClient: () => number }> {
  let closed = 0;
  server = createServer((req, res) => handler(req.url ?? '/', res));
  server.keepAliveTimeout = 10 * 60_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => closed++);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closedByClient: () => closed };
}

const json = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive', 'keep-alive': 'timeout=600' });
  res.end(JSON.stringify(body));
};

describe('nothing keeps the process alive after its output', () => {
  it('a one-request command against a server that keeps the connection open: no live handle, and it exits', async () => {
    const s = await holdingServer((_url, res) => json(res, [{ id: 1, name: 'A', icon: null, is_readonly: false }]));
    const r = await runFormctl(['workspace', 'list', '--json', 'id'], {
      env: { ...home.env, FORMCTL_BASE_URL: s.url, FORMCTL_TOKEN: 'fsk_t', FORMCTL_TEST_LIVE_HANDLES: '1' },
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
    expect(r.stderr).toBe('live handles after the command: []\n');
    // The process ended while the server still held the connection: the client's exit closed it.
    expect(s.closedByClient()).toBe(1);
  });

  it('an export download (a stream) leaves nothing either', async () => {
    const s = await holdingServer((url, res) => {
      if (url.startsWith('/open/forms/7/submissions/export')) return json(res, { file_url: `${'http://' + res.req.headers.host}/files/a.csv` });
      if (url.startsWith('/files/')) {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-length': '6' });
        return res.end('id\n1\n\n'.slice(0, 6));
      }
      if (url.startsWith('/open/forms/7')) return json(res, { form: { id: 7, slug: 'f', title: 'F', workspace_id: 1, properties: [] } });
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"Not found"}');
    });
    const out = `${home.dir}/a.csv`;
    const r = await runFormctl(['submission', 'export', '7', '-o', out], {
      env: { ...home.env, FORMCTL_BASE_URL: s.url, FORMCTL_TOKEN: 'fsk_t', FORMCTL_TEST_LIVE_HANDLES: '1' },
      timeoutMs: 60_000,
    });
    expect(r.stderr.split('\n').filter((l) => l.startsWith('live handles'))).toEqual(['live handles after the command: []']);
  });
});

describe('a proxy that accepts the connection and never answers', () => {
  // A stalled proxy (overloaded, or waiting on a service behind a firewall): the CONNECT gets no
  // answer. --timeout ends the request (the proxy's failure, exit 12); then nothing may wait for that CONNECT (undici's close()
  // would, up to its 300 s headers timeout, and a first Ctrl-C would not end the process either).
  let hole: TcpServer | undefined;
  const held = new Set<Socket>();
  afterEach(async () => {
    for (const s of held) s.destroy();
    held.clear();
    await new Promise<void>((r) => (hole ? hole.close(() => r()) : r()));
    hole = undefined;
  });
  async function silentProxy(): Promise<{ url: string; closedByClient: () => number }> {
    let closed = 0;
    hole = createTcpServer((s) => {
      held.add(s);
      s.on('data', () => undefined);
      s.on('error', () => undefined);
      s.on('close', () => closed++);
    });
    await new Promise<void>((r) => hole!.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${(hole.address() as AddressInfo).port}`, closedByClient: () => closed };
  }

  it('an API call: the --timeout error, then the process ends with no live handle', async () => {
    const p = await silentProxy();
    const r = await runFormctl(['workspace', 'list', '--timeout', '1'], {
      env: { ...home.env, FORMCTL_BASE_URL: 'https://forms.example.test', FORMCTL_TOKEN: 'fsk_t', HTTPS_PROXY: p.url, FORMCTL_TEST_LIVE_HANDLES: '1' },
    });
    // The proxy's failure, not the service's timeout: the CONNECT got no answer (src/api/proxy.ts).
    expect(r.code).toBe(12);
    expect(r.stderr).toContain(
      `error: The proxy ${p.url} (HTTPS_PROXY) took the connection but did not answer the request for a tunnel to forms.example.test (CONNECT) within 1 s`,
    );
    expect(r.stderr.split('\n').filter((l) => l.startsWith('live handles'))).toEqual(['live handles after the command: []']);
    expect(p.closedByClient()).toBe(1);
  });

  it.runIf(TINYPROXY)('an https service that never answers the TLS handshake, through a real tinyproxy: no live handle after the --timeout error', async () => {
    // tinyproxy opens the tunnel; the TLS handshake inside it then gets no answer. undici's connect
    // timeout (10 s) would keep that socket, and its timer, after the command.
    const service = await silentProxy();
    const tp = await startTinyproxy();
    try {
      const r = await runFormctl(['workspace', 'list', '--timeout', '1'], {
        env: {
          ...home.env,
          FORMCTL_BASE_URL: service.url.replace('http:', 'https:'),
          FORMCTL_TOKEN: 'fsk_t',
          HTTPS_PROXY: tp.url,
          FORMCTL_TEST_LIVE_HANDLES: '1',
        },
      });
      expect(r.code).toBe(11);
      expect(r.stderr).toContain('did not answer within 1 s (--timeout)');
      expect(r.stderr.split('\n').filter((l) => l.startsWith('live handles'))).toEqual(['live handles after the command: []']);
      expect(tp.requests()).toEqual([`CONNECT 127.0.0.1:${new URL(service.url).port}`]);
    } finally {
      await tp.stop();
    }
  });

  it('an https:// proxy that never answers the TLS handshake: no live handle after the --timeout error', async () => {
    const p = await silentProxy();
    const r = await runFormctl(['workspace', 'list', '--timeout', '1'], {
      env: {
        ...home.env,
        FORMCTL_BASE_URL: 'https://forms.example.test',
        FORMCTL_TOKEN: 'fsk_t',
        HTTPS_PROXY: p.url.replace('http:', 'https:'),
        FORMCTL_TEST_LIVE_HANDLES: '1',
      },
    });
    // The proxy's failure (src/api/proxy.ts, proxyTimeoutFailure): exit 12, not the service's timeout.
    expect(r.code).toBe(12);
    expect(r.stderr).toContain(`error: The proxy ${p.url.replace('http:', 'https:')} (HTTPS_PROXY) did not complete a TLS handshake within 1 s`);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('live handles'))).toEqual(['live handles after the command: []']);
  });

  it('webhook send: the --timeout error, then the process ends with no live handle', async () => {
    const p = await silentProxy();
    const r = await runFormctl(['webhook', 'send', 'https://hooks.example.test/h', '--timeout', '1'], {
      env: { ...home.env, HTTPS_PROXY: p.url, FORMCTL_TEST_LIVE_HANDLES: '1' },
    });
    expect(r.code).toBe(12);
    expect(r.stderr).toContain(
      `error: The proxy ${p.url} (HTTPS_PROXY) took the connection but did not answer the request for a tunnel to hooks.example.test (CONNECT) within 1 s`,
    );
    expect(r.stderr.split('\n').filter((l) => l.startsWith('live handles'))).toEqual(['live handles after the command: []']);
    expect(p.closedByClient()).toBe(1);
  });
});
