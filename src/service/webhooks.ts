// The service's webhook rules (docs/webhooks-and-members.md): custom header limits and blocked
// names, the secret's minimum, and the signature format. The client checks a webhook against them
// before sending it; the sandbox enforces them and signs its deliveries with them.
import { createHmac } from 'node:crypto';
import { charLength } from './text.js';

/** A webhook integration is switched on or off. */
export const WEBHOOK_STATUSES = ['active', 'inactive'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** The deployed server's 14 blocked custom header names (the spec lists 10 "and possibly others"), compared case-insensitively. */
export const BLOCKED_HEADERS: readonly string[] = [
  'Authorization',
  'X-Webhook-Signature',
  'Content-Type',
  'Content-Length',
  'Host',
  'Cookie',
  'X-CSRF-Token',
  'X-CSRF-TOKEN',
  'X-Forwarded-For',
  'X-Forwarded-Proto',
  'X-Real-IP',
  'X-Requested-With',
  'Accept-Encoding',
  'Transfer-Encoding',
];
const BLOCKED = new Set(BLOCKED_HEADERS.map((h) => h.toLowerCase()));

export const MAX_HEADERS = 10;
/** The longest custom header name and value, in characters. */
export const MAX_HEADER_LENGTH = 255;
/** RFC 9110 token characters: a name outside them can never be sent, so a delivery would fail. */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A control character other than tab: no header value can carry one. */
// eslint-disable-next-line no-control-regex
export const HEADER_VALUE_CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/** The service's minimum secret length, counted in characters. */
export const MIN_SECRET_LENGTH = 12;

/** The delivery header that carries the signature. */
export const SIGNATURE_HEADER = 'X-Webhook-Signature';
export const SIGNATURE_PREFIX = 'sha256=';

/** The HMAC-SHA256 of the exact body bytes, keyed with the secret: what a signature carries. */
export function signatureDigest(secret: string, body: Uint8Array | string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** `sha256=` + the digest in lowercase hex: the X-Webhook-Signature value. */
export function signBody(secret: string, body: Uint8Array | string): string {
  return SIGNATURE_PREFIX + signatureDigest(secret, body).toString('hex');
}

/**
 * A rule a value breaks: `message` in the deployed server's words (what the sandbox answers);
 * `detail` says what was found (the client adds it: "… 255 characters (it has 300).").
 */
export interface Problem {
  message: string;
  detail?: string;
}

/** `message`, with `detail` in brackets before its final period when there is one. */
export function withDetail(p: Problem): string {
  return p.detail === undefined ? p.message : `${p.message.replace(/\.$/, '')} (${p.detail}).`;
}

/**
 * Every problem with a custom header map, in order: count, then each name and value. `count`: how a
 * length is measured: the spec says characters; the deployed server measures with PHP's `strlen`,
 * in UTF-8 bytes (OpnForm `app/Integrations/Handlers/WebhookIntegration.php:58,75`), so a value of
 * 200 "é" (400 bytes) passes the one and not the other. The client checks bytes, the stricter.
 */
export function headerProblems(headers: unknown, count: 'characters' | 'bytes' = 'bytes'): Problem[] {
  const lengthOf = (text: string): number => (count === 'bytes' ? Buffer.byteLength(text) : charLength(text));
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    return [{ message: 'The webhook headers must be an object of header names to values.' }];
  }
  const entries = Object.entries(headers as Record<string, unknown>);
  const problems: Problem[] = [];
  if (entries.length > MAX_HEADERS) problems.push({ message: `Maximum ${MAX_HEADERS} custom headers allowed.`, detail: `got ${entries.length}` });
  for (const [name, value] of entries) {
    if (name.trim() === '' || !HEADER_NAME.test(name))
      problems.push({ message: `Header names must be non-empty strings of valid header characters ('${name}').` });
    else if (name.length > MAX_HEADER_LENGTH)
      problems.push({ message: `Header name '${name}' exceeds ${MAX_HEADER_LENGTH} characters.`, detail: `it has ${name.length}` });
    else if (BLOCKED.has(name.toLowerCase())) problems.push({ message: `The '${name}' header cannot be customized for security reasons.` });
    if (typeof value !== 'string') problems.push({ message: `Header values must be strings. '${name}' has invalid value type.` });
    else if (lengthOf(value) > MAX_HEADER_LENGTH) {
      const detail =
        count === 'bytes' && lengthOf(value) !== charLength(value)
          ? `it has ${lengthOf(value)} bytes in UTF-8, which the service counts`
          : `it has ${lengthOf(value)}`;
      problems.push({ message: `Header value for '${name}' exceeds ${MAX_HEADER_LENGTH} characters.`, detail });
    } else if (/[\r\n\0]/.test(value)) problems.push({ message: `Header value for '${name}' contains a line break.` });
    else if (HEADER_VALUE_CONTROL.test(value)) problems.push({ message: `Header value for '${name}' contains a control character.` });
  }
  return problems;
}
