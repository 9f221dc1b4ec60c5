import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

export interface TestSandbox extends SandboxHandle {
  /** Env for runFormctl: base URL and the all-abilities token. */
  env: NodeJS.ProcessEnv;
}

/** Starts the in-process sandbox on a free port; the rate limit is off unless the test sets one. */
export async function startTestSandbox(opts: SandboxOptions = {}): Promise<TestSandbox> {
  const h = await startSandbox({ port: 0, rateLimit: 0, ...opts });
  return Object.assign(h, { env: { FORMCTL_BASE_URL: h.url, FORMCTL_TOKEN: h.tokens.all } });
}
