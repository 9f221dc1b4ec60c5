import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ClientOptions, isLoopbackHost } from '../../../src/api/client.js';
import {
  ApiError,
  ForbiddenError,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  ServerError,
  UnauthorizedError,
  ValidationError,
} from '../../../src/api/errors.js';
import { apiPath } from '../../../src/api/path.js';
import { SharedBudget } from '../../../src/api/ratelimit.js';
import { CliError, InterruptedError, UsageError } from '../../../src/errors.js';
import { userAgent } from '../../../src/version.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';

const TOKEN = 'fct_S3cr3tT0kenValue_0123456789';

const servers: StubServer[] = [];
const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function stub(handler: Parameters<typeof startStubServer>[0]): Promise<StubServer> {
  const s = await startStubServer(handler);
  servers.push(s);
  return s;
}

/** A client whose retries never really wait: sleeps are recorded instead. */
function client(baseUrl: string, o: Partial<ClientOptions> = {}): { c: ApiClient; sleeps: number[]; log: string[] } {
  const sleeps: number[] = [];
  const log: string[] = [];
  const c = new ApiClient({
    baseUrl,
    token: TOKEN,
    userAgent: userAgent(),
    timeoutMs: 5_000,
    maxWaitMs: 60_000,
    retryBaseMs: 1,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    debug: (line) => log.push(line),
    ...o,
  });
  clients.push(c);
  return { c, sleeps, log };
}

async function failure(p: Promise<unknown>): Promise<CliError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    return e as CliError;
  }
  throw new Error('expected the request to fail');
}

const ok = (_req: unknown, res: Parameters<typeof json>[0]) => json(res, 200, { ok: true });

describe('URL building', () => {
  it.each([
    ['no trailing slash', '', '/open/workspaces', '/open/workspaces'],
    ['trailing slash', '/', '/open/workspaces', '/open/workspaces'],
    ['path without leading slash', '', 'open/workspaces', '/open/workspaces'],
    ['base path prefix', '/api', '/open/workspaces', '/api/open/workspaces'],
    ['base path prefix with slash', '/api/', '/open/workspaces', '/api/open/workspaces'],
    ['double leading slash stays under the prefix', '/api', '//open/workspaces', '/api/open/workspaces'],
  ])('joins base URL and path (%s)', async (_name, prefix, path, expected) => {
    const s = await stub(ok);
    const { c } = client(s.url + prefix);
    await c.request({ path });
    expect(s.requests.map((r) => r.url)).toEqual([expected]);
  });

  it('adds query parameters, skipping undefined and null', async () => {
    const s = await stub(ok);
    const { c } = client(s.url);
    await c.request({ path: '/open/forms', query: { page: 2, per_page: 50, q: 'a b&c', all: true, x: undefined, y: null } });
    expect(s.requests[0]!.url).toBe('/open/forms?page=2&per_page=50&q=a+b%26c&all=true');
  });

  it('sends apiPath segments percent-encoded, exactly as built', async () => {
    const s = await stub(ok);
    const { c } = client(s.url + '/api/');
    await c.request({ path: apiPath`/open/forms/${'a b/c?d#e%f'}/submissions/${42}` });
    expect(s.requests[0]!.url).toBe('/api/open/forms/a%20b%2Fc%3Fd%23e%25f/submissions/42');
  });

  it('keeps a first segment with a colon as a path, not a scheme', async () => {
    const s = await stub(ok);
    const { c } = client(s.url);
    await c.request({ path: 'mailto:x/y' });
    expect(s.requests[0]!.url).toBe('/mailto:x/y');
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => client('ftp://example.com')).toThrow(UsageError);
    expect(() => client('not a url')).toThrow(/Invalid base URL/);
  });
});

