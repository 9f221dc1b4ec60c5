// The webhook rules of src/service/ serve the client's pre-checks and the sandbox alike: the client
// says what the sandbox (and the service) would answer, plus what it found.
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl as serviceCheck } from '../../../src/service/addresses.js';
import { headerProblems, withDetail } from '../../../src/service/webhooks.js';
import { checkHeaders, checkWebhookUrl } from '../../../src/webhooks/rules.js';

const lookup = async (host: string) => {
  const table: Record<string, string[]> = { 'hooks.example.com': ['93.184.216.34'], 'lan.example.com': ['192.168.1.20'] };
  return (table[host] ?? []).map((address) => ({ address, family: 4 }));
};
const resolve = async (host: string) => (await lookup(host)).map((a) => a.address);

describe('one webhook URL rule', () => {
  it('with allowPrivate, plain http:// reaches private receivers only, for the client as for the sandbox', async () => {
    for (const [url, ok] of [
      ['http://192.168.1.20/hook', true],
      ['http://lan.example.com/hook', true],
      ['http://8.8.8.8/hook', false],
      ['http://hooks.example.com/hook', false],
    ] as const) {
      const sandbox = await serviceCheck(url, { allowPrivate: true, lookup });
      const client = await checkWebhookUrl(url, { allowPrivate: true, resolve });
      expect(sandbox.ok).toBe(ok);
      expect(client).toEqual(ok ? [] : ['The webhook URL must use HTTPS.']);
    }
  });

  it('the sandbox answers the service’s words; the client adds what it found', async () => {
    const sandbox = await serviceCheck('https://lan.example.com/', { lookup });
    expect(sandbox).toMatchObject({ ok: false, message: 'The webhook URL must resolve only to public IP addresses.' });
    expect(await checkWebhookUrl('https://lan.example.com/', { resolve })).toEqual([
      'The webhook URL must resolve only to public IP addresses (lan.example.com resolves to 192.168.1.20, a private address).',
    ]);
    const pinned = await serviceCheck('https://hooks.example.com/x', { lookup });
    expect(pinned).toMatchObject({ ok: true, addresses: [{ address: '93.184.216.34', family: 4 }] });
  });
});

describe("the URL's shape, as PHP's filter_var(FILTER_VALIDATE_URL) takes it (the service's check)", () => {
  it('refuses spaces, non-ASCII characters and host names with underscores; takes percent-encoded ones, IPs and a final dot', async () => {
    const lookupAny = async () => [{ address: '93.184.216.34', family: 4 as const }];
    for (const [url, ok] of [
      ['https://1.1.1.1/a b', false],
      ['https://1.1.1.1/ü', false],
      ['https://hooks.exämple.com/x', false],
      ['https://my_hooks.example.com/x', false],
      ['https://-bad.example.com/x', false],
      ['https://1.1.1.1/a%20b', true],
      ['https://1.1.1.1/%C3%BC?q=1&r=[2]', true],
      ['https://hooks.example.com./x', true],
      ['https://xn--exmple-cua.com/x', true],
      ['https://[2606:4700:4700::1111]/x', true],
    ] as const) {
      const r = await serviceCheck(url, { lookup: lookupAny });
      expect(r.ok, url).toBe(ok);
      if (!ok) expect(r, url).toMatchObject({ message: 'The webhook URL must be a valid URL.' });
    }
  });
});

describe('a header value is measured in UTF-8 bytes, as the deployed server counts it', () => {
  it('200 "é" is 400 bytes: refused, with the count in bytes; 255 ASCII characters pass; the spec flavour counts characters', () => {
    expect(headerProblems({ 'X-E': 'é'.repeat(200) }).map(withDetail)).toEqual([
      "Header value for 'X-E' exceeds 255 characters (it has 400 bytes in UTF-8, which the service counts).",
    ]);
    expect(headerProblems({ 'X-A': 'a'.repeat(255) })).toEqual([]);
    expect(headerProblems({ 'X-E': 'é'.repeat(200) }, 'characters')).toEqual([]);
  });
});

describe('one header rule', () => {
  it('gives each problem once, in the service’s words, with what was found for the client', () => {
    const headers = { Cookie: 'x', 'X-Long': 'v'.repeat(300) };
    expect(headerProblems(headers).map((p) => p.message)).toEqual([
      "The 'Cookie' header cannot be customized for security reasons.",
      "Header value for 'X-Long' exceeds 255 characters.",
    ]);
    expect(checkHeaders(headers)).toEqual(headerProblems(headers).map(withDetail));
    expect(checkHeaders(headers)[1]).toBe("Header value for 'X-Long' exceeds 255 characters (it has 300).");
  });
});
