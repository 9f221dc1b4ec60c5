import { mkdirSync, utimesSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formLockPath, formLocker } from '../../../src/forms/lock.js';
import { tempDir } from './fixtures.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const BASE = 'http://127.0.0.1:4010';

describe('per-form lock (proper-lockfile)', () => {
  it('a second holder of the same form waits until the first releases', async () => {
    const waits: number[] = [];
    let signalWait!: () => void;
    const waiting = new Promise<void>((r) => (signalWait = r));
    const a = formLocker(tmp.dir, BASE);
    const b = formLocker(tmp.dir, BASE, (id) => {
      waits.push(id);
      signalWait();
    });
    const releaseA = await a(42);
    let bHeld = false;
    const bLock = b(42).then((release) => {
      bHeld = true;
      return release;
    });
    await waiting;
    expect(waits).toEqual([42]);
    expect(bHeld).toBe(false);
    await releaseA();
    const releaseB = await bLock;
    expect(bHeld).toBe(true);
    await releaseB();
    await releaseB(); // idempotent
  });

  it('other forms and other services do not wait', async () => {
    const onWait = () => {
      throw new Error('no wait expected');
    };
    const r1 = await formLocker(tmp.dir, BASE, onWait)(42);
    const r2 = await formLocker(tmp.dir, BASE, onWait)(43);
    const r3 = await formLocker(tmp.dir, 'http://127.0.0.1:4011', onWait)(42);
    await Promise.all([r1(), r2(), r3()]);
  });

  it('a lock left by a killed process (not refreshed for a while) is taken over', async () => {
    const lockDir = `${formLockPath(tmp.dir, BASE, 42)}.lock`;
    mkdirSync(lockDir, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockDir, old, old);
    const release = await formLocker(tmp.dir, BASE, () => {
      throw new Error('a stale lock is not waited for');
    })(42);
    await release();
  });

  it('lock paths keep the host apart and cannot leave the directory', () => {
    expect(formLockPath('/s/locks', 'https://forms.example.com', 7)).toBe('/s/locks/forms.example.com/form-7');
    expect(formLockPath('/s/locks', 'http://127.0.0.1:4010/api', 7)).toBe('/s/locks/127.0.0.1_4010/form-7');
    expect(formLockPath('/s/locks', '..', 7)).toBe('/s/locks/_/form-7');
  });
});
