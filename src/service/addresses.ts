// Which hosts are loopback, and which webhook URLs the service accepts (docs/webhooks-and-members.md): HTTPS, no embedded
// credentials, and every address the host resolves to public. The client checks a URL before it
// saves a webhook; the sandbox checks it on save and again before each delivery. ipaddr.js (the
// address classification) is loaded on first use, so importing this costs nothing at start-up.
import type { Problem } from './webhooks.js';

/**
 * A loopback host name or address (`localhost`, 127.0.0.0/8, `::1`, bracketed or not): what only
 * this machine reaches. The client sends a token over plain http only there; the sandbox warns when
 * it listens anywhere else.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Not *.localhost: without a local resolver rule such names can come from DNS and point anywhere.
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** One address a host name resolves to; `family` is 4 or 6. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (A and AAAA), as the service does before saving and sending. */
export type Lookup = (host: string) => Promise<ResolvedAddress[]>;

/**
 * Why an address is not public, or undefined when it is. Only ipaddr.js's plain `unicast` range
 * counts, and for IPv6 only inside global unicast 2000::/3: that rejects private, loopback,
 * link-local, unique-local, CGNAT, unspecified, multicast, reserved and documentation space,
 * NAT64/6to4/Teredo, every IPv4-mapped IPv6 address (even ::ffff:8.8.8.8: never needed in a webhook
 * URL, only abused) and IPv4-compatible ::a.b.c.d.
 */
export async function nonPublicReason(address: string): Promise<string | undefined> {
  const ipaddr = (await import('ipaddr.js')).default;
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const ip = ipaddr.parse(address);
  const range = ip.range();
  if (range === 'unicast') {
    if (ip.kind() === 'ipv4') return undefined;
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

/** Whether an address is publicly routable (see nonPublicReason). */
export async function isPublicAddress(address: string): Promise<boolean> {
  return (await nonPublicReason(address)) === undefined;
}

/**
 * A host name as PHP's URL filter takes one (FILTER_FLAG_HOSTNAME): labels of letters, digits and
 * hyphens, none at a label's ends, each at most 63 characters, 253 in all; a final dot allowed.
 */
function isHostname(host: string): boolean {
  const h = host.replace(/\.$/, '');
  return h.length > 0 && h.length <= 253 && h.split('.').every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label));
}

export type UrlCheck = { ok: true; url: URL; addresses: ResolvedAddress[] } | ({ ok: false } & Problem);

/**
 * The webhook URL rule. An IP literal is taken as it is; a name is resolved with `lookup` (its
 * addresses are returned, so a delivery can connect to the checked one and no second DNS answer can
 * sneak in). With `allowPrivate` (a sandbox started with --allow-private-webhooks, for local testing)
 * private targets pass, and plain http:// is accepted when every address is private or loopback
 * (never for a public host).
 */
export async function checkWebhookUrl(raw: unknown, o: { allowPrivate?: boolean; lookup: Lookup }): Promise<UrlCheck> {
  const fail = (message: string, detail?: string): UrlCheck => (detail === undefined ? { ok: false, message } : { ok: false, message, detail });
  if (typeof raw !== 'string' || raw.trim() === '' || !URL.canParse(raw)) return fail('The webhook URL must be a valid URL.');
  // The service's shape check is PHP's filter_var(FILTER_VALIDATE_URL) (OpnForm
  // app/Service/Security/PublicWebhookUrl.php:123-127), stricter than a WHATWG parse.
  const outside = /[^A-Za-z0-9$\-_.+!*'(),{}|\\^~[\]`<>#%";/?:@&=]/.exec(raw)?.[0];
  if (outside !== undefined)
    return fail('The webhook URL must be a valid URL.', `${JSON.stringify(outside)} is not a character a URL may hold as written: percent-encode it`);
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('The webhook URL must use HTTPS.');
  if (url.hostname === '') return fail('The webhook URL must be a valid URL.');
  if (!url.hostname.startsWith('[') && !/^\d+(\.\d+){3}$/.test(url.hostname) && !isHostname(url.hostname)) {
    return fail('The webhook URL must be a valid URL.', `${url.hostname} is not a host name: only letters, digits and hyphens between dots`);
  }
  if (url.protocol === 'http:' && !o.allowPrivate) return fail('The webhook URL must use HTTPS.');
  if (url.username !== '' || url.password !== '') return fail('The webhook URL cannot contain embedded credentials.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const ipaddr = (await import('ipaddr.js')).default;
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  else {
    try {
      addresses = await o.lookup(host);
    } catch {
      addresses = [];
    }
  }
  if (addresses.length === 0) return fail('The webhook URL host could not be resolved.');
  // Every address must be public: one private answer is enough for a DNS-rebinding attack.
  let firstPrivate: { address: string; reason: string } | undefined;
  for (const { address } of addresses) {
    const reason = await nonPublicReason(address);
    if (reason !== undefined) {
      firstPrivate = { address, reason };
      break;
    }
  }
  if (url.protocol === 'http:') {
    // Only with allowPrivate: a receiver on this machine or network, never a public host.
    for (const { address } of addresses) if (await isPublicAddress(address)) return fail('The webhook URL must use HTTPS.');
    return { ok: true, url, addresses };
  }
  if (firstPrivate && !o.allowPrivate) {
    const where = host === firstPrivate.address ? firstPrivate.address : `${host} resolves to ${firstPrivate.address}`;
    return fail('The webhook URL must resolve only to public IP addresses.', `${where}, ${firstPrivate.reason}`);
  }
  return { ok: true, url, addresses };
}