describe('request headers and bodies', () => {
  it('sends bearer auth, JSON accept and the formctl User-Agent on a GET, without a body', async () => {
    const s = await stub(ok);
    const { c } = client(s.url);
    const res = await c.request({ path: '/open/workspaces' });
    expect(res).toMatchObject({ status: 200, data: { ok: true } });
    const h = s.requests[0]!.headers;
    expect(s.requests[0]!.method).toBe('GET');
    expect(h.authorization).toBe(`Bearer ${TOKEN}`);
    expect(h.accept).toBe('application/json');
    expect(h['user-agent']).toBe(`formctl/0.1.0 node/${process.versions.node}`);
    expect(h['user-agent']).toMatch(/^formctl\/\d+\.\d+\.\d+\S* node\/\d+\.\d+\.\d+$/);
    expect(h['content-type']).toBeUndefined();
    expect(s.requests[0]!.body).toBe('');
  });

  it('sends a JSON body with Content-Type application/json', async () => {
    const s = await stub((_req, res) => json(res, 201, { id: 7 }));
    const { c } = client(s.url);
    const res = await c.request({ method: 'POST', path: '/open/workspaces/create', body: { name: 'Ünïcode ✓', emoji: '🚀' } });
    expect(res).toMatchObject({ status: 201, data: { id: 7 } });
    const r = s.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body)).toEqual({ name: 'Ünïcode ✓', emoji: '🚀' });
  });

  it('sends a raw body as-is with its content type', async () => {
    const s = await stub(ok);
    const { c } = client(s.url);
    await c.request({ method: 'PUT', path: '/x', rawBody: 'a,b\n1,2\n', contentType: 'text/csv' });
    expect(s.requests[0]!.body).toBe('a,b\n1,2\n');
    expect(s.requests[0]!.headers['content-type']).toBe('text/csv');
  });

  it('a header Node refuses to send is local input (exit 2, not sent), never "a malformed answer" of the service', async () => {
    const s = await stub(ok);
    const { c, sleeps } = client(s.url);
    for (const method of ['GET', 'POST'] as const) {
      const e = await failure(
        c.request({ method, path: '/open/workspaces', headers: { 'x-a': 'a\r\nX-B: b' }, retry: method === 'POST' ? 'never-after-send' : undefined }),
      );
      expect([e.exitCode, e.message]).toEqual([
        2,
        expect.stringMatching(
          new RegExp(
            `^The request to 127\\.0\\.0\\.1:\\d+ was not sent: a header name or value is not valid HTTP \\(ERR_INVALID_CHAR\\) \\(${method} /open/workspaces\\)\\.$`,
          ),
        ),
      ]);
      expect(e.message).not.toMatch(/malformed|may have/);
    }
    expect([s.requests, sleeps]).toEqual([[], []]);
  });

  it('sends no Authorization header without a token', async () => {
    const s = await stub(ok);
    const { c } = client(s.url, { token: undefined });
    await c.request({ path: '/x' });
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
  });
});

describe('response bodies', () => {
  it('returns undefined data for an empty 204', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const { c } = client(s.url);
    expect(await c.request({ method: 'POST', path: '/open/workspaces/1/leave' })).toMatchObject({ status: 204, data: undefined });
  });

  it('returns non-JSON text as a string', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('id,name\n1,a\n');
    });
    const { c } = client(s.url);
    expect((await c.request({ path: '/x' })).data).toBe('id,name\n1,a\n');
  });

  it('turns invalid JSON in a 2xx into a clear error (exit 1)', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data": [1, 2');
    });
    const { c } = client(s.url);
    const e = await failure(c.request({ path: '/open/workspaces' }));
    expect(e.exitCode).toBe(1);
    expect(e.message).toBe('The service sent invalid JSON (HTTP 200, GET /open/workspaces).');
  });

  it('streams a body for downloads byte for byte (BOM kept)', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('\ufeffid\n1\n');
    });
    const { c } = client(s.url);
    const res = await c.stream({ path: '/x.csv' });
    const chunks: Buffer[] = [];
    for await (const b of res.body) chunks.push(b as Buffer);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from('\ufeffid\n1\n', 'utf8'));
    // Content-Length or chunked framing: a cut would be detected.
    expect(res.untilClose).toBe(false);
  });
});

