// The shared sandbox fixture (test/helpers/fixture.ts) leaves nothing behind, a failed start included.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxFixture, sandboxForTest, useSandboxFixture } from '../../helpers/fixture.js';

describe('useSandboxFixture', () => {
  const seen: Array<{ home: string; work: string; url: string }> = [];
  describe('per test', () => {
    const fx = useSandboxFixture({ seed: 1, perTest: true, env: (sb) => ({ FORMCTL_WORKSPACE: String(sb.workspaceId) }) });
    it.each([1, 2])('run %i: a home, a work dir and a sandbox of its own, with their env merged', async () => {
      expect(fx.env).toEqual({ ...fx.home.env, ...fx.sb.env, FORMCTL_WORKSPACE: String(fx.sb.workspaceId) });
      expect(existsSync(fx.home.dir) && existsSync(fx.work)).toBe(true);
      expect((await fetch(`${fx.sb.url}/open/workspaces`, { headers: { authorization: `Bearer ${fx.sb.tokens.all}` } })).status).toBe(200);
      seen.push({ home: fx.home.dir, work: fx.work, url: fx.sb.url });
    });
  });
  it('closed each sandbox and removed each dir after its test', async () => {
    expect(seen).toHaveLength(2);
    expect(seen[0]!.home).not.toBe(seen[1]!.home);
    for (const s of seen) {
      expect(existsSync(s.home) || existsSync(s.work)).toBe(false);
      await expect(fetch(s.url)).rejects.toThrow();
    }
  });
});

describe('useSandboxFixture with homePerTest', () => {
  const seen: Array<{ home: string; work: string; url: string }> = [];
  let blockHome = '';
  describe('one sandbox, a home per test', () => {
    const fx = useSandboxFixture({ homePerTest: true, env: (sb) => ({ FORMCTL_WORKSPACE: String(sb.workspaceId) }) });
    beforeAll(() => {
      blockHome = fx.home.dir;
    });
    it.each([1, 2])("run %i: a home and work dir of its own, the env following them, the block's home gone", () => {
      expect(fx.env).toEqual({ ...fx.home.env, ...fx.sb.env, FORMCTL_WORKSPACE: String(fx.sb.workspaceId) });
      expect(existsSync(fx.home.dir) && existsSync(fx.work)).toBe(true);
      expect(fx.home.dir).not.toBe(blockHome);
      expect(existsSync(blockHome)).toBe(false);
      for (const s of seen) expect(existsSync(s.home) || existsSync(s.work)).toBe(false);
      seen.push({ home: fx.home.dir, work: fx.work, url: fx.sb.url });
    });
  });
  it('kept one sandbox for both, then closed it and removed every dir', async () => {
    expect(seen).toHaveLength(2);
    expect(seen[0]!.home).not.toBe(seen[1]!.home);
    expect(seen[0]!.url).toBe(seen[1]!.url);
    for (const s of seen) expect(existsSync(s.home) || existsSync(s.work)).toBe(false);
    await expect(fetch(seen[0]!.url)).rejects.toThrow();
  });
});

describe('sandboxForTest', () => {
  let seen: { home: string; work: string; url: string } | undefined;
  it('starts a fixture inside the test, with the options asked for', async () => {
    const fx = await sandboxForTest({ seed: 3, env: () => ({ EXTRA: '1' }) });
    expect(fx.env).toEqual({ ...fx.home.env, ...fx.sb.env, EXTRA: '1' });
    const res = await fetch(`${fx.sb.url}/open/forms/${fx.sb.formId}/submissions`, { headers: { authorization: `Bearer ${fx.sb.tokens.all}` } });
    expect(await res.json()).toHaveLength(3);
    seen = { home: fx.home.dir, work: fx.work, url: fx.sb.url };
  });
  it('stopped it when that test ended: the sandbox closed, the home and work dir removed', async () => {
    expect(seen).toBeDefined();
    expect(existsSync(seen!.home) || existsSync(seen!.work)).toBe(false);
    await expect(fetch(seen!.url)).rejects.toThrow();
  });
});

describe('sandboxFixture', () => {
  it('a sandbox that fails to start after the home was made: start throws and the home is gone', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    const tmp = mkdtempSync(join(tmpdir(), 'formctl-fixture-test-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const fx = sandboxFixture({ port });
      await expect(fx.start()).rejects.toThrow(/is in use/);
      expect(readdirSync(tmp)).toEqual([]);
      expect(() => fx.sb).toThrow('before the fixture started');
      await fx.stop();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(tmp, { recursive: true, force: true });
      await new Promise((r) => busy.close(r));
    }
  });

  it('a stop while the start is under way (a timed-out hook) closes the sandbox once it is up', async () => {
    const fx = sandboxFixture({ seed: 0 });
    const starting = fx.start();
    await fx.stop();
    await starting;
    expect(() => fx.env).toThrow('before the fixture started');
  });
});
