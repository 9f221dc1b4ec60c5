// The completion cache's key (src/completion/cache.ts): a readable file name from the request's
// parts, and the material (everything else that decides the answer) that a read compares.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheKey, readCache, writeCache } from '../../../src/completion/cache.js';
import { nameKey } from '../../../src/name-key.js';
import { requestKey } from '../../../src/completion/values.js';

const dir = mkdtempSync(join(tmpdir(), 'formctl-cachekey-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { FORMCTL_CONFIG_DIR: join(dir, 'config'), FORMCTL_CACHE_DIR: join(dir, 'cache') };

describe('cacheKey', () => {
  it('names the file by the request alone: a typed word cannot leave the directory or make a long name', () => {
    expect(cacheKey(env, { kind: 'form', workspace: '12', form: undefined }).name).toBe('v2.p.-.form.12');
    // As the completion asks (the README's example): the forms of workspace 12, for the current profile.
    expect(requestKey(env, { kind: 'form', workspace: '12' }).name).toBe('v2.p.-.form.-.12');
    const odd = cacheKey(env, { kind: 'form', workspace: '../../etc/x*y', form: 'a b' }).name;
    expect(odd).toBe('v2.p.a%20b.form...%2F..%2Fetc%2Fx%2Ay');
    expect(cacheKey({ ...env, FORMCTL_PROFILE: 'work/../x' }, { kind: 'workspace' }).name).toBe('v2.pwork%2F..%2Fx.workspace');
    expect(odd).not.toContain('/');
    expect(cacheKey(env, { kind: 'form', workspace: 'w'.repeat(1000) }).name.length).toBeLessThanOrEqual(163);
  });

  it('keeps a token from the environment out of the key, as its name key only', () => {
    const key = cacheKey({ ...env, FORMCTL_TOKEN: 'fsk_secret_token_99' }, { kind: 'workspace' });
    expect(JSON.stringify(key)).not.toContain('fsk_secret_token_99');
    expect(key.material).toContain('"envToken":"');
    // src/name-key.ts (docs/completion.md): 8 hex digits, the same in the name and the material.
    const sum = nameKey('fsk_secret_token_99');
    expect(sum).toMatch(/^[0-9a-f]{8}$/);
    expect(JSON.parse(key.material).envToken).toBe(sum);
    expect(key.name).toBe(`v2.t${sum}.workspace`);
  });

  it('gives each token from the environment, and each profile, its own file: shells that use both do not take turns at one', () => {
    const names = [
      cacheKey(env, { kind: 'workspace' }),
      cacheKey({ ...env, FORMCTL_PROFILE: 'work' }, { kind: 'workspace' }),
      cacheKey({ ...env, FORMCTL_TOKEN: 'fsk_a' }, { kind: 'workspace' }),
      cacheKey({ ...env, FORMCTL_TOKEN: 'fsk_b' }, { kind: 'workspace' }),
    ].map((k) => k.name);
    expect(new Set(names).size).toBe(4);
  });

  it('serves an entry only to the settings it was written for; settings that share a file take turns at it', () => {
    // Now: writeCache drops the entries the clock says are long expired (by their files' times).
    const now = Date.now();
    const a = cacheKey({ ...env, FORMCTL_TOKEN: 'fsk_a' }, { kind: 'workspace' });
    const b = cacheKey({ ...env, FORMCTL_TOKEN: 'fsk_b' }, { kind: 'workspace' });
    const here = cacheKey(env, { kind: 'workspace' });
    const elsewhere = cacheKey({ ...env, FORMCTL_BASE_URL: 'https://forms.example.com' }, { kind: 'workspace' });
    writeCache(env, a, ['1\tAcme'], now);
    writeCache(env, b, ['2\tOther'], now);
    expect(readCache(env, a, now)).toEqual(['1\tAcme']);
    expect(readCache(env, b, now)).toEqual(['2\tOther']);
    writeCache(env, here, ['3\tMine'], now);
    expect(readCache(env, elsewhere, now)).toBeUndefined();
    writeCache(env, elsewhere, ['4\tTheirs'], now);
    expect(readCache(env, elsewhere, now)).toEqual(['4\tTheirs']);
    expect(readCache(env, here, now)).toBeUndefined();
  });
});
