import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { authenticate } from './auth.js';
import type { App, Ctx, Flavor, Handler, PublicCtx, RouteTable } from './context.js';
import { HttpError, notFound } from './errors.js';
import { flavorOf } from './flavor.js';
import { RateLimiter } from './ratelimit.js';
import { Router } from './router.js';
import { registerAccount } from './routes/account.js';
import { registerExport } from './routes/export.js';
import { registerRetention } from './routes/retention.js';
import { registerForms } from './routes/forms.js';
import { registerIntegrations } from './routes/integrations.js';
import { registerMembers } from './routes/members.js';
import { registerSandboxUsers } from './routes/sandbox-users.js';
import { registerSharePage } from './routes/share-page.js';
import { registerSubmissions } from './routes/submissions.js';
import { registerWorkspaces } from './routes/workspaces.js';
import { isObject } from './validation.js';
import { MAX_BODY_BYTES } from '../service/forms.js';

interface Route {
  auth: boolean;
  handler: Handler<Ctx> | Handler<PublicCtx>;
}

/** Every route of the sandbox. */
export function buildRouter(flavor: Flavor = 'spec'): Router<Route> {
  const router = new Router<Route>();
  const table: RouteTable = {
    flavor,
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
  registerAccount(table);
  registerRetention(table);
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

/** Deepest nesting of arrays and objects a body may have (the body object itself is level 1). */
export const MAX_JSON_DEPTH = 32;
/** A too-large body is read and dropped up to this size, so the client can read the 413; beyond it the connection is cut. */
const DISCARD_LIMIT = 64 * 1024 * 1024;

/** Whether JSON text nests arrays/objects deeper than `max`, found without recursion (strings skipped). */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * Reads the JSON body. Above MAX_BODY_BYTES (declared or streamed, chunked included) the rest is
 * read and dropped, then 413 is answered with `Connection: close`: answering while the client is
 * still sending would have the connection reset under it and the answer lost. Nesting deeper than
 * MAX_JSON_DEPTH is 422, before parsing, so no stored value can be too deep to serialise later.
 */
function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const tooLarge = (): HttpError => new HttpError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`, undefined, { Connection: 'close' });
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > DISCARD_LIMIT) {
      // Too big to read and drop: answer at once (the client may see the connection close first).
      reject(tooLarge());
      return;
    }
    let overflow = declared > MAX_BODY_BYTES;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (overflow || size > MAX_BODY_BYTES) {
        overflow = true;
        chunks.length = 0;
        if (size > DISCARD_LIMIT) {
          reject(tooLarge());
          req.destroy();
        }
      } else chunks.push(chunk);
    });
    req.on('error', () => reject(new HttpError(400, 'The request body could not be read.')));
    req.on('end', () => {
      if (overflow) return reject(tooLarge());
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
        return reject(
          new HttpError(422, `The request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels of arrays and objects).`, {
            body: [`Values may be nested at most ${MAX_JSON_DEPTH} levels deep.`],
          }),
        );
      }
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

export interface Limiters {
  /** Every route: per client IP (spec flavour) or per authenticated user (deployed flavour). */
  general?: RateLimiter;
  /** Deployed flavour: the export route's own bucket, per user, on top of the general one. */
  exports?: RateLimiter;
  /** Both flavours: the `/external/` routes' own limiter, per user, instead of the general one. */
  external?: RateLimiter;
}

/**
 * The deployed server's `/external/` routes (`api/routes/api-external.php`) are in their own
 * middleware group, throttled by the `api` limiter (60 a minute per user) and not by the `/open/`
 * routes' general one (OpnForm `api/app/Http/Kernel.php:109-113`, `RouteServiceProvider.php:37-39,50-52`).
 */
const EXTERNAL = /^\/external\//;

/** The `/external/` limiter's key: the token's user, else the client IP (`$request->user()?->id ?: $request->ip()`). */
function userKey(app: App, req: IncomingMessage): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const token = match ? app.store.tokens.get(match[1]!) : undefined;
  return token ? `user:${token.user_id}` : `ip:${clientIp(req)}`;
}

/** The rate-limit key: deployed, the token's user (all of a user's tokens share it); else the client IP. */
function limitKey(app: App, req: IncomingMessage): string {
  if (flavorOf(app).limitPerUser) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const token = match ? app.store.tokens.get(match[1]!) : undefined;
    if (token) return `user:${token.user_id}`;
  }
  return `ip:${clientIp(req)}`;
}

/**
 * The request pipeline: rate limit (per IP, every route; deployed: per user, matched routes, export
 * with its own bucket) → route (404/405) → token (401) → handler (404 → 403 → 422 inside) → JSON
 * reply, sent once a change the request made is in the data file. Unexpected exceptions become 500
 * `{message: "Server error."}` with no detail on the wire.
 */
export function requestListener(app: App, router: Router<Route>, limiters: Limiters, durable?: (version: number) => Promise<void>) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let baseHeaders: Record<string, string> = {};
    const before = app.store.version;
    try {
      const limit = (limiter: RateLimiter | undefined, key: string): void => {
        if (!limiter) return;
        const decision = limiter.hit(key);
        baseHeaders = decision.headers;
        if (!decision.allowed) throw new HttpError(429, 'Too Many Attempts.', undefined, decision.headers);
      };
      const flavor = flavorOf(app);
      const perUser = flavor.limitPerUser;
      const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
      const external = EXTERNAL.test(url.pathname);
      if (external) limit(limiters.external, userKey(app, req));
      else if (!perUser) limit(limiters.general, limitKey(app, req));
      const method = req.method ?? 'GET';
      // HEAD is GET without the body, on both flavours: Laravel registers every GET route for HEAD
      // too (docs/service.md, "Requests in general"), and Node's server sends no body to a HEAD.
      const match = router.match(method === 'HEAD' ? 'GET' : method, url.pathname);
      // Deployed: Laravel's router answers before any middleware, naming the path without its
      // slashes (`Request::path()`); OpnForm renders them unchanged (`api/app/Exceptions/Handler.php:69-90`).
      const shownPath = flavor.laravelRouter ? url.pathname.replace(/^\/+|\/+$/g, '') || '/' : url.pathname;
      if (!match) throw notFound(`The route ${shownPath} could not be found.`);
      if ('allow' in match) {
        const allow = match.allow.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
        throw new HttpError(405, `The ${method} method is not supported for route ${shownPath}. Supported methods: ${allow.join(', ')}.`, undefined, {
          Allow: allow.join(', '),
        });
      }
      if (perUser && !external) {
        const key = limitKey(app, req);
        limit(limiters.general, key);
        if (method === 'POST' && /^\/open\/forms\/[^/]+\/submissions\/export$/.test(url.pathname)) {
          const general = baseHeaders;
          limit(limiters.exports, key);
          // As the deployed server's throttle middleware does: the export limiter's headers, unless
          // the general one has less left (a 429 from either carries its own).
          if (general['X-RateLimit-Remaining'] !== undefined && Number(general['X-RateLimit-Remaining']) < Number(baseHeaders['X-RateLimit-Remaining']))
            baseHeaders = general;
        }
      }
      let body: Promise<Record<string, unknown>> | undefined;
      const ctx: PublicCtx = { app, req, res, url, params: match.params, baseHeaders, body: () => (body ??= readBody(req)) };
      const route = match.handler;
      const reply = route.auth
        ? await (route.handler as Handler<Ctx>)({ ...ctx, caller: authenticate(req, app.store) })
        : await (route.handler as Handler<PublicCtx>)(ctx);
      // Acknowledge a change only once it is durable (group commit in persist.ts).
      if (durable && app.store.version !== before) await durable(app.store.version);
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

/**
 * Connection limits (docs/sandbox.md, "Behaviour the spec leaves open, and what the sandbox does": connections): one client (one address) holds at most
 * MAX_CONNECTIONS_PER_CLIENT connections and all clients MAX_CONNECTIONS, well below a usual file
 * limit of 1,024. A connection over a limit takes the place of the oldest idle one (no request in
 * progress: a keep-alive connection between requests, or one that never sent a request); when none
 * is idle, it is answered 503 and closed instead of waiting. Idle and slow connections are closed
 * sooner than Node's defaults.
 */
export const MAX_CONNECTIONS_PER_CLIENT = 128;
export const MAX_CONNECTIONS = 768;
const KEEP_ALIVE_MS = 5_000;
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;

interface Conn {
  socket: Socket;
  address: string;
  /** Requests in progress on it. */
  active: number;
}

/** Tracks open connections by client address; see MAX_CONNECTIONS_PER_CLIENT. */
class ConnectionLimits {
  /** Open connections, oldest first (Map iteration follows insertion order). */
  private readonly all = new Map<Socket, Conn>();
  private readonly perClient = new Map<string, number>();

  /** A new connection: admitted (perhaps in place of an idle one), or answered 503 and closed. */
  admit(socket: Socket): void {
    const address = socket.remoteAddress ?? 'unknown';
    const mine = (this.perClient.get(address) ?? 0) + 1;
    if (mine > MAX_CONNECTIONS_PER_CLIENT && !this.closeIdle((c) => c.address === address)) return refuse(socket, 'this client has too many connections open');
    if (this.all.size + 1 > MAX_CONNECTIONS && !this.closeIdle(() => true)) return refuse(socket, 'the sandbox has too many connections open');
    const conn: Conn = { socket, address, active: 0 };
    this.all.set(socket, conn);
    this.perClient.set(address, (this.perClient.get(address) ?? 0) + 1);
    socket.once('close', () => {
      if (!this.all.delete(socket)) return;
      const left = (this.perClient.get(address) ?? 1) - 1;
      if (left > 0) this.perClient.set(address, left);
      else this.perClient.delete(address);
    });
  }

  /** A request started on `socket`; the returned function ends it. */
  busy(socket: Socket): () => void {
    const conn = this.all.get(socket);
    if (!conn) return () => undefined;
    conn.active++;
    return () => {
      conn.active--;
    };
  }

  /** Closes the oldest idle connection that `which` picks; false when there is none. */
  private closeIdle(which: (c: Conn) => boolean): boolean {
    for (const c of this.all.values()) {
      if (c.active === 0 && which(c)) {
        c.socket.destroy();
        // Counted out at once: the 'close' event comes later, and the new connection needs the room now.
        this.all.delete(c.socket);
        const left = (this.perClient.get(c.address) ?? 1) - 1;
        if (left > 0) this.perClient.set(c.address, left);
        else this.perClient.delete(c.address);
        return true;
      }
    }
    return false;
  }
}

/** Connections answered 503: a request that still arrives on one is never carried out. */
const refused = new WeakSet<Socket>();

/** A 503 written straight onto a connection the sandbox will not serve, then closed. */
function refuse(socket: Socket, why: string): void {
  refused.add(socket);
  const body = JSON.stringify({ message: `Service unavailable: ${why}. Close idle connections and retry.` });
  socket.on('error', () => undefined);
  socket.end(
    `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Creates the node:http server, or the node:https one when given a certificate (--tls), not yet
 * listening, and counts in-flight requests for a graceful close.
 */
export function createHttpServer(
  app: App,
  durable?: (version: number) => Promise<void>,
  tls?: { key: string; cert: string },
): { server: http.Server | https.Server; drained: () => Promise<void> } {
  const limiters: Limiters = {
    general: app.opts.rateLimit > 0 ? new RateLimiter(app.opts.rateLimit, app.opts.now) : undefined,
    exports: flavorOf(app).exportBucket && app.opts.exportRateLimit > 0 ? new RateLimiter(app.opts.exportRateLimit, app.opts.now) : undefined,
    external: app.opts.externalRateLimit > 0 ? new RateLimiter(app.opts.externalRateLimit, app.opts.now) : undefined,
  };
  const listener = requestListener(app, buildRouter(app.opts.flavor), limiters, durable);
  let inflight = 0;
  let waiters: (() => void)[] = [];
  const connections = new ConnectionLimits();
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (refused.has(req.socket)) {
      req.socket.destroy();
      return;
    }
    inflight += 1;
    const done = connections.busy(req.socket);
    res.on('close', () => {
      done();
      inflight -= 1;
      if (inflight === 0) {
        for (const w of waiters) w();
        waiters = [];
      }
    });
    void listener(req, res);
  };
  const options = {
    keepAliveTimeout: KEEP_ALIVE_MS,
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: 1_000,
  };
  const server = tls ? https.createServer({ ...options, key: tls.key, cert: tls.cert }, handle) : http.createServer(options, handle);
  // Over TLS, a request's socket is the TLS socket made once the handshake is done (not the TCP
  // one 'connection' gives), so that is the connection the limits count; a 503 then goes over TLS.
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => connections.admit(socket));
  // A backstop past the limits above: Node closes connections beyond it at once.
  server.maxConnections = MAX_CONNECTIONS + MAX_CONNECTIONS_PER_CLIENT;
  return {
    server,
    drained: () => (inflight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
  };
}
