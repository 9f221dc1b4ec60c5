import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { sandboxForTest, useSandboxFixture } from '../helpers/fixture.js';
import { type StubServer, json, startStubServer } from '../helpers/http.js';

// A home of its own for each test: each logs in or writes a profile.
const fx = useSandboxFixture({ homePerTest: true });
let other: StubServer;
beforeAll(async () => {
  // Another host: whatever it receives must carry no Authorization header.
  other = await startStubServer((_req, res) => json(res, 200, { data: [] }));
});
afterAll(async () => {
  await other.close();
});

describe('a token stays with its host', () => {
  it('FORMCTL_BASE_URL or `config set base_url` pointing elsewhere sends the saved token nowhere: exit 4 with the login to run', async () => {
    const login = await runFormctl(['auth', 'login', '--base-url', fx.sb.url, '--with-token'], { env: fx.home.env, input: fx.sb.tokens.all });
    expect(login.code).toBe(0);
    const saved = JSON.parse(readFileSync(join(fx.home.env.FORMCTL_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(saved.profiles.default.tokenOrigin).toBe(new URL(fx.sb.url).origin);

    const viaEnv = await runFormctl(['api', '/open/workspaces'], { env: { ...fx.home.env, FORMCTL_BASE_URL: other.url } });
    expect(viaEnv.code).toBe(4);
    expect(viaEnv.stderr).toContain(`was saved for ${new URL(fx.sb.url).origin}`);
    expect(viaEnv.stderr).toContain(`formctl auth login --base-url ${other.url}`);
    expect(viaEnv.stderr).not.toContain(fx.sb.tokens.all);

    const set = await runFormctl(['config', 'set', 'base_url', other.url], { env: fx.home.env });
    expect(set.code).toBe(0);
    const viaConfig = await runFormctl(['workspace', 'list'], { env: fx.home.env });
    expect(viaConfig.code).toBe(4);
    expect(viaConfig.stderr).toContain(`formctl auth login --base-url ${other.url}`);
    const status = await runFormctl(['auth', 'status', '--json', 'token_source,valid'], { env: fx.home.env });
    expect([status.code, JSON.parse(status.stdout)]).toEqual([4, { token_source: 'none', valid: false }]);
    const token = await runFormctl(['auth', 'token'], { env: fx.home.env });
    expect([token.code, token.stdout]).toEqual([4, '']);

    // Back on its own host, the token works again; FORMCTL_TOKEN is the explicit way to reach the other one.
    expect((await runFormctl(['config', 'set', 'base_url', fx.sb.url], { env: fx.home.env })).code).toBe(0);
    expect((await runFormctl(['workspace', 'list'], { env: fx.home.env })).code).toBe(0);
    const explicit = await runFormctl(['api', '/open/workspaces'], { env: { ...fx.home.env, FORMCTL_BASE_URL: other.url, FORMCTL_TOKEN: 'other_token' } });
    expect(explicit.code).toBe(0);
    expect(other.requests.map((r) => r.headers.authorization)).toEqual(['Bearer other_token']);
  });

  it('`config set base_url` to another host clears the default workspace (an id of the old service), and a later login there keeps none', async () => {
    const file = join(fx.home.env.FORMCTL_CONFIG_DIR!, 'config.json');
    expect((await runFormctl(['auth', 'login', '--base-url', fx.sb.url, '--with-token'], { env: fx.home.env, input: fx.sb.tokens.all })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.workspace).toBe(fx.sb.workspaceId);
    const set = await runFormctl(['config', 'set', 'base_url', other.url], { env: fx.home.env });
    expect(set.code).toBe(0);
    expect(set.stderr).toBe(
      `note: the default workspace (${fx.sb.workspaceId}) was one of ${new URL(fx.sb.url).origin}'s, so it is cleared; choose one on the new service: formctl workspace use <id>.\n`,
    );
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.workspace).toBeUndefined();
    // The same origin keeps it.
    expect((await runFormctl(['config', 'set', 'workspace', '5'], { env: fx.home.env })).code).toBe(0);
    const same = await runFormctl(['config', 'set', 'base_url', `${other.url}/`], { env: fx.home.env });
    expect([same.code, same.stderr]).toEqual([0, '']);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.workspace).toBe(5);
  });

  it("FORMCTL_BASE_URL to another host does not use the profile's default workspace (an id there names another one)", async () => {
    const { sb: b } = await sandboxForTest();
    expect((await runFormctl(['auth', 'login', '--base-url', fx.sb.url, '--with-token'], { env: fx.home.env, input: fx.sb.tokens.all })).code).toBe(0);
    const env = { ...fx.home.env, FORMCTL_BASE_URL: b.url, FORMCTL_TOKEN: b.tokens.all };
    const r = await runFormctl(['--debug', 'form', 'create', '--title', 'Where?', '--field', 'Name'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error: Missing --workspace: the default workspace of profile "default" (${fx.sb.workspaceId}) is one of ${new URL(fx.sb.url).origin}'s, and FORMCTL_BASE_URL points at ${new URL(b.url).origin}.\n`,
    );
    expect(r.stderr).not.toMatch(/^\[debug\] > POST /m);
    // Nor can that service's workspace become the profile's default.
    const use = await runFormctl(['workspace', 'use', String(b.workspaceId)], { env });
    expect(use.code).toBe(2);
    expect(use.stderr).toContain(
      `error: FORMCTL_BASE_URL (${new URL(b.url).origin}) is another service than profile "default"'s (${new URL(fx.sb.url).origin}), so its workspace cannot be that profile's default; nothing was saved.\n`,
    );
    // Named explicitly, it goes there.
    const w = await runFormctl(['form', 'create', '--title', 'Here', '--field', 'Name', '-w', String(b.workspaceId), '--json', 'title'], { env });
    expect([w.code, w.stdout]).toEqual([0, '{\n  "title": "Here"\n}\n']);
  });

  it('a profile saved before origins were recorded keeps its token bound to its own base URL', async () => {
    mkdirSync(fx.home.env.FORMCTL_CONFIG_DIR!, { recursive: true });
    const file = join(fx.home.env.FORMCTL_CONFIG_DIR!, 'config.json');
    writeFileSync(file, JSON.stringify({ currentProfile: 'old', profiles: { old: { baseUrl: fx.sb.url, token: fx.sb.tokens.all } } }), { mode: 0o600 });
    expect((await runFormctl(['workspace', 'list'], { env: fx.home.env })).code).toBe(0);
    const before = other.requests.length;
    expect((await runFormctl(['config', 'set', 'base_url', other.url], { env: fx.home.env })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.old.tokenOrigin).toBe(new URL(fx.sb.url).origin);
    const r = await runFormctl(['workspace', 'list'], { env: fx.home.env });
    expect(r.code).toBe(4);
    expect(other.requests.length).toBe(before);
  });
});
