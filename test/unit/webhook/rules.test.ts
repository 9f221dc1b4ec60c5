import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import {
  BLOCKED_HEADERS,
  checkHeaders,
  checkSecret,
  checkWebhookUrl,
  nonPublicReason,
  throwIfInvalid,
  validateWebhookData,
} from '../../../src/webhooks/rules.js';

/** A resolver that knows a few names; the real DNS is never used in unit tests. */
const resolve = async (host: string): Promise<string[]> => {
  const table: Record<string, string[]> = {
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'rebind.example.com': ['93.184.216.34', '10.0.0.5'],
    'internal.example.com': ['192.168.1.20'],
    localhost: ['127.0.0.1', '::1'],
    'empty.example.com': [],
  };
  const found = table[host];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found;
};

describe('checkWebhookUrl', () => {
  it('accepts an https URL whose every address is public', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/formctl?x=1', { resolve })).toEqual([]);
    expect(await checkWebhookUrl('https://8.8.8.8/hook', { resolve })).toEqual([]);
  });

  it.each([
    ['http://hooks.example.com/hook', 'The webhook URL must use HTTPS.'],
    ['ftp://hooks.example.com/hook', 'The webhook URL must use HTTPS.'],
    ['not a url', 'The webhook URL must be a valid URL.'],
    ['', 'The webhook URL must be a valid URL.'],
    ['https://user:pw@hooks.example.com/', 'The webhook URL cannot contain embedded credentials.'],
    ['https://empty.example.com/', 'The webhook URL host could not be resolved.'],
    ['https://127.0.0.1/hook', 'The webhook URL must resolve only to public IP addresses (127.0.0.1, a loopback address).'],
    ['https://[::1]/hook', 'The webhook URL must resolve only to public IP addresses (::1, a loopback address).'],
    ['https://169.254.169.254/latest/meta-data', 'The webhook URL must resolve only to public IP addresses (169.254.169.254, a cloud metadata address).'],
    ['https://[fd00:ec2::254]/', 'The webhook URL must resolve only to public IP addresses (fd00:ec2::254, a cloud metadata address).'],
    ['https://10.1.2.3/', 'The webhook URL must resolve only to public IP addresses (10.1.2.3, a private address).'],
    ['https://172.16.0.1/', 'The webhook URL must resolve only to public IP addresses (172.16.0.1, a private address).'],
    ['https://192.168.0.1/', 'The webhook URL must resolve only to public IP addresses (192.168.0.1, a private address).'],
    ['https://169.254.10.10/', 'The webhook URL must resolve only to public IP addresses (169.254.10.10, a link-local address).'],
    ['https://[fe80::1]/', 'The webhook URL must resolve only to public IP addresses (fe80::1, a link-local address).'],
    ['https://[fc00::1]/', 'The webhook URL must resolve only to public IP addresses (fc00::1, a unique-local address).'],
    ['https://[::ffff:127.0.0.1]/', 'The webhook URL must resolve only to public IP addresses (::ffff:7f00:1, an IPv4-mapped IPv6 address).'],
    ['https://[::ffff:8.8.8.8]/', 'The webhook URL must resolve only to public IP addresses (::ffff:808:808, an IPv4-mapped IPv6 address).'],
    ['https://0.0.0.0/', 'The webhook URL must resolve only to public IP addresses (0.0.0.0, an unspecified address).'],
    // IPv4-compatible IPv6 (ipaddr.js calls these `unicast`) and IPv6 space outside 2000::/3.
    ['https://[::127.0.0.1]/', 'The webhook URL must resolve only to public IP addresses (::7f00:1, an IPv4-compatible IPv6 address).'],
    ['https://[::169.254.169.254]/', 'The webhook URL must resolve only to public IP addresses (::a9fe:a9fe, an IPv4-compatible IPv6 address).'],
    ['https://[4000::1]/', 'The webhook URL must resolve only to public IP addresses (4000::1, a reserved address (outside 2000::/3)).'],
    ['https://017700000001/', 'The webhook URL must resolve only to public IP addresses (127.0.0.1, a loopback address).'],
    ['https://public.example@127.0.0.1/', 'The webhook URL cannot contain embedded credentials.'],
    // WHATWG URL parsing turns these spellings of 127.0.0.1 into the dotted form before the check.
    ['https://2130706433/', 'The webhook URL must resolve only to public IP addresses (127.0.0.1, a loopback address).'],
    ['https://0x7f.1/', 'The webhook URL must resolve only to public IP addresses (127.0.0.1, a loopback address).'],
    ['https://localhost:8443/hook', 'The webhook URL must resolve only to public IP addresses (localhost resolves to 127.0.0.1, a loopback address).'],
    [
      'https://internal.example.com/',
      'The webhook URL must resolve only to public IP addresses (internal.example.com resolves to 192.168.1.20, a private address).',
    ],
    // One private answer among public ones is enough to reject (DNS rebinding).
    ['https://rebind.example.com/', 'The webhook URL must resolve only to public IP addresses (rebind.example.com resolves to 10.0.0.5, a private address).'],
  ])('rejects %s', async (url, message) => {
    expect(await checkWebhookUrl(url, { resolve })).toEqual([message]);
  });

  it('a host this machine cannot look up (ENOTFOUND) passes with a warning: the service decides; other checks still apply', async () => {
    const warnings: string[] = [];
    expect(await checkWebhookUrl('https://nowhere.invalid/', { resolve, warnings })).toEqual([]);
    expect(warnings).toEqual([
      "this machine could not resolve the webhook URL's host nowhere.invalid (ENOTFOUND); the service checks the URL itself when it saves it.",
    ]);
    expect(await checkWebhookUrl('http://nowhere.invalid/', { resolve })).toEqual(['The webhook URL must use HTTPS.']);
  });

  it('with allowPrivate skips only the HTTPS and public-address checks', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:8787/', { resolve, allowPrivate: true })).toEqual([]);
    expect(await checkWebhookUrl('https://localhost/', { resolve, allowPrivate: true })).toEqual([]);
    expect(await checkWebhookUrl('http://u:p@127.0.0.1/', { resolve, allowPrivate: true })).toEqual(['The webhook URL cannot contain embedded credentials.']);
    expect(await checkWebhookUrl('https://empty.example.com/', { resolve, allowPrivate: true })).toEqual(['The webhook URL host could not be resolved.']);
    expect(await checkWebhookUrl('ftp://127.0.0.1/', { resolve, allowPrivate: true })).toEqual(['The webhook URL must use HTTPS.']);
  });

  it('resolves a real name through the system resolver (localhost is loopback)', async () => {
    const [message] = await checkWebhookUrl('https://localhost/hook');
    expect(message).toMatch(/^The webhook URL must resolve only to public IP addresses \(localhost resolves to (127\.0\.0\.1|::1), a loopback address\)\.$/);
  });
});

