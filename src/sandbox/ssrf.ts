import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/** IPv6 global unicast (RFC 4291): every other IPv6 block is special-purpose or unassigned. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * Whether an address is publicly routable. Only ipaddr.js's `unicast` range counts: that rejects
 * private, loopback, link-local (incl. 169.254.169.254 metadata), unique-local (incl. fd00:ec2::254),
 * CGNAT, unspecified, multicast, reserved/documentation, NAT64/6to4/Teredo and every IPv4-mapped
 * IPv6 address (even ::ffff:8.8.8.8: a mapped address in a webhook URL is never needed, only abused),
 * IPv4-compatible ::a.b.c.d and any IPv6 address outside 2000::/3.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.range() !== 'unicast') return false;
  // ipaddr.js calls IPv4-compatible ::a.b.c.d (e.g. ::7f00:1, ::a9fe:a9fe) and other unassigned IPv6
  // space `unicast`: only the global unicast block 2000::/3 can be a public receiver.
  return ip.kind() === 'ipv4' || (ip as ipaddr.IPv6).match(GLOBAL_UNICAST);
}

export type UrlCheck = { ok: true; url: URL; addresses: LookupAddress[] } | { ok: false; message: string };

/**
 * The spec's webhook URL rule (data.webhook_url): HTTPS, no embedded credentials, and every
 * address the host resolves to is public. It runs when the URL is saved and again before each
 * delivery; the delivery then connects to the checked address (no second DNS answer can sneak in).
 * With `allowPrivate` (operator opt-in for local testing) private targets pass, and plain http://
 * is accepted when every address is private or loopback (never for a public host).
 */
export async function checkWebhookUrl(
  raw: unknown,
  allowPrivate: boolean,
  lookup: (host: string) => Promise<LookupAddress[]>,
): Promise<UrlCheck> {
  if (typeof raw !== 'string' || !URL.canParse(raw)) return { ok: false, message: 'The webhook URL must be a valid URL.' };
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: 'The webhook URL must use HTTPS.' };
  if (url.protocol === 'http:' && !allowPrivate) return { ok: false, message: 'The webhook URL must use HTTPS.' };
  if (url.username || url.password) return { ok: false, message: 'The webhook URL cannot contain embedded credentials.' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return { ok: false, message: 'The webhook URL must be a valid URL.' };
  let addresses: LookupAddress[];
  try {
    addresses = await lookup(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { ok: false, message: 'The webhook URL host could not be resolved.' };
  const allPublic = addresses.every((a) => isPublicAddress(a.address));
  if (url.protocol === 'http:') {
    if (addresses.some((a) => isPublicAddress(a.address))) return { ok: false, message: 'The webhook URL must use HTTPS.' };
    return { ok: true, url, addresses };
  }
  if (!allPublic && !allowPrivate) return { ok: false, message: 'The webhook URL must resolve only to public IP addresses.' };
  return { ok: true, url, addresses };
}
