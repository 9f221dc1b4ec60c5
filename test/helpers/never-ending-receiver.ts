import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The receiver stops sending here, so that a client without a bound fails its test instead of filling the memory. */
export const RECEIVER_STOPS_AT = 64 * 1024 * 1024;

export interface NeverEndingReceiver {
  /** `http://127.0.0.1:<port>/hook` */
  url: string;
  /** How many bytes of answer body it wrote. */
  written(): number;
  /** Resolves once a client's connection closed (the client hung up: the answer never ends by itself). */
  hungUp(): Promise<void>;
  /** Stops it and drops its connections; call it on every path. */
  close(): Promise<void>;
}

/**
 * A webhook receiver (node:http on port 0) that answers 200 and never finishes the body.
 * `endless`: 64 KiB chunks of `a` as fast as they are read (up to RECEIVER_STOPS_AT, then it holds the
 * connection open). `trickle`: one `.` every 100 ms: never idle for long, never done.
 */
export async function startNeverEndingReceiver(kind: 'endless' | 'trickle'): Promise<NeverEndingReceiver> {
  let written = 0;
  let hungUp!: () => void;
  const closed = new Promise<void>((r) => (hungUp = r));
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    req.resume();
    res.on('close', () => hungUp());
    res.writeHead(200, { 'content-type': 'text/plain' });
    if (kind === 'trickle') {
      const t = setInterval(() => {
        written += 1;
        res.write('.');
      }, 100);
      timers.add(t);
      res.on('close', () => clearInterval(t));
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = (): void => {
      while (!res.destroyed && written < RECEIVER_STOPS_AT) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    written: () => written,
    hungUp: () => closed,
    close: async () => {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
