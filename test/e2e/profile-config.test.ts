import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// Profiles as the built binary reads, resolves and names them. A home of its own for each test.
const fx = useSandboxFixture({ homePerTest: true });

function configFile(): string {
  return join(fx.home.env.FORMCTL_CONFIG_DIR!, 'config.json');
}

function readConfig(): unknown {
  return JSON.parse(readFileSync(configFile(), 'utf8'));
}

/** Logs profile `name` in to the test sandbox. */
async function login(name: string): Promise<void> {
  const r = await runFormctl(['--profile', name, 'auth', 'login', '--base-url', fx.sb.url, '--with-token'], { env: fx.home.env, input: fx.sb.tokens.all });
  expect([r.code, r.stderr]).toEqual([0, expect.stringContaining('Logged in to')]);
}

describe('an empty profile name', () => {
  it("--profile '' is refused (exit 2) before anything is done; it logged the current profile out", async () => {
    await login('a');
    const before = readConfig();
    for (const args of [
      ['auth', 'logout'],
      ['auth', 'status'],
      ['config', 'set', 'workspace', '3'],
      ['workspace', 'list'],
    ]) {
      const r = await runFormctl(['--profile', '', ...args], { env: fx.home.env });
      expect([r.code, r.stdout, r.stderr], args.join(' ')).toEqual([
        2,
        '',
        'error: --profile "" cannot be a profile name.\n' +
          'hint: Use a name of letters, digits, ".", "_" and "-" that does not start with "-" (see `formctl profile list`).\n',
      ]);
    }
    expect(readConfig()).toEqual(before);
  });

  it('an empty FORMCTL_PROFILE is unset, as an empty FORMCTL_TOKEN or FORMCTL_BASE_URL is: the current profile is used', async () => {
    await login('a');
    const r = await runFormctl(['config', 'get', 'base_url'], { env: { ...fx.home.env, FORMCTL_PROFILE: '' } });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, `${fx.sb.url}\n`, '']);
    const s = await runFormctl(['auth', 'status', '--json', 'profile,valid'], { env: { ...fx.home.env, FORMCTL_PROFILE: '' } });
    expect([s.code, JSON.parse(s.stdout)]).toEqual([0, { profile: 'a', valid: true }]);
  });
});