describe('typed errors by status', () => {
  const cases: Array<[number, new (...a: never[]) => ApiError, number]> = [
    [401, UnauthorizedError, 4],
    [403, ForbiddenError, 5],
    [404, NotFoundError, 6],
    [405, MethodNotAllowedError, 6],
    [400, ValidationError, 7],
    [413, PayloadTooLargeError, 7],
    [422, ValidationError, 7],
    [429, RateLimitError, 8],
    [500, ServerError, 1],
    [503, ServerError, 1],
    [418, ServerError, 1],
  ];
  it.each(cases)('HTTP %i → %o, exit %i', async (status, cls, exit) => {
    const s = await stub((_req, res) => json(res, status, { message: `Server says ${status}` }));
    const { c } = client(s.url, { maxWaitMs: 0 });
    const e = await failure(c.request({ method: 'POST', path: '/open/forms', body: {} }));
    expect(e).toBeInstanceOf(cls);
    expect(e.exitCode).toBe(exit);
    expect(e.message).toBe(`Server says ${status}. (HTTP ${status}, POST /open/forms)`);
    expect((e as ApiError).status).toBe(status);
  });

  it('405 without a body (a HEAD) names the methods of its Allow header; 413 says the body is too large', async () => {
    const s = await stub((req, res) => {
      if (req.method === 'HEAD') {
        res.writeHead(405, { allow: 'POST' });
        return void res.end();
      }
      res.writeHead(413, { 'content-type': 'text/html' });
      res.end('<html>413 Request Entity Too Large</html>');
    });
    const { c } = client(s.url, { maxWaitMs: 0 });
    const head = await failure(c.request({ method: 'HEAD', path: '/open/workspaces/create' }));
    expect([head.exitCode, head.message, head.hint]).toEqual([
      6,
      'Method not allowed. (HTTP 405, HEAD /open/workspaces/create)',
      'That path takes POST, not HEAD.',
    ]);
    const big = await failure(c.request({ method: 'POST', path: '/open/workspaces/create', rawBody: 'x' }));
    expect([big.exitCode, big.message]).toEqual([7, 'The request body is too large. (HTTP 413, POST /open/workspaces/create)']);
  });

  it('uses a default message when the body has none (HTML error page)', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad gateway</html>');
    });
    const { c } = client(s.url);
    const e = await failure(c.request({ method: 'POST', path: '/x' }));
    expect(e.message).toBe('The service had an internal error. (HTTP 502, POST /x)');
    expect(e.hint).toBe('The service failed; try again later.');
  });

  it('401 hints at auth login', async () => {
    const s = await stub((_req, res) => json(res, 401, { message: 'Unauthenticated.' }));
    const { c } = client(s.url);
    const e = await failure(c.request({ path: '/open/workspaces' }));
    expect(e.message).toBe('Unauthenticated. (HTTP 401, GET /open/workspaces)');
    expect(e.hint).toContain('formctl auth login');
  });

  it('403 names the ability the endpoint needs', async () => {
    const s = await stub((_req, res) => json(res, 403, { message: 'This action is unauthorized.' }));
    const { c } = client(s.url);
    const e = await failure(c.request({ method: 'POST', path: '/open/forms', body: {}, ability: 'forms-write' }));
    expect(e).toBeInstanceOf(ForbiddenError);
    expect((e as ForbiddenError).ability).toBe('forms-write');
    expect(e.hint).toBe(
      'This needs a token with the `forms-write` ability (or your role in the workspace does not allow it). Create a token with that ability and run `formctl auth login`.',
    );
  });

  it('403 for the Community seat limit says so', async () => {
    const s = await stub((_req, res) => json(res, 403, { message: 'You have reached the user limit of the Community edition.' }));
    const { c } = client(s.url);
    const e = await failure(c.request({ method: 'POST', path: '/open/workspaces/1/users/add', body: {}, ability: 'workspace-users-write' }));
    expect(e.hint).toContain('2 users');
  });

  it('422 carries the server message and dotted-path field errors', async () => {
    const s = await stub((_req, res) =>
      json(res, 422, {
        message: 'The title field is required. (and 2 more errors)',
        errors: { title: ['The title field is required.'], 'properties.0.name': ['The name is required.', 'The name must be a string.'] },
      }),
    );
    const { c } = client(s.url);
    const e = (await failure(c.request({ method: 'PUT', path: apiPath`/open/forms/${3}`, body: {} }))) as ValidationError;
    expect(e.exitCode).toBe(7);
    expect(e.message).toBe(
      [
        'The title field is required. (and 2 more errors). (HTTP 422, PUT /open/forms/3)',
        '  title: The title field is required.',
        '  properties.0.name: The name is required.',
        '  properties.0.name: The name must be a string.',
      ].join('\n'),
    );
    expect(e.errors).toEqual({ title: ['The title field is required.'], 'properties.0.name': ['The name is required.', 'The name must be a string.'] });
    expect(e.serverMessage).toBe('The title field is required. (and 2 more errors)');
  });

  it('400 with an `error` string instead of `message`', async () => {
    const s = await stub((_req, res) => json(res, 400, { error: 'Bad columns' }));
    const { c } = client(s.url);
    const e = await failure(c.request({ method: 'POST', path: '/x', body: {} }));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe('Bad columns. (HTTP 400, POST /x)');
  });

  it('returns statuses listed in acceptStatuses as data', async () => {
    const s = await stub((_req, res) => json(res, 404, { message: 'nope' }));
    const { c } = client(s.url);
    expect(await c.request({ path: '/x', acceptStatuses: [404] })).toMatchObject({ status: 404, data: { message: 'nope' } });
  });
});

