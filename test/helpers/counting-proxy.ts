import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request that passed through the proxy: method and path as sent by the client. */
export interface Passed {
  method: string;
  path: string;
}

export interface CountingProxy {
  url: string;
  passed: Passed[];
  close(): Promise<void>;
}

/**
 * Fault injection: called for each request (with how many requests of the same method and path
 * came before it); a function it returns answers the request in the service's place (a proxy's HTML
 * page, a truncated CSV) and the request never reaches the sandbox.
 */
export type Tamper = (req: Passed, nth: number) => ((res: ServerResponse, body: Buffer) => void | Promise<void>) | undefined;

/**
 * A pass-through HTTP proxy in front of a sandbox that records every request the client sent, so an
 * end-to-end test can count PUTs per submission even across a killed process; with `tamper`, it
 * answers chosen requests itself.
 */
export async function startCountingProxy(target: string, tamper?: Tamper): Promise<CountingProxy> {
  const to = new URL(target);
  const passed: Passed[] = [];
  const seen = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res) => {
    const key = `${req.method} ${req.url}`;
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    const answer = tamper?.({ method: req.method ?? '', path: req.url ?? '' }, nth);
    if (answer) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        passed.push({ method: req.method ?? '', path: req.url ?? '' });
        Promise.resolve(answer(res, Buffer.concat(chunks))).catch(() => res.destroy());
      });
      return;
    }
    const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    // Recorded once the whole request arrived: what the service would act on.
    req.on('end', () => passed.push({ method: req.method ?? '', path: req.url ?? '' }));
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    passed,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