describe('nonPublicReason', () => {
  it('property: every generated private IPv4 address is refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(10, 127, 192, 172), fc.nat(255), fc.nat(255), fc.nat(255), async (first, b, c, d) => {
        const second = first === 192 ? 168 : first === 172 ? 16 + (b % 16) : b;
        expect(await nonPublicReason(`${first}.${second}.${c}.${d}`)).toBeDefined();
      }),
      { numRuns: 100 },
    );
  });

  it('property: every IPv4-mapped IPv6 address is refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.ipV4(), async (v4) => {
        expect(await nonPublicReason(`::ffff:${v4}`)).toBe('an IPv4-mapped IPv6 address');
      }),
      { numRuns: 100 },
    );
  });

  it('property: every IPv4-compatible IPv6 address (::a.b.c.d, written ::hhhh:hhhh) is refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 0xffffffff }), async (v4) => {
        const address = `::${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
        expect(await nonPublicReason(address)).toBeDefined();
      }),
      { numRuns: 100 },
    );
  });

  it('treats ordinary public addresses as public', async () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700::1111']) expect(await nonPublicReason(a)).toBeUndefined();
  });
});

describe('checkSecret', () => {
  it('needs at least 12 characters, counted as characters', () => {
    expect(checkSecret(undefined)).toEqual([]);
    expect(checkSecret('123456789012')).toEqual([]);
    expect(checkSecret('12345678901')).toEqual(['The webhook secret must be at least 12 characters (it has 11).']);
    // 11 emoji are 22 UTF-16 units but 11 characters.
    expect(checkSecret('🔑'.repeat(11))).toEqual(['The webhook secret must be at least 12 characters (it has 11).']);
  });
});

describe('checkHeaders', () => {
  it('accepts up to 10 headers with values up to 255 characters', () => {
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`X-H${i}`, 'v'.repeat(255)]));
    expect(checkHeaders(ten)).toEqual([]);
  });

  it('refuses 11 headers', () => {
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, 'v']));
    expect(checkHeaders(eleven)).toEqual(['Maximum 10 custom headers allowed (got 11).']);
  });

  it('refuses a value over 255 characters', () => {
    expect(checkHeaders({ 'X-Long': 'v'.repeat(256) })).toEqual(["Header value for 'X-Long' exceeds 255 characters (it has 256)."]);
  });

  it('refuses every blocked name in any case', () => {
    for (const name of BLOCKED_HEADERS) {
      for (const spelled of [name, name.toLowerCase(), name.toUpperCase()]) {
        expect(checkHeaders({ [spelled]: 'x' })).toEqual([`The '${spelled}' header cannot be customized for security reasons.`]);
      }
    }
    expect(checkHeaders({ 'x-WEBHOOK-signature': 'sha256=forged' })).toEqual(["The 'x-WEBHOOK-signature' header cannot be customized for security reasons."]);
  });

  it('property: a random mixed-case spelling of a blocked name is refused', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BLOCKED_HEADERS), fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }), (name, flips) => {
        const odd = [...name].map((c, i) => (flips[i] ? c.toUpperCase() : c.toLowerCase())).join('');
        expect(checkHeaders({ [odd]: 'x' })).toHaveLength(1);
      }),
    );
  });

  it('refuses names that cannot be sent and values with line breaks', () => {
    expect(checkHeaders({ 'Bad Name': 'x' })).toEqual(["Header names must be non-empty strings of valid header characters ('Bad Name')."]);
    expect(checkHeaders({ 'X-A': 'a\r\nX-Injected: 1' })).toEqual(["Header value for 'X-A' contains a line break."]);
    expect(checkHeaders({ 'X-A': 'a\x1b[2Jb' })).toEqual(["Header value for 'X-A' contains a control character."]);
    expect(checkHeaders({ 'X-A': 'a\x7f' })).toEqual(["Header value for 'X-A' contains a control character."]);
    expect(checkHeaders({ 'X-A': 'a\tb' })).toEqual([]);
  });
});

describe('validateWebhookData and throwIfInvalid', () => {
  it('reports each problem under its field path, as a usage error (exit 2)', async () => {
    const errors = await validateWebhookData(
      { webhook_url: 'http://hooks.example.com', webhook_secret: 'short', webhook_headers: { Cookie: 'a' } },
      { resolve },
    );
    expect(errors).toEqual({
      'data.webhook_url': ['The webhook URL must use HTTPS.'],
      'data.webhook_secret': ['The webhook secret must be at least 12 characters (it has 5).'],
      'data.webhook_headers': ["The 'Cookie' header cannot be customized for security reasons."],
    });
    let thrown: unknown;
    try {
      throwIfInvalid(errors);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    const e = thrown as UsageError;
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(
      [
        'The webhook settings would be rejected by the service:',
        '  data.webhook_url: The webhook URL must use HTTPS.',
        '  data.webhook_secret: The webhook secret must be at least 12 characters (it has 5).',
        "  data.webhook_headers: The 'Cookie' header cannot be customized for security reasons.",
      ].join('\n'),
    );
    expect(e.hint).toMatch(/--allow-private/);
    // The secret's value is never echoed in the problem report.
    expect(e.message).not.toContain('short');
  });

  it('returns quietly when there is nothing wrong', async () => {
    expect(() => throwIfInvalid({})).not.toThrow();
  });
});