describe('retries', () => {
  it.each(['GET', 'PUT', 'DELETE'] as const)('retries %s after 502, 503 and 504', async (method) => {
    const s = await stub((_req, res, i) => (i < 3 ? json(res, [502, 503, 504][i]!, { message: 'busy' }) : json(res, 200, { ok: 1 })));
    const { c, sleeps } = client(s.url);
    const res = await c.request({ method, path: '/x', body: method === 'PUT' ? { a: 1 } : undefined });
    expect(res.data).toEqual({ ok: 1 });
    expect(s.requests.map((r) => r.method)).toEqual([method, method, method, method]);
    expect(sleeps).toHaveLength(3);
    if (method === 'PUT') expect(s.requests.map((r) => r.body)).toEqual(Array(4).fill('{"a":1}'));
  });

  it('does not retry a POST after a 503 (it may have been applied)', async () => {
    const s = await stub((_req, res) => json(res, 503, { message: 'Service Unavailable' }));
    const { c, sleeps } = client(s.url);
    const e = await failure(c.request({ method: 'POST', path: '/open/forms', body: { title: 'x' } }));
    expect(e).toBeInstanceOf(ServerError);
    expect(e.exitCode).toBe(1);
    expect(s.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry a PATCH after a 503', async () => {
    const s = await stub((_req, res) => json(res, 503, {}));
    const { c } = client(s.url);
    await failure(c.request({ method: 'PATCH', path: '/x', body: {} }));
    expect(s.requests).toHaveLength(1);
  });

  it('does not retry a POST after a dropped connection', async () => {
    const s = await stub((_req, res) => void res.socket?.destroy());
    const { c, sleeps } = client(s.url);
    const e = await failure(c.request({ method: 'POST', path: '/open/forms', body: {} }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.exitCode).toBe(11);
    expect(e.message).toMatch(/^The connection to 127\.0\.0\.1:\d+ was dropped \(POST \/open\/forms\)\.$/);
    expect(s.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a GET after a dropped connection', async () => {
    const s = await stub((_req, res, i) => (i === 0 ? void res.socket?.destroy() : json(res, 200, [1])));
    const { c, sleeps } = client(s.url);
    expect((await c.request({ path: '/x' })).data).toEqual([1]);
    expect(s.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('gives up on 5xx after 5 attempts with exponential backoff', async () => {
    const s = await stub((_req, res) => json(res, 503, {}));
    const { c, sleeps } = client(s.url, { retryBaseMs: 100 });
    const e = await failure(c.request({ path: '/x' }));
    expect(e.exitCode).toBe(1);
    expect(s.requests).toHaveLength(5);
    // Full jitter in the upper half: attempt n waits between base·2^(n-1)/2 and base·2^(n-1).
    expect(sleeps).toHaveLength(4);
    sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual((100 * 2 ** i) / 2);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** i);
    });
  });

  it('stops retrying 5xx when the next wait would pass --max-wait', async () => {
    const s = await stub((_req, res) => json(res, 503, {}));
    const { c, sleeps } = client(s.url, { retryBaseMs: 100, maxWaitMs: 0 });
    await failure(c.request({ path: '/x' }));
    expect(s.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a 429 for a POST, honouring Retry-After seconds', async () => {
    const s = await stub((_req, res, i) =>
      i === 0
        ? json(res, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': '2', 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0' })
        : json(res, 201, { id: 1 }),
    );
    const { c, sleeps } = client(s.url);
    const res = await c.request({ method: 'POST', path: '/open/forms', body: { a: 1 } });
    expect(res.status).toBe(201);
    expect(sleeps).toEqual([2000]);
    expect(s.requests.map((r) => r.body)).toEqual(['{"a":1}', '{"a":1}']);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    const s = await stub((_req, res, i) => (i === 0 ? json(res, 429, {}, { 'Retry-After': new Date(now + 7_000).toUTCString() }) : json(res, 200, {})));
    const { c, sleeps } = client(s.url, { now: () => now });
    await c.request({ path: '/x' });
    expect(sleeps).toEqual([7000]);
  });

  it('falls back to X-RateLimit-Reset (epoch seconds) without Retry-After', async () => {
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    const s = await stub((_req, res, i) => (i === 0 ? json(res, 429, {}, { 'X-RateLimit-Reset': String(now / 1000 + 5) }) : json(res, 200, {})));
    const { c, sleeps } = client(s.url, { now: () => now });
    await c.request({ path: '/x' });
    expect(sleeps).toEqual([5000]);
  });

  it('gives up on a 429 at once when Retry-After exceeds --max-wait (exit 8)', async () => {
    const s = await stub((_req, res) => json(res, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': '120' }));
    const { c, sleeps } = client(s.url, { maxWaitMs: 60_000 });
    const e = (await failure(c.request({ path: '/open/workspaces' }))) as RateLimitError;
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e.exitCode).toBe(8);
    expect(e.retryAfterSeconds).toBe(120);
    expect(e.message).toBe('Too Many Attempts. (HTTP 429, GET /open/workspaces)');
    expect(e.hint).toBe('The service asked to wait 120 s, longer than --max-wait allows. Wait and retry, or raise --max-wait.');
    expect(s.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('keeps retrying 429s until the waits add up to --max-wait', async () => {
    const s = await stub((_req, res) => json(res, 429, {}, { 'Retry-After': '1' }));
    const { c, sleeps } = client(s.url, { maxWaitMs: 3_000 });
    const e = await failure(c.request({ method: 'DELETE', path: '/x' }));
    expect(e.exitCode).toBe(8);
    expect(sleeps).toEqual([1000, 1000, 1000]);
    expect(s.requests).toHaveLength(4);
  });

  it('reports a refused connection to a loopback host at once (exit 11): nothing listens there, retrying cannot help', async () => {
    const s = await stub(ok);
    const url = s.url;
    await s.close();
    servers.splice(servers.indexOf(s), 1);
    const { c, sleeps } = client(url);
    const e = await failure(c.request({ path: '/open/workspaces' }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.exitCode).toBe(11);
    expect(e.message).toMatch(/^Connection refused by 127\.0\.0\.1:\d+ \(GET \/open\/workspaces\)\.$/);
    expect(sleeps).toEqual([]);
  });
});

describe('timeouts', () => {
  it('a headers timeout is a NetworkError (exit 11) with a clear message, not retried', async () => {
    const s = await stub(() => undefined);
    const { c, sleeps } = client(s.url, { timeoutMs: 150 });
    const e = await failure(c.request({ path: '/open/workspaces' }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.exitCode).toBe(11);
    expect(e.message).toBe('The service did not answer within 0.15 s (--timeout) (GET /open/workspaces).');
    expect(e.hint).toBe('Raise --timeout, or try again later.');
    expect((e as NetworkError).code).toMatch(/^(UND_ERR_HEADERS_TIMEOUT|FORMCTL_EXCHANGE_TIMEOUT)$/);
    expect(s.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a body that stalls after the headers is a NetworkError too', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[1,');
    });
    const { c } = client(s.url, { timeoutMs: 150 });
    const e = await failure(c.request({ path: '/x' }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.exitCode).toBe(11);
    expect((e as NetworkError).code).toMatch(/^(UND_ERR_BODY_TIMEOUT|FORMCTL_EXCHANGE_TIMEOUT)$/);
  });

  it('an aborted signal is an interruption (exit 130)', async () => {
    const s = await stub(() => undefined);
    const ac = new AbortController();
    const { c } = client(s.url, { signal: ac.signal });
    const p = c.request({ path: '/x' });
    setTimeout(() => ac.abort(), 20);
    const e = await failure(p);
    expect(e).toBeInstanceOf(InterruptedError);
    expect(e.exitCode).toBe(130);
  });
});

describe('rate-limit awareness', () => {
  it('tracks X-RateLimit-Limit and -Remaining from every answer', async () => {
    const s = await stub((_req, res, i) => json(res, 200, {}, { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': String(99 - i) }));
    const { c, log } = client(s.url);
    expect(c.rateLimit).toEqual({});
    await c.request({ path: '/a' });
    expect(c.rateLimit).toEqual({ limit: 100, remaining: 99 });
    await c.request({ path: '/b' });
    expect(c.rateLimit).toEqual({ limit: 100, remaining: 98 });
    expect(log.some((l) => l.endsWith('ratelimit-remaining=98'))).toBe(true);
  });

  // The deployed service's export route has a bucket of 10 a minute on top of the general 100: an
  // export answer's headers must not make every later request wait as if the service allowed 10.
  describe('limiter buckets', () => {
    let dir: string | undefined;
    afterEach(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    });

    /** A stub that answers like the deployed service: the export POST with its own bucket's headers. */
    async function deployedStub(): Promise<StubServer> {
      let general = 0;
      let exports = 0;
      return stub((req, res) => {
        general++;
        if (req.method === 'POST' && req.url.endsWith('/export')) {
          exports++;
          if (exports > 10)
            return json(res, 429, { message: 'Too Many Attempts.' }, { 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'Retry-After': '42' });
          return json(res, 200, {}, { 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': String(10 - exports) });
        }
        json(res, 200, {}, { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': String(100 - general) });
      });
    }

    function budgetsAt(url: string, clock: { t: number }) {
      dir ??= mkdtempSync(join(tmpdir(), 'formctl-buckets-'));
      const origin = new URL(url).origin;
      return {
        general: new SharedBudget(dir, origin, TOKEN, { now: () => clock.t }),
        export: new SharedBudget(dir, origin, TOKEN, { now: () => clock.t, bucket: 'export' }),
      };
    }

    it('an export answer with limit 10 tunes only the export bucket: general requests after it are not held', async () => {
      const s = await deployedStub();
      const clock = { t: 1_800_000_000_000 };
      const waits: string[] = [];
      const { c, sleeps } = client(s.url, { budgets: budgetsAt(s.url, clock), now: () => clock.t, onWait: (w) => waits.push(w.reason) });
      await c.request({ path: '/form' });
      await c.request({ method: 'POST', path: '/form/export', bucket: 'export' });
      expect(c.rateLimit).toEqual({ limit: 100, remaining: 99 });
      expect(c.rateLimits.export).toEqual({ limit: 10, remaining: 9 });
      // 40 general requests in the same second: far under 100 a minute, so none waits.
      for (let i = 0; i < 40; i++) await c.request({ path: `/page/${i}` });
      expect(sleeps).toEqual([]);
      expect(waits).toEqual([]);
      expect(c.rateLimit.limit).toBe(100);
      expect(c.rateLimit.remaining).toBe(100 - 42);
    });

    it('export requests are paced by the export budget and counted in the general one too', async () => {
      const s = await deployedStub();
      const clock = { t: 1_800_000_000_000 };
      const budgets = budgetsAt(s.url, clock);
      const waits: string[] = [];
      const { c, sleeps } = client(s.url, { budgets, now: () => clock.t, onWait: (w) => waits.push(w.reason) });
      await c.request({ path: '/form' });
      // budgetFor(10) = 8 export POSTs in any 60 s (a chunk takes a second here): the 9th waits for the export window.
      for (let i = 0; i < 8; i++) {
        await c.request({ method: 'POST', path: '/form/export', bucket: 'export' });
        clock.t += 1000;
      }
      expect(sleeps).toEqual([]);
      await c.request({ method: 'POST', path: '/form/export', bucket: 'export' });
      expect(sleeps).toHaveLength(1);
      expect(sleeps[0]).toBeGreaterThan(50_000);
      expect(waits[0]).toContain('export rate limit');
      // The export POSTs were counted in the general budget: 1 + 9 sends recorded there.
      const general = JSON.parse(readFileSync(budgets.general.file, 'utf8')) as { sent: Array<[number, number]>; limit: number };
      expect(general.limit).toBe(100);
      expect(general.sent.reduce((n, [, k]) => n + k, 0)).toBe(10);
      const exportFile = JSON.parse(readFileSync(budgets.export.file, 'utf8')) as { limit: number };
      expect(exportFile.limit).toBe(10);
      expect(budgets.export.file).not.toBe(budgets.general.file);
    });

    it('a request given up while it waits for its slot (Ctrl-C) gives the slot back to the processes sharing the budget', async () => {
      const s = await deployedStub();
      const clock = { t: 1_800_000_000_000 };
      const budgets = budgetsAt(s.url, clock);
      const { c } = client(s.url, {
        budgets,
        now: () => clock.t,
        // Ctrl-C during the long wait for the export window.
        sleep: async (ms) => {
          if (ms > 50_000) throw new InterruptedError();
        },
      });
      await c.request({ path: '/form' });
      for (let i = 0; i < 8; i++) {
        await c.request({ method: 'POST', path: '/form/export', bucket: 'export' });
        clock.t += 1000;
      }
      const sentIn = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { sent: Array<[number, number]> }).sent.reduce((n, [, k]) => n + k, 0);
      expect(sentIn(budgets.export.file)).toBe(8);
      const posts = s.requests.length;
      await expect(c.request({ method: 'POST', path: '/form/export', bucket: 'export' })).rejects.toBeInstanceOf(InterruptedError);
      expect(s.requests.length).toBe(posts);
      // The slot it had reserved a minute ahead is no longer counted: another process may take it.
      expect(sentIn(budgets.export.file)).toBe(8);
    });

    it('a 429 on an export request holds only the export bucket', async () => {
      const s = await stub((req, res) => {
        if (req.method === 'POST')
          return json(res, 429, { message: 'Too Many Attempts.' }, { 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'Retry-After': '30' });
        json(res, 200, {}, { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '90' });
      });
      const clock = { t: 1_800_000_000_000 };
      const { c, sleeps } = client(s.url, { budgets: budgetsAt(s.url, clock), now: () => clock.t, maxWaitMs: 10_000 });
      await c.request({ path: '/form' });
      await expect(c.request({ method: 'POST', path: '/form/export', bucket: 'export' })).rejects.toBeInstanceOf(RateLimitError);
      await c.request({ path: '/form' });
      expect(sleeps).toEqual([]);
      // The next export is refused before sending: the export budget is held for the Retry-After.
      const before = s.requests.length;
      const refused = await c.request({ method: 'POST', path: '/form/export', bucket: 'export' }).then(
        () => undefined,
        (e: unknown) => e as RateLimitError,
      );
      expect(refused).toBeInstanceOf(RateLimitError);
      expect(s.requests.length).toBe(before);
      // Nothing was sent, so no HTTP status is quoted beside it (it read "nothing was sent (HTTP 429, POST …)").
      expect(refused!.message).toBe('The export rate limit for this minute is used up (by this and other formctl processes). (not sent: POST /form/export)');
      expect(refused!.hint).toMatch(/^The budget frees up in \d+ s, longer than --max-wait allows\. Wait and retry, or raise --max-wait\.$/);
    });

    it('a who-am-I request (external bucket) is counted in its own budget only, never in the general one', async () => {
      let general = 0;
      let external = 0;
      const s = await stub((req, res) => {
        if (req.url.startsWith('/external/')) {
          external++;
          return json(res, 200, { name: 'Ada', email: 'ada@example.com' }, { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': String(60 - external) });
        }
        general++;
        json(res, 200, {}, { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': String(100 - general) });
      });
      const clock = { t: 1_800_000_000_000 };
      dir ??= mkdtempSync(join(tmpdir(), 'formctl-buckets-'));
      const origin = new URL(s.url).origin;
      const budgets = {
        general: new SharedBudget(dir, origin, TOKEN, { now: () => clock.t }),
        external: new SharedBudget(dir, origin, TOKEN, { now: () => clock.t, bucket: 'external' }),
      };
      const { c } = client(s.url, { budgets, now: () => clock.t });
      await c.request({ path: '/form' });
      for (let i = 0; i < 3; i++) await c.request({ path: '/external/zapier/validate', bucket: 'external' });
      expect(c.rateLimit).toEqual({ limit: 100, remaining: 99 });
      expect(c.rateLimits.external).toEqual({ limit: 60, remaining: 57 });
      await c.request({ path: '/form' });
      const sent = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { sent: Array<[number, number]> }).sent.reduce((n, [, k]) => n + k, 0);
      // Two general requests, three external ones: the general file counts only its own (the external one may hold a slot leased ahead).
      expect(sent(budgets.general.file)).toBe(2);
      expect(sent(budgets.external.file)).toBeGreaterThanOrEqual(3);
      expect((JSON.parse(readFileSync(budgets.external.file, 'utf8')) as { limit: number }).limit).toBe(60);
    });

    it("an export answer carrying the general limiter's headers (less left there) is not taken for the export bucket", async () => {
      const s = await stub((req, res) => json(res, 200, {}, { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': req.method === 'POST' ? '3' : '4' }));
      const { c } = client(s.url);
      await c.request({ path: '/form' });
      await c.request({ method: 'POST', path: '/form/export', bucket: 'export' });
      expect(c.rateLimits.export).toEqual({});
      expect(c.rateLimit).toEqual({ limit: 100, remaining: 4 });
    });
  });
});

describe('redirects', () => {
  it('does not follow a redirect and says why', async () => {
    const s = await stub((req, res) => {
      if (req.url === '/open/workspaces') {
        res.writeHead(301, { location: '/login' });
        res.end();
      } else json(res, 200, {});
    });
    const { c } = client(s.url);
    const e = await failure(c.request({ path: '/open/workspaces' }));
    expect(e.exitCode).toBe(1);
    expect(e.message).toBe('The service answered with a redirect (HTTP 301) to /login; formctl does not follow redirects.');
    expect(e.hint).toContain('base URL');
    expect(s.requests.map((r) => r.url)).toEqual(['/open/workspaces']);
  });
});

describe('the token stays secret', () => {
  it('--debug logs method, URL, status and time, never the token', async () => {
    const s = await stub((_req, res) => json(res, 200, []));
    const { c, log } = client(s.url);
    await c.request({ path: '/open/workspaces', query: { page: 1 } });
    expect(log).toHaveLength(2);
    expect(log[0]).toBe(`> GET ${s.url}/open/workspaces?page=1`);
    expect(log[1]).toMatch(/^< 200 GET \/open\/workspaces\?page=1 \(\d+ ms\)$/);
    expect(log.join('\n')).not.toContain(TOKEN);
  });

  it('a server that echoes the token gets it redacted from errors and the debug log', async () => {
    const s = await stub((req, res) => json(res, 422, { message: `Bad token ${req.headers.authorization}`, errors: { [`x${TOKEN}`]: [`value ${TOKEN}`] } }));
    const { c, log } = client(s.url);
    const e = await failure(c.request({ method: 'POST', path: '/x', body: {} }));
    const all = [e.message, e.hint ?? '', e.stack ?? '', JSON.stringify(e), log.join('\n')].join('\n');
    expect(all).not.toContain(TOKEN);
    expect(e.message).toContain('Bad token Bearer [REDACTED]');
    // The request really did carry it.
    expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('network errors and retries never show the token', async () => {
    const s = await stub((_req, res) => void res.socket?.destroy());
    const { c, log } = client(s.url);
    const e = await failure(c.request({ path: '/x' }));
    expect([e.message, e.hint, e.stack, log.join('\n')].join('\n')).not.toContain(TOKEN);
    expect(log.filter((l) => l.startsWith('> GET'))).toHaveLength(5);
  });

  it('refuses to send a token over plain http to a non-loopback host (exit 2), with no request made', async () => {
    const s = await stub(ok);
    const port = new URL(s.url).port;
    // Every host name resolves to the stub server, so a request that did leave would be recorded.
    const lookup: LookupFunction = (_host, opts, cb) =>
      (opts as { all?: boolean }).all
        ? (cb as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: '127.0.0.1', family: 4 }])
        : cb(null, '127.0.0.1', 4);
    const dispatcher = new Agent({ connect: { lookup } });
    try {
      const { c } = client(`http://api.example.com:${port}`, { dispatcher });
      const e = await failure(c.request({ path: '/open/workspaces' }));
      expect(e).toBeInstanceOf(UsageError);
      expect(e.exitCode).toBe(2);
      expect(e.message).toBe(`Refusing to send your token over plain http:// to api.example.com:${port}.`);
      expect(e.message + e.hint).not.toContain(TOKEN);
      expect(s.requests).toHaveLength(0);
      // The same host without a token is reachable: the refusal, not the network, stopped it.
      const { c: anon } = client(`http://api.example.com:${port}`, { dispatcher, token: undefined });
      await anon.request({ path: '/open/workspaces' });
      expect(s.requests).toHaveLength(1);
    } finally {
      await dispatcher.close();
    }
  });

  it('does not send the token to another origin (an export file_url), nor log its query', async () => {
    const api = await stub(ok);
    const files = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('id\n1\n');
    });
    const other = files.url.replace('127.0.0.1', 'localhost');
    const { c, log } = client(api.url);
    const res = await c.stream({ path: `${files.url}/exports/f.csv?signature=s3cr3t` });
    expect((await res.body.toArray()).join('')).toBe('id\n1\n');
    expect(files.requests[0]!.url).toBe('/exports/f.csv?signature=s3cr3t');
    expect(files.requests[0]!.headers.authorization).toBeUndefined();
    expect(log.join('\n')).not.toContain('s3cr3t');
    expect(log[0]).toBe(`> GET ${files.url}/exports/f.csv`);
    expect(other).not.toBe(files.url);
  });

  it('isLoopbackHost accepts only loopback names and addresses', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['app.localhost', 'example.com', 'localhost.example.com', '10.0.0.1', '128.0.0.1', '0.0.0.0', '[::2]', '127.0.0.1.nip.io'])
      expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe('waiting between attempts', () => {
  it('tells onWait why and how long, then Ctrl-C ends a long rate-limit wait at once (exit 130)', async () => {
    const s = await stub((_req, res) => json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '42' }));
    const controller = new AbortController();
    const waits: Array<{ ms: number; reason: string }> = [];
    const c = new ApiClient({
      baseUrl: s.url,
      token: TOKEN,
      userAgent: userAgent(),
      timeoutMs: 5_000,
      maxWaitMs: 60_000,
      signal: controller.signal,
      // The real, abortable sleep: the test would hang for 42 s if Ctrl-C did not end it.
      onWait: (w) => {
        waits.push(w);
        setImmediate(() => controller.abort());
      },
    });
    clients.push(c);
    const err = await c.request({ path: '/open/workspaces' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect((err as CliError).exitCode).toBe(130);
    expect(waits).toEqual([{ ms: 42_000, reason: 'rate limited (HTTP 429)' }]);
    expect(s.requests).toHaveLength(1);
  });

  it('an injected sleep is raced against the abort signal too', async () => {
    const s = await stub((_req, res) => json(res, 503, { message: 'Down' }));
    const controller = new AbortController();
    const { c } = client(s.url, {
      signal: controller.signal,
      sleep: () => new Promise(() => undefined), // never resolves
      onWait: () => setImmediate(() => controller.abort()),
    });
    await expect(c.request({ path: '/open/workspaces' })).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('404 hints name the resource', () => {
  it('points at the list command for the id that was not found', async () => {
    const { notFoundHint } = await import('../../../src/api/errors.js');
    expect(notFoundHint('/open/forms/7/submissions/99')).toBe('Check the submission id: formctl submission list 7');
    expect(notFoundHint('/open/forms/7/integrations/3/events')).toBe('Check the webhook id: formctl webhook list 7');
    expect(notFoundHint('/open/forms/7/submissions/export/job-1/status')).toMatch(/^The export job is unknown or expired .*formctl submission export 7$/);
    expect(notFoundHint('/open/forms/contact-us')).toBe(
      "Check the form id or slug: `formctl form list` shows the default workspace's forms, `formctl form list -w <workspace>` another's.",
    );
    expect(notFoundHint('/open/workspaces/4/users/9/remove')).toBe('Check the user id: formctl member list -w 4');
    expect(notFoundHint('/open/workspaces/4/invites/2/resend')).toBe('Check the invite id: formctl invite list -w 4');
    expect(notFoundHint('/open/workspaces/4/forms?page=1')).toMatch(/^Check the workspace id: formctl workspace list/);
    expect(notFoundHint('/open/nope')).toBe('Check the path and the ids in it.');
  });
});
