import { exportIdOf } from '../../src/sandbox/deployed.js';
import { type Flavor, type SandboxHandle, type SandboxOptions, type SandboxUser, startSandbox } from '../../src/sandbox/index.js';

export type { Flavor, SandboxUser } from '../../src/sandbox/index.js';

/** Both flavours, for `describe.each(FLAVORS)` over data-path tests. */
export { FLAVORS } from '../../src/service/flavors.js';

export interface TestSandbox extends SandboxHandle {
  /** Env for runFormctl: base URL and the admin's all-abilities token. */
  env: NodeJS.ProcessEnv;
  /** Env for runFormctl as another user (e.g. `sb.users[1]`, the seeded colleague bea@example.com). */
  envFor(user: SandboxUser): NodeJS.ProcessEnv;
}

/**
 * Starts the in-process sandbox on a free port; the rate limit is off unless the test sets one.
 * `flavor: 'deployed'` gives the deployed server's behaviour (docs/service.md).
 */
export async function startTestSandbox(opts: SandboxOptions = {}): Promise<TestSandbox> {
  const h = await startSandbox({ port: 0, rateLimit: 0, ...opts });
  const envFor = (user: SandboxUser): NodeJS.ProcessEnv => ({ FORMCTL_BASE_URL: h.url, FORMCTL_TOKEN: user.token });
  return Object.assign(h, { env: { FORMCTL_BASE_URL: h.url, FORMCTL_TOKEN: h.tokens.all }, envFor });
}

/**
 * The submission ids of an export CSV's rows (first column, header left out): the number the spec
 * flavour writes, or the id the deployed flavour's code stands for (exportIdCode, docs/service.md,
 * "Export"). Every row of a test's CSV is a simple line (no quoted line breaks).
 */
export function csvRowIds(text: string, flavor: Flavor = 'spec'): number[] {
  return text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => {
      const cell = l.split(',')[0]!;
      return flavor === 'deployed' ? (exportIdOf(cell) ?? Number.NaN) : Number(cell);
    });
}

/**
 * A stand-in for a started sandbox, for unit tests of `formctl sandbox` that inject `start`: the
 * fields the command prints (URL, flavour, tokens, users, workspace), and a close() that resolves,
 * unless `close` is given.
 */
export function fakeSandboxHandle(close: () => Promise<void> = () => Promise.resolve()): SandboxHandle {
  return {
    url: 'http://127.0.0.1:9',
    flavor: 'spec',
    tokens: { all: 'a', readonly: 'r', forms: 'f', noIntegrations: 'n' },
    users: [],
    workspaceId: 1,
    admin: {} as SandboxHandle['admin'],
    close,
  } as unknown as SandboxHandle;
}
