import { timingSafeEqual } from 'node:crypto';
import { SIGNATURE_HEADER, SIGNATURE_PREFIX as PREFIX, signatureDigest } from '../service/webhooks.js';

export { SIGNATURE_HEADER, signBody } from '../service/webhooks.js';

/** Why a signature was rejected; `missing` and `malformed` are receiver-side problems, `mismatch` is a wrong secret or altered bytes. */
export type VerifyFailure = 'missing' | 'malformed' | 'mismatch';

export type VerifyResult = { valid: true } | { valid: false; reason: VerifyFailure; message: string };

/**
 * The spec's receiver steps: read the header, strip `sha256=`, HMAC the raw bytes (never a re-serialised
 * body), compare in constant time, reject on mismatch. The digest is compared as bytes, so only a
 * well-formed 64-digit hex value can ever match.
 */
export function verifySignature(secret: string, body: Uint8Array | string, header: string | undefined | null): VerifyResult {
  if (header === undefined || header === null || header.trim() === '') {
    return {
      valid: false,
      reason: 'missing',
      message: `No ${SIGNATURE_HEADER} header: the integration has no secret, or the request did not come from the service.`,
    };
  }
  const value = header.trim();
  if (!value.startsWith(PREFIX)) {
    return { valid: false, reason: 'malformed', message: `The signature does not start with "${PREFIX}".` };
  }
  const hex = value.slice(PREFIX.length);
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    return { valid: false, reason: 'malformed', message: `The signature is not "${PREFIX}" followed by 64 hexadecimal digits.` };
  }
  const expected = signatureDigest(secret, body);
  const given = Buffer.from(hex, 'hex');
  if (!timingSafeEqual(expected, given)) {
    return { valid: false, reason: 'mismatch', message: 'The signature does not match this body and secret.' };
  }
  return { valid: true };
}

/** Finds the signature in raw `Name: value` header lines (as `webhook listen --save-dir` writes them, or a copied request). */
export function signatureFromHeaderText(text: string): string | undefined {
  const wanted = SIGNATURE_HEADER.toLowerCase();
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    if (line.slice(0, i).trim().toLowerCase() === wanted) return line.slice(i + 1).trim();
  }
  return undefined;
}
