import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../../src/api/client.js';
import { resolveContext } from '../../../src/config/resolve.js';
import { ConfigStore } from '../../../src/config/store.js';
import type { Prompter } from '../../../src/io/prompter.js';

/** A config store in a fresh temp dir, plus context/apiFor built the way the Factory builds them. */
export async function testConfig(o: { env?: NodeJS.ProcessEnv; profile?: string } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'formctl-unit-'));
  const configDir = join(dir, 'config');
  const store = await ConfigStore.open(configDir);
  const env = o.env ?? {};
  const clients: ApiClient[] = [];
  return {
    dir,
    configDir,
    store,
    env,
    config: async () => store,
    context: async () => resolveContext(store, env, { profile: o.profile }),
    apiFor: (baseUrl: string, token: string) => {
      const c = new ApiClient({ baseUrl, token, userAgent: 'formctl-test', timeoutMs: 5_000, maxWaitMs: 0 });
      clients.push(c);
      return c;
    },
    async cleanup() {
      await Promise.all(clients.map((c) => c.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A prompter that answers from a script and records what it was asked; unexpected prompts fail. */
export function scriptedPrompter(answers: { password?: string[]; confirm?: boolean[]; input?: string[] } = {}) {
  const asked: string[] = [];
  const next = <T>(list: T[] | undefined, kind: string, message: string): T => {
    asked.push(`${kind}: ${message}`);
    if (!list || list.length === 0) throw new Error(`unexpected ${kind} prompt: ${message}`);
    return list.shift()!;
  };
  const prompter: Prompter = {
    input: async (q) => next(answers.input, 'input', q.message),
    password: async (q) => next(answers.password, 'password', q.message),
    confirm: async (q) => next(answers.confirm, 'confirm', q.message),
    select: async (q) => {
      throw new Error(`unexpected select: ${q.message}`);
    },
    search: async (q) => {
      throw new Error(`unexpected search: ${q.message}`);
    },
  };
  return { prompter, asked };
}
