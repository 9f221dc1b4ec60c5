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
