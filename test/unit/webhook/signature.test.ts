import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signBody, signatureFromHeaderText, verifySignature } from '../../../src/webhooks/signature.js';
import { cleanSecret, generateSecret, maskSecret } from '../../../src/webhooks/secret.js';

const secret = 'test-secret-0123456789';
const body = Buffer.from('{"form_id":1,"submission":{"Name":"Ada"}}');

describe('signBody', () => {
  it('is sha256= + the lowercase hex HMAC-SHA256 of the raw bytes', () => {
    const expected = 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
    expect(signBody(secret, body)).toBe(expected);
    expect(signBody(secret, body)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('signs a string and its UTF-8 bytes identically', () => {
    const text = '{"name":"Zoë ✓"}';
    expect(signBody(secret, text)).toBe(signBody(secret, Buffer.from(text, 'utf8')));
  });
});

describe('verifySignature', () => {
  it('accepts the signature of the same bytes and secret', () => {
    expect(verifySignature(secret, body, signBody(secret, body))).toEqual({ valid: true });
  });

  it('accepts upper-case hex digits (same digest bytes)', () => {
    const sig = signBody(secret, body);
    expect(verifySignature(secret, body, 'sha256=' + sig.slice(7).toUpperCase()).valid).toBe(true);
  });

  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    ['abc', 'malformed'],
    ['sha1=' + 'a'.repeat(40), 'malformed'],
    ['sha256=xyz', 'malformed'],
    ['sha256=' + 'a'.repeat(63), 'malformed'],
    ['sha256=' + 'a'.repeat(64), 'mismatch'],
  ])('rejects %j as %s', (header, reason) => {
    const r = verifySignature(secret, body, header);
    expect(r.valid).toBe(false);
    expect(r.valid === false && r.reason).toBe(reason);
  });

  it('rejects a re-serialised body (the classic receiver bug)', () => {
    const pretty = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 2));
    const r = verifySignature(secret, pretty, signBody(secret, body));
    expect(r).toMatchObject({ valid: false, reason: 'mismatch' });
  });

  it('property: a signature verifies with its own secret and bytes only', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.uint8Array(), fc.uint8Array(), (s1, s2, b1, b2) => {
        const sig = signBody(s1, b1);
        expect(verifySignature(s1, b1, sig).valid).toBe(true);
        if (s1 !== s2) expect(verifySignature(s2, b1, sig).valid).toBe(false);
        if (!Buffer.from(b1).equals(Buffer.from(b2))) expect(verifySignature(s1, b2, sig).valid).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('property: any single-digit change in the signature is rejected', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1 }), fc.nat(63), (b, pos) => {
        const sig = signBody(secret, b);
        const digit = sig[7 + pos]!;
        const changed = sig.slice(0, 7 + pos) + (digit === '0' ? '1' : '0') + sig.slice(8 + pos);
        expect(verifySignature(secret, b, changed)).toMatchObject({ valid: false, reason: 'mismatch' });
      }),
      { numRuns: 200 },
    );
  });
});

describe('signatureFromHeaderText', () => {
  it('finds the header in any case among raw header lines', () => {
    const text = 'Content-Type: application/json\r\nx-webhook-signature:  sha256=abc \r\nX-Other: 1\r\n';
    expect(signatureFromHeaderText(text)).toBe('sha256=abc');
    expect(signatureFromHeaderText('Content-Type: a\n')).toBeUndefined();
  });
});

describe('secrets', () => {
  it('generates 32 random bytes as 64 hex digits, different each time', () => {
    const a = generateSecret();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(generateSecret()).not.toBe(a);
  });

  it('masks all but the last 4 characters, and short secrets entirely', () => {
    expect(maskSecret('abcdefghijklmnop')).toBe('••••mnop');
    expect(maskSecret('short')).toBe('••••');
    expect(maskSecret(null)).toBeNull();
    expect(maskSecret('')).toBeNull();
  });

  it('drops trailing line breaks from a secret file, nothing else', () => {
    expect(cleanSecret('  s3cret-value \r\n\n')).toBe('  s3cret-value ');
  });
});
