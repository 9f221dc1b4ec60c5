// formctl sandbox: a local emulator of the form service's /open/ API, in two flavours: the spec
// (default) and the deployed OpnForm server with its sharp edges (docs/service.md).
// It imports nothing from the client; the client talks to it over HTTP like to the real service.
import { lookup as dnsLookup } from 'node:dns/promises';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newTokenString } from './auth.js';
import type { App, Flavor, ResolvedOptions } from './context.js';
import { Dispatcher } from './dispatcher.js';
import { HttpError, SandboxError } from './errors.js';
import { ExportJobs } from './export/jobs.js';
import { ABILITIES } from './model.js';
import type { Ability, SandboxTokens } from './model.js';
import { removeStaleTempFiles, writeFileAtomic } from '../atomic-file.js';
import { fsReason } from '../fs-reason.js';
import { DataFileWriter, loadStateFile } from './persist.js';
import { ensureHasWorkspace, isOpenInvite } from './routes/members.js';
import { acceptOpenInvites, ensureUser, listUsers, nameFromEmail } from './users.js';
import type { SandboxUser } from './users.js';
import { ensureDemoForm, initialStore } from './seed.js';
import { createHttpServer } from './server.js';
import { Store } from './store.js';
import { isEmail } from './validation.js';
import { EXPORT_ASYNC_THRESHOLD, EXPORT_LIMIT_PER_MINUTE, EXTERNAL_LIMIT_PER_MINUTE, RATE_LIMIT_PER_MINUTE } from '../service/limits.js';
import { FLAVORS } from '../service/flavors.js';

export { SandboxError } from './errors.js';

const CLOSE_GRACE_MS = 5000;
export type { SandboxTokens } from './model.js';
export type { Flavor } from './context.js';
export type { SandboxUser } from './users.js';

export { FLAVORS };

export interface SandboxOptions {
  /** 'spec' (default): the contract. 'deployed': the deployed OpnForm server, sharp edges included. */
  flavor?: Flavor;
  /** Accounts to create (or find again) at start, each with an all-abilities token; see `users` on the handle. */
  users?: string[];
  /** Interface to bind; default '127.0.0.1'. */
  host?: string;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Persist state as JSON here (atomic writes) and resume from it on start. */
  dataFile?: string;
  /** Requests per minute per client IP (deployed flavour: per user); default 100; 0 turns the limit (and its headers) off. */
  rateLimit?: number;
  /** Deployed flavour: exports per minute per user, a bucket of its own; default 10, or 0 (off) when rateLimit is 0. */
  exportRateLimit?: number;
  /**
   * Exports of more submissions than this become async jobs; default 1000. The deployed server's is a
   * constant (OpnForm `FormExportService.php:15,35`), so `formctl sandbox --flavor deployed` refuses
   * another; in-process tests may still set it, to make the client meet an answer no deployed server gives.
   */
  exportAsyncThreshold?: number;
  /** Admit private/loopback webhook targets, and plain http:// to them (local testing). */
  allowPrivateWebhooks?: boolean;
  /** Community instance: at most 2 users across the instance. */
  community?: boolean;
  /** Also create a demo form with this many submissions. */
  seed?: number;
  /** Clock in ms since epoch; default Date.now. */
  now?: () => number;
  /** Time an async export spends queued, and the minimum it spends processing; default 300 ms. */
  exportJobStepMs?: number;
  /** Webhook delivery timeout; default 5000 ms. */
  webhookTimeoutMs?: number;
  /**
   * Deployed flavour: list submissions created in the same second in another order on each list
   * request, as the deployed server may (docs/sandbox.md); the demo form's answers then come three to a second.
   */
  unstableTies?: boolean;
  /**
   * Serve https:// with a certificate made at start for localhost, 127.0.0.1 and ::1 (and `host`),
   * signed by a private CA made at the same time; the CA certificate is written to `caFile`.
   */
  tls?: boolean;
  /** With `tls`: where to write the CA certificate (PEM; kept after close). Default: a temporary directory removed on close. */
  caFile?: string;
}

