import { afterEach, beforeEach } from 'vitest';
import { runFormctl, tempHome } from './cli.js';
import { type CountingProxy, startCountingProxy } from './counting-proxy.js';
import { type Flavor, type TestSandbox, startTestSandbox } from './sandbox.js';

/**
 * For a describe block: a fresh sandbox of `flavor` (seed 3) behind a counting proxy for each test,
 * stopped after it on every path, and `counted`, which runs the built binary through the proxy and
 * returns its result with the requests it made (`GET /open/…`), for tests of how many requests a
 * command makes before it refuses (leave-requests.test.ts, member-guard-requests.test.ts).
 */
export function countedSandbox(flavor: Flavor) {
  let home: ReturnType<typeof tempHome> | undefined;
  let sb: TestSandbox | undefined;
  let proxy: CountingProxy | undefined;
  beforeEach(async () => {
    home = tempHome();
    sb = await startTestSandbox({ flavor, seed: 3 });
    proxy = await startCountingProxy(sb.url);
  });
  afterEach(async () => {
    await Promise.allSettled([proxy?.close(), sb?.close()]);
    home?.cleanup();
  });
  return {
    get sb(): TestSandbox {
      return sb!;
    },
    /** Runs formctl through the counting proxy (with the `all` token unless given); its result and the requests it made. */
    counted: async (args: string[], token = sb!.tokens.all) => {
      const before = proxy!.passed.length;
      const r = await runFormctl(args, { env: { ...home!.env, FORMCTL_BASE_URL: proxy!.url, FORMCTL_TOKEN: token } });
      return { ...r, requests: proxy!.passed.slice(before).map((p) => `${p.method} ${p.path}`) };
    },
  };
}
