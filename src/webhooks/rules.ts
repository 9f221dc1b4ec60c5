// Local copies of the service's webhook validation (spec "Webhook integration" and "Errors";
// deployed rules and messages from research §3.4), so `webhook create/update` can report every
// problem under its field path before anything is sent.
import type { FieldErrors } from '../api/errors.js';
import { UsageError } from '../errors.js';
import { MIN_SECRET_LENGTH, charLength } from './secret.js';

/** FIDELITY: the deployed server's 14 blocked names (the spec lists 10 "and possibly others"), compared case-insensitively. */
export const BLOCKED_HEADERS: readonly string[] = [
  'Authorization', 'X-Webhook-Signature', 'Content-Type', 'Content-Length', 'Host', 'Cookie', 'X-CSRF-Token',
  'X-CSRF-TOKEN', 'X-Forwarded-For', 'X-Forwarded-Proto', 'X-Real-IP', 'X-Requested-With', 'Accept-Encoding',
  'Transfer-Encoding',
];
const BLOCKED = new Set(BLOCKED_HEADERS.map((h) => h.toLowerCase()));

export const MAX_HEADERS = 10;
export const MAX_HEADER_LENGTH = 255;
/** RFC 9110 token characters: a name outside them can never be sent, so the service's dispatcher would fail. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Resolves a host name to every address it has (A and AAAA), as the service does before saving and sending. */
export type Resolver = (host: string) => Promise<string[]>;

/** `node:dns` lookup with `all: true`: the same answer the OS would give a connecting client. */
export const systemResolver: Resolver = async (host) => {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(host, { all: true })).map((a) => a.address);
};

export interface UrlRuleOptions {
  /** Skip only the HTTPS and public-address checks (a receiver on this machine, a sandbox with --allow-private-webhooks). */
  allowPrivate?: boolean;
  resolve?: Resolver;
}

/** Why an address is not public, or undefined when it is (only ipaddr.js's plain `unicast` range counts as public, for IPv6 only inside 2000::/3). */
export async function nonPublicReason(address: string): Promise<string | undefined> {
  const ipaddr = (await import('ipaddr.js')).default;
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const ip = ipaddr.parse(address);
  const range = ip.range();
  if (range === 'unicast') {
    if (ip.kind() === 'ipv4') return undefined;
    // ipaddr.js also calls IPv4-compatible ::a.b.c.d and unassigned IPv6 space `unicast`; only
    // global unicast (2000::/3) can be a public receiver.
    const v6 = ip as InstanceType<typeof ipaddr.IPv6>;
    if (v6.match(ipaddr.parseCIDR('2000::/3') as [typeof v6, number])) return undefined;
    return v6.match(ipaddr.parseCIDR('::/96') as [typeof v6, number]) ? 'an IPv4-compatible IPv6 address' : 'a reserved address (outside 2000::/3)';
  }
  // The cloud metadata endpoints (AWS/GCP/Azure IPv4, AWS IPv6) are the classic SSRF prize: say so.
  const normalized = ip.toNormalizedString();
  if (normalized === '169.254.169.254' || normalized === ipaddr.parse('fd00:ec2::254').toNormalizedString()) return 'a cloud metadata address';
  const names: Record<string, string> = {
    private: 'a private address',
    loopback: 'a loopback address',
    linkLocal: 'a link-local address',
    uniqueLocal: 'a unique-local address',
    ipv4Mapped: 'an IPv4-mapped IPv6 address',
    unspecified: 'an unspecified address',
    multicast: 'a multicast address',
    broadcast: 'a broadcast address',
    carrierGradeNat: 'a carrier-grade NAT address',
  };
  return names[range] ?? `a reserved address (${range})`;
}

/** Problems with a webhook URL, in the service's words (research §3.4); empty when it would be accepted. */
export async function checkWebhookUrl(raw: unknown, o: UrlRuleOptions = {}): Promise<string[]> {
  if (typeof raw !== 'string' || raw.trim() === '' || !URL.canParse(raw)) return ['The webhook URL must be a valid URL.'];
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return ['The webhook URL must use HTTPS.'];
  if (url.hostname === '') return ['The webhook URL must be a valid URL.'];
  if (url.protocol !== 'https:' && !o.allowPrivate) return ['The webhook URL must use HTTPS.'];
  if (url.username !== '' || url.password !== '') return ['The webhook URL cannot contain embedded credentials.'];
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const ipaddr = (await import('ipaddr.js')).default;
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await (o.resolve ?? systemResolver)(host);
    } catch {
      addresses = [];
    }
  }
  if (addresses.length === 0) return ['The webhook URL host could not be resolved.'];
  if (o.allowPrivate) return [];
  // Every address must be public: one private answer is enough for a DNS-rebinding attack.
  for (const address of addresses) {
    const reason = await nonPublicReason(address);
    if (reason) return [`The webhook URL must resolve only to public IP addresses (${host === address ? address : `${host} resolves to ${address}`}, ${reason}).`];
  }
  return [];
}

/** Problems with a secret (spec: at least 12 characters). */
export function checkSecret(secret: unknown): string[] {
  if (secret === undefined || secret === null) return [];
  if (typeof secret !== 'string') return ['The webhook secret must be a string.'];
  if (charLength(secret) < MIN_SECRET_LENGTH) return [`The webhook secret must be at least ${MIN_SECRET_LENGTH} characters (it has ${charLength(secret)}).`];
  return [];
}

/** Problems with custom headers, one message per problem, in the deployed server's words (research §3.4). */
export function checkHeaders(headers: unknown): string[] {
  if (headers === undefined || headers === null) return [];
  if (typeof headers !== 'object' || Array.isArray(headers)) return ['The webhook headers must be an object of header names to values.'];
  const entries = Object.entries(headers as Record<string, unknown>);
  const problems: string[] = [];
  if (entries.length > MAX_HEADERS) problems.push(`Maximum ${MAX_HEADERS} custom headers allowed (got ${entries.length}).`);
  for (const [name, value] of entries) {
    if (name.trim() === '' || !HEADER_NAME.test(name)) problems.push(`Header names must be non-empty strings of valid header characters ('${name}').`);
    else if (name.length > MAX_HEADER_LENGTH) problems.push(`Header name '${name.slice(0, 40)}…' exceeds ${MAX_HEADER_LENGTH} characters.`);
    else if (BLOCKED.has(name.toLowerCase())) problems.push(`The '${name}' header cannot be customized for security reasons.`);
    if (typeof value !== 'string') problems.push(`Header values must be strings. '${name}' has invalid value type.`);
    else if (charLength(value) > MAX_HEADER_LENGTH) problems.push(`Header value for '${name}' exceeds ${MAX_HEADER_LENGTH} characters (it has ${charLength(value)}).`);
    else if (/[\r\n\0]/.test(value)) problems.push(`Header value for '${name}' contains a line break.`);
    // eslint-disable-next-line no-control-regex
    else if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) problems.push(`Header value for '${name}' contains a control character.`);
  }
  return problems;
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
  add('data.webhook_headers', checkHeaders(data.webhook_headers));
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
