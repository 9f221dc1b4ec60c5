import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from './auth.js';
import type { App, Ctx, Handler, PublicCtx, RouteTable } from './context.js';
import { HttpError, notFound } from './errors.js';
import { RateLimiter } from './ratelimit.js';
import { Router } from './router.js';
import { registerExport } from './routes/export.js';
import { registerForms } from './routes/forms.js';
import { registerIntegrations } from './routes/integrations.js';
import { registerMembers } from './routes/members.js';
import { registerSandboxUsers } from './routes/sandbox-users.js';
import { registerSharePage } from './routes/share-page.js';
import { registerSubmissions } from './routes/submissions.js';
import { registerWorkspaces } from './routes/workspaces.js';
import { isObject } from './validation.js';

const MAX_BODY_BYTES = 10 * 1024 * 1024;

interface Route {
  auth: boolean;
  handler: Handler<Ctx> | Handler<PublicCtx>;
}

/** Every route of the sandbox. */
export function buildRouter(): Router<Route> {
  const router = new Router<Route>();
  const table: RouteTable = {
    api: (method, path, handler) => router.add(method, path, { auth: true, handler }),
    open: (method, path, handler) => router.add(method, path, { auth: false, handler }),
  };
  registerWorkspaces(table);
  registerMembers(table);
  registerForms(table);
  registerSubmissions(table);
  registerExport(table);
  registerIntegrations(table);
  registerSharePage(table);
  registerSandboxUsers(table);
  return router;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      reject(new HttpError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('error', () => reject(new HttpError(400, 'The request body could not be read.')));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return reject(new HttpError(400, 'The request body is not valid JSON.'));
      }
      if (!isObject(parsed)) return reject(new HttpError(400, 'The request body must be a JSON object.'));
      resolve(parsed);
    });
  });
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client for the rate limit. */
function clientIp(req: IncomingMessage): string {
  const ip = req.socket.remoteAddress ?? 'unknown';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/**
 * The request pipeline: rate limit (per IP, every route) → route (404/405) → token (401) →
 * handler (404 → 403 → 422 inside) → JSON reply. Unexpected exceptions become 500
 * `{message: "Server error."}` with no detail on the wire.
 */
export function requestListener(app: App, router: Router<Route>, limiter: RateLimiter | undefined) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let baseHeaders: Record<string, string> = {};
    try {
      if (limiter) {
        const decision = limiter.hit(clientIp(req));
        baseHeaders = decision.headers;
        if (!decision.allowed) throw new HttpError(429, 'Too Many Attempts.');
      }
      const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
      const method = req.method ?? 'GET';
      const match = router.match(method, url.pathname);
      if (!match) throw notFound(`The route ${url.pathname} could not be found.`);
      if ('allow' in match) {
        throw new HttpError(405, `The ${method} method is not supported for route ${url.pathname}. Supported methods: ${match.allow.join(', ')}.`, undefined, {
          Allow: match.allow.join(', '),
        });
      }
      let body: Promise<Record<string, unknown>> | undefined;
      const ctx: PublicCtx = { app, req, res, url, params: match.params, baseHeaders, body: () => (body ??= readBody(req)) };
      const route = match.handler;
      const reply = route.auth
        ? await (route.handler as Handler<Ctx>)({ ...ctx, caller: authenticate(req, app.store) })
        : await (route.handler as Handler<PublicCtx>)(ctx);
      if (reply?.raw !== undefined) {
        res.writeHead(reply.status, { ...baseHeaders, ...reply.headers, 'Content-Length': String(Buffer.byteLength(reply.raw)) });
        res.end(reply.raw);
      } else if (reply) sendJson(res, reply.status, reply.body, { ...baseHeaders, ...reply.headers });
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof HttpError) {
        const body = err.errors ? { message: err.message, errors: err.errors } : { message: err.message };
        sendJson(res, err.status, body, { ...baseHeaders, ...err.headers });
      } else {
        process.emitWarning(`formctl sandbox: unexpected error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
        sendJson(res, 500, { message: 'Server error.' }, baseHeaders);
      }
    }
  };
}

/** Creates the node:http server (not yet listening) and counts in-flight requests for a graceful close. */
export function createHttpServer(app: App): { server: http.Server; drained: () => Promise<void> } {
  const limiter = app.opts.rateLimit > 0 ? new RateLimiter(app.opts.rateLimit, app.opts.now) : undefined;
  const listener = requestListener(app, buildRouter(), limiter);
  let inflight = 0;
  let waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    inflight += 1;
    res.on('close', () => {
      inflight -= 1;
      if (inflight === 0) {
        for (const w of waiters) w();
        waiters = [];
      }
    });
    void listener(req, res);
  });
  return {
    server,
    drained: () => (inflight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
  };
}
