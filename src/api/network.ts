// How a failed connection is worded, for every HTTP path formctl has: the API client (node:http, or
// Node's fetch through a proxy) and the webhook sender and forwarder. One wording per errno code, so the same refused port
// reads the same whichever command hit it.

/**
 * A TLS failure, a certificate the machine does not trust (self-signed, from an unknown CA, expired,
 * for another host) included: TLS, SSL or CERT in the code, or one of OpenSSL's verification codes
 * that name none of them (UNABLE_TO_VERIFY_LEAF_SIGNATURE: a server certificate from a private CA
 * sent without that CA). Final: the same server presents the same certificate again.
 */
export const TLS_FAILURE = /CERT|SSL|TLS|SELF_SIGNED|^UNABLE_TO_|CRL|^INVALID_CA$|^PATH_LENGTH_EXCEEDED$|^INVALID_PURPOSE$|^HOSTNAME_MISMATCH$/i;

/** The errno code of a failed request: on the error itself or on its `cause` (undici wraps socket errors). */
export function failureCode(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException | undefined;
  return e?.code ?? (e?.cause as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Why a connection to `url` failed, for the codes the operating system and Node's sockets give
 * ("Connection refused by 127.0.0.1:9"), without a trailing period: callers add where it happened.
 * Codes not known here read "Network error talking to <host>: <code or message>".
 */
export function describeConnectionFailure(code: string | undefined, message: string, url: URL): string {
  const host = url.host;
  switch (code) {
    case 'ECONNREFUSED':
      return `Connection refused by ${host}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Could not resolve ${url.hostname}`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return `The connection to ${host} was dropped`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `No route to ${host}`;
    default:
      if (code && TLS_FAILURE.test(code)) return `TLS error talking to ${host}: ${code}`;
      return `Network error talking to ${host}: ${code ?? message}`;
  }
}

/** Certificates the machine does not trust: self-signed, or signed by a CA it does not know. */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/**
 * The one-line error and hint for a certificate the running Node does not trust. There is no
 * --insecure: the way out is to trust the CA (docs/security.md). `who` is whoever presented it, as
 * the message names it: the service's host:port, or an https:// proxy ("The proxy https://… (HTTPS_PROXY)"),
 * and `whose` says which of the two the hint is about. `systemCa`: this Node has --use-system-ca
 * (Node 22.15+, 23.8+), which trusts the operating system's store.
 */
export function untrustedCertificate(
  code: string | undefined,
  who: string,
  systemCa = process.allowedNodeEnvironmentFlags.has('--use-system-ca'),
  whose: 'service' | 'proxy' = 'service',
): { reason: string; hint: string } | undefined {
  if (code === undefined || !UNTRUSTED.has(code)) return undefined;
  const what = code.includes('SELF_SIGNED') ? 'a self-signed certificate' : 'a certificate from a CA this machine does not trust';
  const extra = `If the ${whose} uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM)`;
  return {
    reason: `${who} presented ${what} (${code}), so formctl did not send anything`,
    hint: systemCa ? `${extra}, or, if the CA is in the system's store, NODE_OPTIONS=--use-system-ca.` : `${extra}.`,
  };
}

/** A timeout as people read it: "2.5 s" below 10 s when it has a fraction, else whole seconds ("30 s"). */
export function formatSeconds(ms: number): string {
  return ms < 10_000 && ms % 1000 !== 0 ? `${ms / 1000} s` : `${Math.round(ms / 1000)} s`;
}
