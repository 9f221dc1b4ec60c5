// The completion cache's key (src/completion/cache.ts): a readable file name from the request's
// parts, and the material (everything else that decides the answer) that a read compares.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheKey, readCache, writeCache } from '../../../src/completion/cache.js';

const dir = mkdtempSync(join(tmpdir(), 'formctl-cachekey-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { FORMCTL_CONFIG_DIR: join(dir, 'config'), FORMCTL_CACHE_DIR: join(dir, 'cache') };

describe('cacheKey', () => {
  it('names the file by the request alone: a typed word cannot leave the directory or make a long name', () => {
    expect(cacheKey(env, { kind: 'form', workspace: '12', form: undefined }).name).toBe('v2.-.form.12');
    const odd = cacheKey(env, { kind: 'form', workspace: '../../etc/x*y', form: 'a b' }).name;
    expect(odd).toBe('v2.a%20b.form...%2F..%2Fetc%2Fx%2Ay');
    expect(odd).not.toContain('/');
    expect(cacheKey(env, { kind: 'form', workspace: 'w'.repeat(1000) }).name.length).toBeLessThanOrEqual(163);
  });

  it('keeps a token from the environment out of the key, as its SHA-256 only', () => {
    const key = cacheKey({ ...env, FORMCTL_TOKEN: 'fsk_secret_token_99' }, { kind: 'workspace' });
    expect(JSON.stringify(key)).not.toContain('fsk_secret_token_99');
    expect(key.material).toContain('"envToken":"');
    expect(JSON.parse(key.material).envToken).toMatch(/^[0-9a-f]{64}$/);
    expect(cacheKey(env, { kind: 'workspace' }).name).toBe(key.name);
  });

  it('serves an entry only to the settings it was written for; the last answer wins the file', () => {
    const now = 1_800_000_000_000;
    const a = cacheKey({ ...env, FORMCTL_TOKEN: 'fsk_a' }, { kind: 'workspace' });
    const b = cacheKey({ ...env, FORMCTL_TOKEN: 'fsk_b' }, { kind: 'workspace' });
    const other = cacheKey({ ...env, FORMCTL_BASE_URL: 'https://forms.example.com' }, { kind: 'workspace' });
    writeCache(env, a, ['1\tAcme'], now);
    expect(readCache(env, a, now)).toEqual(['1\tAcme']);
    expect(readCache(env, b, now)).toBeUndefined();
    expect(readCache(env, other, now)).toBeUndefined();
    writeCache(env, b, ['2\tOther'], now);
    expect(readCache(env, b, now)).toEqual(['2\tOther']);
    expect(readCache(env, a, now)).toBeUndefined();
  });
});
