import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';

// Bad local input is exit 2, said before anything else: a base URL no request
// can go to was reported as "the token was saved for another host" (exit 4). (A --ready-file in a
// missing directory: sandbox-ready-file.test.ts.)
let home: ReturnType<typeof tempHome>;
beforeAll(() => {
  home = tempHome();
});
afterAll(() => home.cleanup());

describe('a base URL that is not an http(s) URL', () => {
  for (const url of ['127.0.0.1:53321', 'ftp://example.com/api', 'javascript:alert(1)', 'not a url']) {
    it(`FORMCTL_BASE_URL=${url} is exit 2 naming it, with or without a token`, async () => {
      for (const [token, args] of [
        [{ FORMCTL_TOKEN: 'tok-123456' }, ['workspace', 'list']],
        [{}, ['workspace', 'list']],
        [{}, ['auth', 'status']],
        // No workspace given: the base URL is still what is reported first.
        [{ FORMCTL_TOKEN: 'tok-123456' }, ['form', 'list']],
      ] as const) {
        const r = await runFormctl([...args], { env: { ...home.env, ...token, FORMCTL_BASE_URL: url } });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/^error: (Invalid base URL|Unsupported base URL scheme).*\(from FORMCTL_BASE_URL\)\.$/m);
        expect(r.stderr).toContain('hint: Set FORMCTL_BASE_URL to a full http(s) URL');
      }
    });
  }

  it('a base_url saved in the profile (a hand-edited config) is exit 2 too, and config set can repair it', async () => {
    const own = tempHome();
    try {
      const { writeFileSync, mkdirSync } = await import('node:fs');
      mkdirSync(own.dir, { recursive: true });
      const cfgDir = own.env.FORMCTL_CONFIG_DIR!;
      mkdirSync(cfgDir, { recursive: true });
      writeFileSync(
        join(cfgDir, 'config.json'),
        JSON.stringify({ currentProfile: 'default', profiles: { default: { baseUrl: 'ftp://files.example.com', token: 'tok-123456', tokenOrigin: 'null' } } }),
      );
      const r = await runFormctl(['workspace', 'list'], { env: own.env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('(from the base_url saved in profile "default")');
      expect(r.stderr).toContain('hint: Fix it: formctl --profile default config set base_url');
      const fixed = await runFormctl(['config', 'set', 'base_url', 'http://127.0.0.1:9'], { env: own.env });
      expect(fixed.code, fixed.stderr).toBe(0);
    } finally {
      own.cleanup();
    }
  });
});