export interface SandboxHandle {
  /** e.g. http://127.0.0.1:41234 (no trailing slash; the API lives under /open/). */
  url: string;
  flavor: Flavor;
  /** The admin's tokens of different reach (`all` has every ability). */
  tokens: SandboxTokens;
  /**
   * Accounts to sign in as, each with an all-abilities token: the admin first, then the seeded
   * colleague (bea@example.com, not a member of the seeded workspace; absent with `community`),
   * then `users` and accounts created through POST /sandbox/users before the start.
   */
  users: SandboxUser[];
  /** With `tls`: the CA certificate (PEM) a client must trust, e.g. through NODE_EXTRA_CA_CERTS. */
  caFile?: string;
  /** The seeded workspace. */
  workspaceId: number;
  /** The demo form, when `seed` was given. */
  formId?: number;
  formSlug?: string;
  /** In-process test hooks (not HTTP). */
  admin: {
    createUser(input: { email: string; name?: string }): { id: number; email: string };
    createToken(email: string, abilities: string[]): string;
    acceptInvite(email: string): void;
    deliveries(): Promise<void>;
  };
  /** Stops accepting, finishes in-flight requests, deliveries and writes, flushes the data file. */
  close(): Promise<void>;
}

function resolveOptions(o: SandboxOptions): ResolvedOptions {
  const int = (name: string, v: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number => {
    if (v === undefined) return fallback;
    if (!Number.isInteger(v) || v < 0 || v > max) throw new SandboxError(`Invalid sandbox option ${name}: ${v} (expected an integer from 0 to ${max}).`);
    return v;
  };
  if (o.flavor !== undefined && !FLAVORS.includes(o.flavor)) {
    throw new SandboxError(`Invalid sandbox flavor ${JSON.stringify(o.flavor)} (expected ${FLAVORS.join(' or ')}).`);
  }
  for (const email of o.users ?? []) if (!isEmail(email)) throw new SandboxError(`Invalid email address for a sandbox user: ${email}`);
  return {
    flavor: o.flavor ?? 'spec',
    users: o.users ?? [],
    host: o.host ?? '127.0.0.1',
    port: int('port', o.port, 8787, 65535),
    dataFile: o.dataFile,
    rateLimit: int('rateLimit', o.rateLimit, RATE_LIMIT_PER_MINUTE),
    exportRateLimit: int('exportRateLimit', o.exportRateLimit, o.rateLimit === 0 ? 0 : EXPORT_LIMIT_PER_MINUTE),
    externalRateLimit: o.rateLimit === 0 ? 0 : EXTERNAL_LIMIT_PER_MINUTE,
    exportAsyncThreshold: int('exportAsyncThreshold', o.exportAsyncThreshold, EXPORT_ASYNC_THRESHOLD),
    allowPrivateWebhooks: o.allowPrivateWebhooks ?? false,
    community: o.community ?? false,
    seed: o.seed === undefined ? undefined : int('seed', o.seed, 0),
    now: o.now ?? Date.now,
    exportJobStepMs: int('exportJobStepMs', o.exportJobStepMs, 300),
    webhookTimeoutMs: int('webhookTimeoutMs', o.webhookTimeoutMs, 5000),
    unstableTies: o.unstableTies ?? false,
    lookup: (host) => dnsLookup(host, { all: true, verbatim: true }),
  };
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * --tls: the certificates (src/sandbox/tls.ts, loaded only here) and the CA file, written whole and
 * readable by all (a certificate is public; a client run by another user must read it). Without
 * `caFile`, it goes into a fresh temporary directory that `cleanup` removes.
 */
async function certificates(host: string, caFile: string | undefined) {
  const { certificateNames, makeCertificates } = await import('./tls.js');
  const made = await makeCertificates(certificateNames(host));
  const dir = caFile === undefined ? await mkdtemp(join(tmpdir(), 'formctl-sandbox-ca-')) : undefined;
  // mkdtemp makes it 0700; a formctl run by another user (or a container's) must reach the file.
  if (dir) await chmod(dir, 0o755);
  const file = caFile ?? join(dir!, 'ca.pem');
  try {
    await writeFileAtomic(file, made.ca, { mode: 0o644 });
  } catch (err) {
    if (dir) await rm(dir, { recursive: true, force: true });
    throw new SandboxError(`Cannot write the CA certificate to ${file}: ${fsReason(err, 'write')}.`);
  }
  return {
    key: made.key,
    cert: made.cert,
    caFile: file,
    cleanup: async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Starts the sandbox server and resolves once it is listening. */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const opts = resolveOptions(options);
  if (opts.dataFile) await removeStaleTempFiles(opts.dataFile);
  const loaded = opts.dataFile ? await loadStateFile(opts.dataFile) : null;
  const store = loaded ? Store.fromStateFile(loaded) : initialStore(opts.now(), !opts.community);
  const before = store.counters.user;
  for (const email of opts.users) ensureUser(store, email, opts.now());
  const app: App = {
    store,
    opts,
    baseUrl: '',
    dispatcher: new Dispatcher(store, opts),
    exports: new ExportJobs(store, opts.now, opts.exportJobStepMs, () => app.baseUrl),
  };
  const writer = opts.dataFile
    ? new DataFileWriter(
        opts.dataFile,
        () => JSON.stringify(store.toStateFile()),
        () => store.version,
      )
    : undefined;
  if (writer) store.onChange = () => writer.markDirty();
  const demo = opts.seed === undefined ? undefined : ensureDemoForm(app, opts.seed);
  // Write the file at once: a fresh state is saved before anyone uses its tokens, and an
  // unwritable path fails the start instead of the first request.
  if (writer && (!loaded || demo || store.counters.user !== before)) {
    writer.markDirty();
    await writer.flush();
  }

  const durable = writer
    ? (version: number) =>
        writer.waitFor(version).catch((err: Error) => {
          throw new HttpError(500, `The sandbox could not save its data file, so this change may not survive a restart: ${fsReason(err, 'write')}.`);
        })
    : undefined;
  const tls = options.tls ? await certificates(opts.host, options.caFile) : undefined;
  const { server, drained } = createHttpServer(app, durable, tls);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        const where = `${opts.host}:${opts.port}`;
        // "[::1]" is how a URL writes an IPv6 address; to listen on it, the address goes without brackets.
        const bracketed = /^\[.*\]$/.test(opts.host) ? `; write an IPv6 address without brackets (--host ${opts.host.slice(1, -1)})` : '';
        reject(new SandboxError(err.code === 'EADDRINUSE' ? `Port ${where} is in use.` : `Cannot listen on ${where}: ${err.message}${bracketed}.`));
      });
      server.listen(opts.port, opts.host, () => resolve());
    });
  } catch (err) {
    await tls?.cleanup();
    throw err;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  app.baseUrl = `${tls ? 'https' : 'http'}://${hostForUrl(opts.host)}:${port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A client that never finishes its request must not hold close() forever.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([drained(), new Promise((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      clearTimeout(grace);
      // Keep-alive sockets of finished requests would hold server.close() open until they time out.
      server.closeAllConnections();
      await stopped;
      app.exports.close();
      await app.dispatcher.idle();
      await writer?.flush();
      await tls?.cleanup();
    })());

  const admin: SandboxHandle['admin'] = {
    createUser({ email, name }) {
      if (!isEmail(email)) throw new SandboxError(`Invalid email address: ${email}`);
      if (store.userByEmail(email)) throw new SandboxError(`A user with the email ${email} already exists.`);
      const user = store.addUser({ id: store.nextId('user'), name: name ?? nameFromEmail(email), email, created_at: opts.now() });
      return { id: user.id, email: user.email };
    },
    createToken(email, abilities) {
      const user = store.userByEmail(email);
      if (!user) throw new SandboxError(`No user with the email ${email}.`);
      const unknown = abilities.filter((a) => !(ABILITIES as readonly string[]).includes(a));
      if (unknown.length) throw new SandboxError(`Unknown abilities: ${unknown.join(', ')} (known: ${ABILITIES.join(', ')}).`);
      return store.addToken({ token: newTokenString(), user_id: user.id, name: 'sandbox-admin-hook', abilities: [...new Set(abilities)] as Ability[] }).token;
    },
    acceptInvite(email) {
      const now = opts.now();
      const open = [...store.invites.values()].some((i) => i.email.toLowerCase() === email.toLowerCase() && isOpenInvite(i, now));
      if (!open) throw new SandboxError(`No open invite for ${email}.`);
      const user = store.userByEmail(email) ?? store.addUser({ id: store.nextId('user'), name: nameFromEmail(email), email, created_at: now });
      acceptOpenInvites(store, user, now);
      ensureHasWorkspace(app, user);
    },
    deliveries: () => app.dispatcher.idle(),
  };

  return {
    url: app.baseUrl,
    flavor: opts.flavor,
    tokens: { ...store.meta.tokens },
    users: listUsers(store),
    ...(tls ? { caFile: tls.caFile } : {}),
    workspaceId: store.meta.workspaceId,
    ...(demo ? { formId: demo.id, formSlug: demo.slug } : {}),
    admin,
    close,
  };
}
