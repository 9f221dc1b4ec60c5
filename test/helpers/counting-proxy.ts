import { type IncomingMessage, createServer, request } from 'node:http';
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
 * A pass-through HTTP proxy in front of a sandbox that records every request the client sent, so an
 * end-to-end test can count PUTs per submission even across a killed process.
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const passed: Passed[] = [];
  const server = createServer((req: IncomingMessage, res) => {
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
