import { existsSync, mkdirSync, readFileSync, rmdirSync, utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../src/config/store.js';
import { testConfig } from '../auth/fixtures.js';

const saved = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { currentProfile?: string; profiles: Record<string, { baseUrl: string }> };

describe('config store: saves from more than one process', () => {
  it('a store opened before another one saved keeps that save (no write-back of a stale copy)', async () => {
    const t = await testConfig();
    const early = await ConfigStore.open(t.configDir);
    await t.store.saveProfile('local', { baseUrl: 'http://127.0.0.1:8787' });
    await early.saveProfile('work', { baseUrl: 'https://api.opnform.com' });
    expect(Object.keys(saved(t.store.path).profiles).sort()).toEqual(['local', 'work']);
    expect(saved(t.store.path).currentProfile).toBe('local');
    // The early store now sees the file as it is.
    expect(Object.keys(early.data.profiles).sort()).toEqual(['local', 'work']);
    await t.cleanup();
  });

  it('saves that overlap are all kept, one after the other', async () => {
    const t = await testConfig();
    const stores = await Promise.all(Array.from({ length: 8 }, () => ConfigStore.open(t.configDir)));
    await Promise.all(stores.map((s, i) => s.saveProfile(`p${i}`, { baseUrl: `http://127.0.0.1:${9000 + i}` })));
    expect(Object.keys(saved(t.store.path).profiles).sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
    await t.cleanup();
  });

  it('remove and use act on the file as it is now', async () => {
    const t = await testConfig();
    const early = await ConfigStore.open(t.configDir);
    await t.store.saveProfile('a', { baseUrl: 'https://a.example' });
    await t.store.saveProfile('b', { baseUrl: 'https://b.example' });
    await early.setCurrent('b');
    expect(await early.removeProfile('a')).toBe(true);
    expect(saved(t.store.path)).toEqual({ currentProfile: 'b', profiles: { b: { baseUrl: 'https://b.example' } } });
    await t.cleanup();
  });

  it('waits for a lock another process holds, and takes over one left by a process that died', async () => {
    const t = await testConfig();
    // proper-lockfile's lock is a directory next to the file.
    const lock = `${t.store.path}.lock`;
    mkdirSync(lock);
    // The order, not a duration: the save is still waiting when the lock goes, and ends after.
    let done = false;
    const saving = t.store.saveProfile('waited', { baseUrl: 'https://a.example' }).then(() => (done = true));
    const whenReleased = new Promise<boolean>((resolve) =>
      setTimeout(() => {
        resolve(done);
        rmdirSync(lock);
      }, 150),
    );
    expect(await whenReleased).toBe(false);
    await saving;
    mkdirSync(lock);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(lock, old, old);
    await t.store.saveProfile('stale', { baseUrl: 'https://b.example' });
    expect(Object.keys(saved(t.store.path).profiles).sort()).toEqual(['stale', 'waited']);
    expect(existsSync(lock)).toBe(false);
    await t.cleanup();
  });
});
