import { afterEach, beforeEach } from 'vitest';
import { runFormctl } from './cli.js';
import { type CountingProxy, startCountingProxy } from './counting-proxy.js';
import { useSandboxFixture } from './fixture.js';
import type { Flavor, TestSandbox } from './sandbox.js';

/**
 * For a describe block: a fresh sandbox of `flavor` (seed 3) behind a counting proxy for each test,
 * stopped after it on every path, and `counted`, which runs the built binary through the proxy and
 * returns its result with the requests it made (`GET /open/…`), for tests of how many requests a
 * command makes before it refuses (leave-requests.test.ts, member-guard-requests.test.ts).
 */
export function countedSandbox(flavor: Flavor) {
  const fx = useSandboxFixture({ flavor, seed: 3, perTest: true });
  let proxy: CountingProxy | undefined;
  beforeEach(async () => {
    proxy = await startCountingProxy(fx.sb.url);
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });
  return {
    get sb(): TestSandbox {
      return fx.sb;
    },
    /** Runs formctl through the counting proxy (with the `all` token unless given); its result and the requests it made. */
    counted: async (args: string[], token = fx.sb.tokens.all) => {
      const before = proxy!.passed.length;
      const r = await runFormctl(args, { env: { ...fx.home.env, FORMCTL_BASE_URL: proxy!.url, FORMCTL_TOKEN: token } });
      return { ...r, requests: proxy!.passed.slice(before).map((p) => `${p.method} ${p.path}`) };
    },
  };
}
