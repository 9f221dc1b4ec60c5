// The service's webhook validation (src/service/: the rules the sandbox enforces too), applied
// before anything is sent, so `webhook create/update` can report every problem under its field path.
import type { FieldErrors } from '../api/errors.js';
import { UsageError } from '../errors.js';
import { escapeControls } from '../io/output.js';
import { checkWebhookUrl as checkUrl } from '../service/addresses.js';
import { charLength } from '../service/text.js';
import { MIN_SECRET_LENGTH, headerProblems, withDetail } from '../service/webhooks.js';
import { lookup } from 'node:dns/promises';

export { BLOCKED_HEADERS } from '../service/webhooks.js';
export { nonPublicReason } from '../service/addresses.js';

/** Resolves a host name to every address it has (A and AAAA), as the service does before saving and sending. */
export type Resolver = (host: string) => Promise<string[]>;

/** `node:dns` lookup with `all: true`: the same answer the OS would give a connecting client. */
export const systemResolver: Resolver = async (host) => {
  return (await lookup(host, { all: true })).map((a) => a.address);
};

export interface UrlRuleOptions {
  /** The headers are the ones the service stored, sent back unchanged: a service that took them counted their lengths its own way. */
  storedHeaders?: boolean;
  /** Accept private receivers, and plain http:// to them (a receiver on this machine, a sandbox with --allow-private-webhooks). */
  allowPrivate?: boolean;
  resolve?: Resolver;
  /**
   * Where a warning goes when this machine cannot resolve the URL's host (ENOTFOUND, EAI_AGAIN: a
   * network without outside DNS, e.g. behind a proxy). The URL then passes here: the service checks
   * it again when it saves it, and its answer is the one that counts. Literal addresses need no DNS,
   * so a private one is still refused here.
   */
  warnings?: string[];
}

/** The DNS failures that say this machine could not look the name up, not that the URL is wrong. */
const UNRESOLVED_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN']);

/** Problems with a webhook URL, in the service's words with what was found; empty when it would be accepted. */
export async function checkWebhookUrl(raw: unknown, o: UrlRuleOptions = {}): Promise<string[]> {
  const resolve = o.resolve ?? systemResolver;
  let unresolved: string | undefined;
  const check = await checkUrl(raw, {
    allowPrivate: o.allowPrivate,
    lookup: async (host) => {
      try {
        return (await resolve(host)).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== undefined && UNRESOLVED_CODES.has(code)) unresolved = `${host} (${code})`;
        throw err;
      }
    },
  });
  if (check.ok) return [];
  if (unresolved !== undefined) {
    // Nothing was resolved, so nothing could be found wrong with the addresses: the service decides.
    o.warnings?.push(`this machine could not resolve the webhook URL's host ${unresolved}; the service checks the URL itself when it saves it.`);
    return [];
  }
  return [withDetail(check)];
}

/** Problems with a secret (spec: at least 12 characters). */
export function checkSecret(secret: unknown): string[] {
  if (secret === undefined || secret === null) return [];
  if (typeof secret !== 'string') return ['The webhook secret must be a string.'];
  if (charLength(secret) < MIN_SECRET_LENGTH) return [`The webhook secret must be at least ${MIN_SECRET_LENGTH} characters (it has ${charLength(secret)}).`];
  return [];
}

/**
 * Problems with custom headers, one message per problem, in the deployed server's words with what was
 * found. Lengths in UTF-8 bytes, as the deployed server counts (src/service/webhooks.ts), unless
 * `count` says characters: headers the service already stored, sent back unchanged by an update.
 * A stored name may hold anything (`X-A\nerror: hdr`): each message has its control characters, tab
 * and newline escaped, so a name cannot make a line of its own (a forged `error:` line).
 */
export function checkHeaders(headers: unknown, count: 'bytes' | 'characters' = 'bytes'): string[] {
  if (headers === undefined || headers === null) return [];
  return headerProblems(headers, count).map((p) => escapeControls(withDetail(p), { all: true }));
}

/** The `data` object of a webhook integration. */
export interface WebhookData {
  webhook_url?: string;
  webhook_secret?: string | null;
  webhook_headers?: Record<string, string> | null;
}

/** Every problem with a webhook's data, keyed by the service's field paths (`data.webhook_url`, …). */
export async function validateWebhookData(data: WebhookData, o: UrlRuleOptions = {}): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const add = (path: string, messages: string[]) => {
    if (messages.length > 0) errors[path] = messages;
  };
  if ('webhook_url' in data) add('data.webhook_url', await checkWebhookUrl(data.webhook_url, o));
  add('data.webhook_secret', checkSecret(data.webhook_secret));
  add('data.webhook_headers', checkHeaders(data.webhook_headers, o.storedHeaders ? 'characters' : 'bytes'));
  return errors;
}

/** Throws a usage error (exit 2) listing each problem under its field path, or returns when there are none. */
export function throwIfInvalid(errors: FieldErrors, o: { allowPrivate?: boolean } = {}): void {
  const paths = Object.keys(errors);
  if (paths.length === 0) return;
  const lines = ['The webhook settings would be rejected by the service:'];
  for (const path of paths) for (const m of errors[path]!) lines.push(`  ${path}: ${m}`);
  const urlProblem = (errors['data.webhook_url'] ?? []).join(' ');
  const hint =
    !o.allowPrivate && /HTTPS|public IP/.test(urlProblem)
      ? 'Deliveries need a public https:// URL. For a receiver on this machine and a sandbox started with --allow-private-webhooks, pass --allow-private.'
      : 'Fix the values above and run the command again; nothing was sent.';
  throw new UsageError(lines.join('\n'), hint);
}
