import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, type Socket, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { spawnTracked } from './processes.js';

/** Debian's tinyproxy (installed by .ci/run), in /usr/bin or /usr/sbin; undefined when absent. */
export const TINYPROXY = ['/usr/bin/tinyproxy', '/usr/sbin/tinyproxy'].find((p) => existsSync(p));

export interface Tinyproxy {
  /** `http://127.0.0.1:<port>`, without credentials. */
  url: string;
  port: number;
  /** The hosts it opened a connection to since it started ("127.0.0.1:4321"), from its log. */
  connections(): string[];
  /** The request lines it received since it started ("GET http://127.0.0.1:4321/open/workspaces", "CONNECT 127.0.0.1:443"), from its log. */
  requests(): string[];
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (closed again at once). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * Starts a real tinyproxy on a free loopback port, with a generated config in a temporary directory
 * (`basicAuth`: it then answers 407 without those credentials; `connectPorts`: it allows CONNECT to
 * these ports only, as squid's default allows 443 only). Stop it with stop(), on every path.
 */
export async function startTinyproxy(o: { basicAuth?: { user: string; password: string }; connectPorts?: number[] } = {}): Promise<Tinyproxy> {
  if (!TINYPROXY) throw new Error('tinyproxy is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'formctl-tinyproxy-'));
  const port = await freePort();
  const log = join(dir, 'tinyproxy.log');
  const lines = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 30',
    'Allow 127.0.0.1',
    'MaxClients 50',
    'LogLevel Info',
    `LogFile "${log}"`,
    'DisableViaHeader Yes',
  ];
  if (o.basicAuth) lines.push(`BasicAuth ${o.basicAuth.user} ${o.basicAuth.password}`);
  for (const p of o.connectPorts ?? []) lines.push(`ConnectPort ${p}`);
  writeFileSync(join(dir, 'tinyproxy.conf'), `${lines.join('\n')}\n`);
  writeFileSync(log, '');
  const child: ChildProcess = spawnTracked(TINYPROXY, ['-d', '-c', join(dir, 'tinyproxy.conf')], { stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Ready when it accepts a connection (bounded: 10 s).
    for (let i = 0; ; i++) {
      const ok = await new Promise<boolean>((r) => {
        const s = connect(port, '127.0.0.1', () => r(true)).on('error', () => r(false));
        s.once('connect', () => s.end());
      });
      if (ok) break;
      if (i > 100 || child.exitCode !== null) throw new Error(`tinyproxy did not start on port ${port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => [...readFileSync(log, 'utf8').matchAll(/opensock: opening connection to (\S+)/g)].map((m) => m[1]!),
    requests: () => [...readFileSync(log, 'utf8').matchAll(/Request \(file descriptor \d+\): (\S+ \S+)/g)].map((m) => m[1]!),
    stop,
  };
}

export interface TlsFront {
  /** `https://127.0.0.1:<port>`, without credentials. */
  url: string;
  port: number;
  /** TLS handshakes it completed: a client that refused its certificate completes none. */
  handshakes(): number;
  close(): Promise<void>;
}

/**
 * An https:// proxy made of a plain one: a TLS terminator on a free loopback port that hands the
 * decrypted bytes to `targetPort` (tinyproxy), as stunnel or a load balancer in front of a proxy
 * does. `key` and `cert` are its certificate's (PEM). Close it on every path; close() ends the
 * connections it still holds.
 */
export async function startTlsFront(targetPort: number, o: { key: string | Buffer; cert: string | Buffer }): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  let handshakes = 0;
  const server = createTlsServer({ key: o.key, cert: o.cert }, (client) => {
    handshakes++;
    track(client);
    const upstream = connect(targetPort, '127.0.0.1');
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  // A client that refuses the certificate ends the handshake; that socket never reaches the handler.
  server.on('tlsClientError', () => undefined);
  server.on('connection', track);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    handshakes: () => handshakes,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
