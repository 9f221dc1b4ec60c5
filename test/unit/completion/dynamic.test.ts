import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { fetchLines, profileLines } from '../../../src/completion/dynamic.js';
import { cachedValueSource } from '../../../src/completion/values.js';
import type { DynamicDeps } from '../../../src/completion/dynamic.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';

const home = mkdtempSync(join(tmpdir(), 'formctl-dynamic-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Shells show descriptions in their completion menus: a name from the service must not carry
// escape sequences (or anything else that is not text) into the terminal.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('completion values from the service', () => {
  it('descriptions carry no control characters (ANSI/OSC sequences from names and titles)', async () => {
    server = await startStubServer((req, res) => {
      if (req.url === '/open/workspaces') return json(res, 200, [{ id: 1, name: 'Acme\x1b]0;pwned\x07\x1b[2J', icon: '\x9b31m' }]);
      return json(res, 200, { data: [{ id: 5, slug: 'c\x1b[8m', title: 'Contact\r\x1b[K' }], meta: { current_page: 1, last_page: 1 } });
    });
    const api = new ApiClient({ baseUrl: server.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    const f = { env: { FORMCTL_CONFIG_DIR: home }, api: async () => api } as unknown as DynamicDeps;
    const lines = [...((await fetchLines(f, { kind: 'workspace' })) ?? []), ...((await fetchLines(f, { kind: 'form', workspace: '1' })) ?? [])];
    await api.close();
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.replace('\t', ' ')).not.toMatch(CONTROL);
    expect(lines[0]).toBe('1\t31m Acme ]0;pwned [2J');
  });

  it('a form or workspace on the line that is not an id: nothing asked (undefined, so nothing cached), never the default workspace instead', async () => {
    let asked = 0;
    server = await startStubServer((_req, res) => {
      asked++;
      return json(res, 200, { data: [], meta: { current_page: 1, last_page: 1 } });
    });
    const api = new ApiClient({ baseUrl: server.url, token: 't', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
    const f = { env: { FORMCTL_CONFIG_DIR: home }, api: async () => api, context: async () => ({ workspace: 7 }) } as unknown as DynamicDeps;
    expect(await fetchLines(f, { kind: 'form', workspace: 'acme' })).toBeUndefined();
    expect(await fetchLines(f, { kind: 'webhook', form: 'contact-us' })).toBeUndefined();
    expect(asked).toBe(0);
    expect(await fetchLines(f, { kind: 'form' })).toEqual([]);
    expect(asked).toBe(1);
    await api.close();
  });

  it('nothing to ask (undefined): no candidates and no cache entry; an empty answer from the service is cached', async () => {
    const cache = join(home, 'cache-undefined');
    const env = { FORMCTL_CACHE_DIR: cache, FORMCTL_TOKEN: 'fsk_t', FORMCTL_BASE_URL: 'http://127.0.0.1:9' };
    const entries = (): string[] => {
      try {
        return readdirSync(cache, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith('.json'));
      } catch {
        return [];
      }
    };
    const nothing = cachedValueSource({ env, now: () => new Date(), fetch: () => Promise.resolve(undefined) });
    expect(await nothing({ kind: 'webhook', form: 'contact-us' })).toEqual([]);
    expect(entries()).toEqual([]);
    const empty = cachedValueSource({ env, now: () => new Date(), fetch: () => Promise.resolve([]) });
    expect(await empty({ kind: 'webhook', form: '12' })).toEqual([]);
    expect(entries()).toHaveLength(1);
  });

  it('profile names and base URLs from the config file are cleaned too', () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ currentProfile: 'w', profiles: { 'w\x1b[2J': { baseUrl: 'https://x.example\x07' } } }));
    for (const line of profileLines({ FORMCTL_CONFIG_DIR: home })) expect(line.replace('\t', ' ')).not.toMatch(CONTROL);
  });
});
