import http from 'node:http';
import https from 'node:https';

export interface PostResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * POSTs raw bytes exactly as given, without following redirects (like the service's deliveries) and
 * without keep-alive, so a one-shot CLI exits as soon as the answer is in.
 */
export function postRaw(
  url: URL,
  o: { headers: Record<string, string>; body: Buffer; timeoutMs: number; signal?: AbortSignal; method?: string },
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(
      url,
      { method: o.method ?? 'POST', headers: { ...o.headers, 'content-length': String(o.body.length) }, agent: false, signal: o.signal, timeout: o.timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error(`No answer within ${o.timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(o.body);
  });
}
