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
    req.on('timeout', () => req.destroy(Object.assign(new Error(`No answer from ${url.host} within ${seconds(o.timeoutMs)}`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(o.body);
  });
}

function seconds(ms: number): string {
  return ms < 10_000 && ms % 1000 !== 0 ? `${ms / 1000} s` : `${Math.round(ms / 1000)} s`;
}

/**
 * Why a POST to `url` failed, in the words the API client uses for the same errno codes ("Connection
 * refused by 127.0.0.1:9"), without a trailing period; `code` keeps the errno for scripts.
 */
export function describeFailure(err: unknown, url: URL): { reason: string; code?: string } {
  const e = err as NodeJS.ErrnoException;
  const code = e.code ?? (e.cause as NodeJS.ErrnoException | undefined)?.code;
  const host = url.host;
  switch (code) {
    case 'ECONNREFUSED':
      return { reason: `Connection refused by ${host}`, code };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { reason: `Could not resolve ${url.hostname}`, code };
    case 'ETIMEDOUT':
      // postRaw's own timeout says how long it waited; a connect timeout from the OS does not.
      return { reason: /^No answer/.test(e.message) ? e.message : `No answer from ${host}`, code };
    case 'ECONNRESET':
    case 'EPIPE':
      return { reason: `The connection to ${host} was dropped`, code };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { reason: `No route to ${host}`, code };
    default:
      if (code && /CERT|SSL|TLS|SELF_SIGNED/i.test(code)) return { reason: `TLS error talking to ${host}: ${code}`, code };
      return { reason: `Could not reach ${host}: ${code ?? e.message}`, code };
  }
}
