// The shared stub service (test/helpers/stub-service.ts) fails a test on its own: a request it was not
// told about, and a route it was told about that nobody requested (gh's httpmock Registry.Verify).
import { describe, expect, it } from 'vitest';
import { stubRoutes, useStubService } from '../../helpers/stub-service.js';

const get = async (url: string) => (await fetch(url)).status;

describe('the stub service verifies itself', () => {
  it('passes when every route was requested as often as declared', async () => {
    const s = await stubRoutes([
      ['GET /a', [200, { ok: 1 }]],
      ['GET /b?page=2', [204]],
      ['GET /c', [200, []], { times: 2 }],
    ]);
    try {
      expect(await get(`${s.url}/a`)).toBe(200);
      expect(await get(`${s.url}/b?page=2`)).toBe(204);
      expect(await get(`${s.url}/c`)).toBe(200);
      expect(await get(`${s.url}/c`)).toBe(200);
      expect(() => s.verify()).not.toThrow();
    } finally {
      await s.close();
    }
  });

  it('fails on a request that matches no route, or a route already used up (answered 599)', async () => {
    const s = await stubRoutes([['GET /a', [200, {}]]]);
    try {
      expect(await get(`${s.url}/a`)).toBe(200);
      expect(await get(`${s.url}/a`)).toBe(599);
      expect(await get(`${s.url}/a?x=1`)).toBe(599);
      expect(() => s.verify()).toThrow('stub service:\n  unexpected request: GET /a\n  unexpected request: GET /a?x=1');
    } finally {
      await s.close();
    }
  });

  it('fails on a route registered and never requested, or requested fewer times than declared', async () => {
    const s = await stubRoutes([
      ['GET /a', [200, {}]],
      ['DELETE /b', [204]],
      ['GET /c', [200, {}], { times: 3 }],
    ]);
    try {
      await get(`${s.url}/a`);
      await get(`${s.url}/c`);
      expect(s.pending()).toEqual(['DELETE /b', 'GET /c', 'GET /c']);
      expect(() => s.verify()).toThrow(
        'stub service:\n  registered but never requested: DELETE /b\n  registered but never requested: GET /c\n  registered but never requested: GET /c',
      );
    } finally {
      await s.close();
    }
  });

  describe('useStubService', () => {
    const serve = useStubService();
    it('a second serve in one test verifies the first: an unused route there fails the test at once', async () => {
      await serve([['GET /never', [200, {}]]]);
      await expect(serve([['GET /a', [200, {}]]])).rejects.toThrow('registered but never requested: GET /never');
    });
    it('hands out a working stub whose verification runs after the test', async () => {
      const s = await serve([['GET /a', [200, { n: 1 }]]]);
      expect(await (await fetch(`${s.url}/a`)).json()).toEqual({ n: 1 });
    });
  });
});
