import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { Caller } from './auth.js';
import type { Dispatcher } from './dispatcher.js';
import type { ExportJobs } from './export/jobs.js';
import type { Store } from './store.js';

import type { Flavor } from '../service/flavors.js';

/** Which service the sandbox behaves as: the spec (default) or the deployed OpnForm server (docs/service.md). */
export type { Flavor };

/** Options after defaults are applied. */
export interface ResolvedOptions {
  flavor: Flavor;
  host: string;
  port: number;
  dataFile: string | undefined;
  rateLimit: number;
  /** Deployed flavour: exports per minute per user, beside the general limit; 0 is off. */
  exportRateLimit: number;
  /** `/external/` requests per minute per user, their own bucket instead of the general one; 0 is off (with rateLimit 0). */
  externalRateLimit: number;
  exportAsyncThreshold: number;
  allowPrivateWebhooks: boolean;
  community: boolean;
  seed: number | undefined;
  now: () => number;
  exportJobStepMs: number;
  webhookTimeoutMs: number;
  /** Deployed flavour: same-second submissions listed in another order on each list request. */
  unstableTies: boolean;
  /** Extra accounts to create at start (emails); existing ones are kept. */
  users: string[];
  /** DNS resolution for webhook URL checks; dns.promises.lookup with `all: true`. */
  lookup: (host: string) => Promise<LookupAddress[]>;
}

/** Everything a route handler can reach. */
export interface App {
  store: Store;
  opts: ResolvedOptions;
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:8787. */
  baseUrl: string;
  dispatcher: Dispatcher;
  exports: ExportJobs;
}

/** A JSON reply (`body`), a text reply (`raw`, with its Content-Type in `headers`), or neither (204). */
export interface Reply {
  status: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export interface PublicCtx {
  app: App;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  /** Extra headers every response to this request carries (rate limit). */
  baseHeaders: Record<string, string>;
  /** The JSON body as an object (`{}` when empty); 400 when it is not JSON or not an object. */
  body(): Promise<Record<string, unknown>>;
}

export interface Ctx extends PublicCtx {
  caller: Caller;
}

/** A handler returns a reply, or undefined after writing the response itself (streams). */
export type Handler<C = Ctx> = (ctx: C) => Promise<Reply | undefined> | Reply | undefined;

/** Shorthand for a 200 JSON reply. */
export function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

/** What route modules register into: `api` routes need a token, `open` routes are public. */
export interface RouteTable {
  /** Routes that exist in one flavour only are registered by checking this. */
  flavor: Flavor;
  api(method: string, path: string, handler: Handler<Ctx>): void;
  open(method: string, path: string, handler: Handler<PublicCtx>): void;
}
