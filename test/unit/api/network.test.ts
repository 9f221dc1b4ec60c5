import { describe, expect, it } from 'vitest';
import { describeConnectionFailure, failureCode, formatSeconds } from '../../../src/api/network.js';
import { describeFailure } from '../../../src/webhooks/http.js';

const url = new URL('https://hooks.example.com:8443/x');

describe('one wording for a failed connection', () => {
  it('words each errno code once', () => {
    expect(describeConnectionFailure('ECONNREFUSED', '', url)).toBe('Connection refused by hooks.example.com:8443');
    expect(describeConnectionFailure('EAI_AGAIN', '', url)).toBe('Could not resolve hooks.example.com');
    expect(describeConnectionFailure('UND_ERR_SOCKET', '', url)).toBe('The connection to hooks.example.com:8443 was dropped');
    expect(describeConnectionFailure('ENETUNREACH', '', url)).toBe('No route to hooks.example.com:8443');
    expect(describeConnectionFailure('DEPTH_ZERO_SELF_SIGNED_CERT', '', url)).toBe('TLS error talking to hooks.example.com:8443: DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(describeConnectionFailure('EWHATEVER', 'boom', url)).toBe('Network error talking to hooks.example.com:8443: EWHATEVER');
    expect(describeConnectionFailure(undefined, 'boom', url)).toBe('Network error talking to hooks.example.com:8443: boom');
  });

  it('the webhook sender says what the API client says, and keeps its own timeout text', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(describeFailure(refused, url)).toEqual({ reason: 'Connection refused by hooks.example.com:8443', code: 'ECONNREFUSED' });
    const wrapped = Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error('x'), { code: 'EHOSTUNREACH' }) });
    expect(failureCode(wrapped)).toBe('EHOSTUNREACH');
    expect(describeFailure(wrapped, url).reason).toBe('No route to hooks.example.com:8443');
    const own = Object.assign(new Error('No answer from hooks.example.com:8443 within 2.5 s'), { code: 'ETIMEDOUT' });
    expect(describeFailure(own, url).reason).toBe('No answer from hooks.example.com:8443 within 2.5 s');
    expect(describeFailure(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }), url).reason).toBe('No answer from hooks.example.com:8443');
  });

  it('formats a timeout in seconds', () => {
    expect(formatSeconds(2500)).toBe('2.5 s');
    expect(formatSeconds(30_000)).toBe('30 s');
    expect(formatSeconds(12_400)).toBe('12 s');
  });
});

describe('an untrusted certificate', () => {
  it('names NODE_EXTRA_CA_CERTS, and --use-system-ca only where the running Node has it', async () => {
    const { untrustedCertificate } = await import('../../../src/api/network.js');
    expect(untrustedCertificate('DEPTH_ZERO_SELF_SIGNED_CERT', 'h:1', false)).toEqual({
      reason: 'h:1 presented a self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT), so formctl did not send anything',
      hint: 'If the service uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM).',
    });
    expect(untrustedCertificate('UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'h:1', true)?.hint).toBe(
      "If the service uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM), or, if the CA is in the system's store, NODE_OPTIONS=--use-system-ca.",
    );
    expect(untrustedCertificate('UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'h:1', true)?.reason).toContain('a certificate from a CA this machine does not trust');
    // Other TLS failures (an expired certificate, a wrong host name) keep the general wording.
    expect(untrustedCertificate('CERT_HAS_EXPIRED', 'h:1', true)).toBeUndefined();
    expect(untrustedCertificate(undefined, 'h:1', true)).toBeUndefined();
  });

  it("an https:// proxy's: the message names the proxy as given, the hint the proxy's CA", async () => {
    const { untrustedCertificate } = await import('../../../src/api/network.js');
    expect(untrustedCertificate('SELF_SIGNED_CERT_IN_CHAIN', 'The proxy https://p:3129 (HTTPS_PROXY)', false, 'proxy')).toEqual({
      reason: 'The proxy https://p:3129 (HTTPS_PROXY) presented a self-signed certificate (SELF_SIGNED_CERT_IN_CHAIN), so formctl did not send anything',
      hint: 'If the proxy uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM).',
    });
    expect(untrustedCertificate('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'The proxy https://p:3129 (HTTPS_PROXY)', true, 'proxy')?.hint).toBe(
      "If the proxy uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM), or, if the CA is in the system's store, NODE_OPTIONS=--use-system-ca.",
    );
  });
});
