import type { ServerResponse } from 'node:http';

/** Resolves when the response can take more data (or is gone). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Streams a body with backpressure, so a big export never becomes one big string. */
export async function streamBody(res: ServerResponse, headers: Record<string, string>, chunks: Iterable<string | Uint8Array>): Promise<void> {
  res.writeHead(200, headers);
  for (const chunk of chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await drained(res);
  }
  res.end();
}
