import { spawnTracked as spawn } from '../helpers/processes.js';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, frozenClockEnv, runFormctl } from '../helpers/cli.js';
import { startStubServer } from '../helpers/http.js';

const PRELOAD = fileURLToPath(new URL('./fixtures/load-log.mjs', import.meta.url));
const BUILTINS_LOG = fileURLToPath(new URL('./fixtures/builtins-log.cjs', import.meta.url));
const HEAVY = ['undici', 'conf', 'chalk', 'ora', '@inquirer', 'ajv', 'cli-table3', 'jq-wasm', 'proper-lockfile', 'graceful-fs', 'lockfile'];

/** Runs the built binary with a preload that logs every module it resolves; returns the set. */
async function modulesLoadedBy(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; modules: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'formctl-loadlog-'));
  const log = join(dir, 'modules.log');
  try {
    const child = spawn(process.execPath, ['--import', PRELOAD, BIN, ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NO_COLOR: '1',
        HOME: dir,
        FORMCTL_CONFIG_DIR: join(dir, 'config'),
        FORMCTL_CACHE_DIR: join(dir, 'cache'),
        FORMCTL_LOAD_LOG: log,
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    const modules = existsSync(log) ? [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))] : [];
    return { code, stdout, modules };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A service that answers every request with one workspace of that name. */
const workspacesStub = (name: string) =>
  startStubServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify([{ id: 1, name, icon: null, is_readonly: false }]));
  });

// undici and proper-lockfile are bundled into files of their own (dist/cli/undici.cjs,
// dist/cli/lockfile.cjs), the others stay in node_modules.
const heavyIn = (modules: string[]) => modules.filter((m) => HEAVY.some((h) => m.includes(`/node_modules/${h}/`) || m.endsWith(`/dist/cli/${h}.cjs`)));

describe('startup loads nothing heavy', () => {
  it.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'main.cjs')))('--version answers from the shim alone', async () => {
    const r = await modulesLoadedBy(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    // Logged once by the ESM hooks (file URL) and once by the CommonJS loader (path): normalise.
    const files = new Set(r.modules.filter((m) => !m.startsWith('node:') && !m.startsWith('internal:')).map((m) => m.replace(/^file:\/\//, '')));
    expect([...files]).toEqual([BIN]);
  });

  it.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'main.cjs')))('--help and `workspace --help` load no undici, conf, chalk, ora or inquirer', async () => {
    // `formctl --help` itself is answered from dist/root-help.txt (see below); `formctl help` runs the CLI.
    for (const args of [['help'], ['workspace', '--help']]) {
      const r = await modulesLoadedBy(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Usage: formctl');
      // The log works: it saw the CLI itself, one file (scripts/build.mjs), and not its undici.
      expect(r.modules.some((m) => m.includes('/dist/cli/main.cjs'))).toBe(true);
      expect(r.modules.filter((m) => m.includes('/dist/cli/') && !m.includes('/dist/cli/main.cjs'))).toEqual([]);
      expect(heavyIn(r.modules)).toEqual([]);
    }
  });

  it.skipIf(!existsSync(join(ROOT, 'dist', 'root-help.txt')))(
    '`--help`, `-h` and no arguments print the root help the CLI renders, without loading it',
    async () => {
      const full = await modulesLoadedBy(['help']);
      expect(full.stdout).toMatch(/^Usage: formctl \[options\] \[command\]\n/);
      for (const args of [['--help'], ['-h'], []]) {
        const fast = await modulesLoadedBy(args);
        expect(fast.code).toBe(0);
        expect(fast.stdout).toBe(full.stdout);
        expect(fast.modules.some((m) => m.includes('/dist/'))).toBe(false);
      }
    },
  );

  it.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'main.cjs')))(
    "a one-request command loads no undici, neither the package nor Node's own (its fetch), and no ES module; a proxy variable loads the package",
    async () => {
      const server = await workspacesStub('A');
      try {
        const env = { FORMCTL_BASE_URL: server.url, FORMCTL_TOKEN: 'fsk_t' };
        const direct = await modulesLoadedBy(['workspace', 'list', '--json', 'id'], env);
        expect([direct.code, direct.stdout]).toEqual([0, '[\n  {"id":1}\n]\n']);
        expect(heavyIn(direct.modules)).toEqual([]);
        // The log sees Node's internals (node:http's), and not the undici behind Node's fetch.
        expect(direct.modules).toContain('internal:_http_client');
        expect(direct.modules.filter((m) => m.startsWith('internal:') && m.includes('undici'))).toEqual([]);
        // The CLI is CommonJS (docs/performance.md): it ran from dist/cli/ by require() alone, and
        // nothing of dist/ went through Node's ESM loader (whose hooks log file URLs).
        expect(direct.modules.some((m) => m.startsWith('/') && m.includes('/dist/cli/main.cjs'))).toBe(true);
        expect(direct.modules.filter((m) => m.startsWith('file:') && m.includes('/dist/'))).toEqual([]);
        // The rate budget's file name and its temp file's need no node:crypto (~3 ms of CPU to load):
        // a key made in JavaScript (src/name-key.ts) and Math.random (docs/performance.md).
        expect(direct.modules).not.toContain('internal:crypto');
        // jq (WebAssembly) is loaded only for --jq.
        const filtered = await modulesLoadedBy(['workspace', 'list', '--jq', '.[0].name'], env);
        expect([filtered.code, filtered.stdout]).toEqual([0, 'A\n']);
        expect(heavyIn(filtered.modules).some((m) => m.includes('/node_modules/jq-wasm/'))).toBe(true);
        // NO_PROXY=* still sends it direct, but the proxy agent (the undici package) is what decides.
        const proxied = await modulesLoadedBy(['workspace', 'list', '--json', 'id'], { ...env, HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '*' });
        expect([proxied.code, proxied.stdout]).toEqual([0, '[\n  {"id":1}\n]\n']);
        expect(heavyIn(proxied.modules).some((m) => m.endsWith('/dist/cli/undici.cjs'))).toBe(true);
      } finally {
        await server.close();
      }
    },
  );

  it.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'lockfile.cjs')))(
    "near the rate limit, two runs at once take the budget's lock from dist/cli/lockfile.cjs: no ES module, nothing of proper-lockfile from node_modules, no fs streams; the budget counts both",
    async () => {
      // X-RateLimit-Remaining 10 of 100: the budget is not calm, so every change to it is made under the lock (src/api/ratelimit.ts).
      const server = await startStubServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '10' });
        res.end(JSON.stringify([{ id: 1, name: 'A', icon: null, is_readonly: false }]));
      });
      const dir = mkdtempSync(join(tmpdir(), 'formctl-lockload-'));
      try {
        // One cache directory (the budget's file) for every run, at one instant (the budget's minute is the test's).
        const env = { FORMCTL_BASE_URL: server.url, FORMCTL_TOKEN: 'fsk_t', FORMCTL_CACHE_DIR: join(dir, 'cache'), ...frozenClockEnv(Date.now()) };
        // The first run of a token learns the limit: its write is made under the lock too.
        const first = await modulesLoadedBy(['workspace', 'list', '--json', 'id'], env);
        expect([first.code, first.stdout]).toEqual([0, '[\n  {"id":1}\n]\n']);
        const both = await Promise.all([0, 1].map(() => modulesLoadedBy(['workspace', 'list', '--json', 'id'], env)));
        for (const r of [first, ...both]) {
          expect([r.code, r.stdout]).toEqual([0, '[\n  {"id":1}\n]\n']);
          // The lock's code ran from the build's file, compiled by the code cache loader (absolute path, no file: URL)...
          expect(r.modules.filter((m) => m.includes('/dist/cli/'))).toEqual([join(ROOT, 'dist', 'cli', 'main.cjs'), join(ROOT, 'dist', 'cli', 'lockfile.cjs')]);
          // ...not from node_modules (nor its dependencies), and nothing went through dist/cli/import.cjs.
          expect(r.modules.filter((m) => ['proper-lockfile', 'graceful-fs', 'signal-exit', 'retry'].some((p) => m.includes(`/node_modules/${p}/`)))).toEqual(
            [],
          );
        }
        // The three sends counted in one minute, and no lock left behind.
        const budgets = join(dir, 'cache', 'ratelimit');
        const files = readdirSync(budgets);
        expect(files).toHaveLength(1);
        const state = JSON.parse(readFileSync(join(budgets, files[0]!), 'utf8')) as { limit: number; remaining: number; sent: Array<[number, number]> };
        expect([state.limit, state.remaining, state.sent.reduce((n, [, count]) => n + count, 0)]).toEqual([100, 10, 3]);
        // Without the ESM hooks of the preload and of the frozen clock, which load Node's fs streams
        // themselves: the lock does not (graceful-fs would, reading fs.ReadStream; scripts/build.mjs).
        // A token's first run, which takes the lock whatever the clock says.
        const log = join(dir, 'builtins.log');
        const child = spawn(process.execPath, ['-r', BUILTINS_LOG, BIN, 'workspace', 'list', '--json', 'id'], {
          env: {
            PATH: process.env.PATH,
            HOME: dir,
            FORMCTL_BASE_URL: server.url,
            FORMCTL_TOKEN: 'fsk_t',
            FORMCTL_CACHE_DIR: join(dir, 'cache2'),
            FORMCTL_BUILTINS_LOG: log,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        expect([await new Promise<number | null>((r) => child.on('close', r)), stdout]).toEqual([0, '[\n  {"id":1}\n]\n']);
        const loaded = readFileSync(log, 'utf8').split('\n');
        expect(loaded).toContain('assert'); // The log works: signal-exit's, loaded by the lock.
        expect(loaded.filter((m) => ['internal/fs/streams', 'internal/fs/promises'].includes(m))).toEqual([]);
        expect(readdirSync(join(dir, 'cache2', 'ratelimit'))).toHaveLength(1);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await server.close();
      }
    },
  );

  it.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'main.cjs')))(
    'a one-request command into a pipe loads no built-in it does not use: node:zlib, node:tty, node:os, node:module, node:crypto',
    async () => {
      const server = await workspacesStub('A');
      const dir = mkdtempSync(join(tmpdir(), 'formctl-builtins-'));
      try {
        const log = join(dir, 'builtins.log');
        const env = {
          PATH: process.env.PATH,
          HOME: dir,
          FORMCTL_CACHE_DIR: join(dir, 'cache'),
          FORMCTL_BASE_URL: server.url,
          FORMCTL_TOKEN: 'fsk_t',
          FORMCTL_BUILTINS_LOG: log,
        };
        // The first run writes the code cache (and the rate budget's first file), the second is the usual one.
        for (const run of ['first', 'warm']) {
          rmSync(log, { force: true });
          const child = spawn(process.execPath, ['-r', BUILTINS_LOG, BIN, 'workspace', 'list', '--json', 'id'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
          let stdout = '';
          child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
          const code = await new Promise<number | null>((r) => child.on('close', r));
          expect([run, code, stdout]).toEqual([run, 0, '[\n  {"id":1}\n]\n']);
          const loaded = readFileSync(log, 'utf8').split('\n');
          // The log works: it sees what the request needs.
          expect(loaded).toContain('http');
          // The code cache is checked by its file's time, not a checksum (node:zlib); whether stdin is a
          // terminal is asked only by a command that wants to know (node:tty); $HOME names the
          // directories (node:os); Node's compile cache is turned on only for a package's import (node:module).
          expect([run, loaded.filter((m) => ['zlib', 'tty', 'os', 'module', 'crypto'].includes(m))]).toEqual([run, []]);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await server.close();
      }
    },
  );

  it.skipIf(!existsSync(join(ROOT, 'dist', 'complete.cjs')))(
    'a Tab answered from the completion cache loads no hashing module, node:crypto or node:zlib, with a saved profile or a token in FORMCTL_TOKEN (keyed in JavaScript)',
    async () => {
      const server = await workspacesStub('Acme');
      const dir = mkdtempSync(join(tmpdir(), 'formctl-tabcrypto-'));
      try {
        const url = server.url;
        const home = { HOME: dir, FORMCTL_CONFIG_DIR: join(dir, 'config'), FORMCTL_CACHE_DIR: join(dir, 'cache') };
        const login = await runFormctl(['auth', 'login', '--with-token', '--base-url', url], { env: home, input: 'fsk_saved_profile_token\n' });
        expect(login.code).toBe(0);
        // The miss (the full CLI asks the service) and the hit at one instant: the entry is fresh however slow the machine.
        const tab = (extra: NodeJS.ProcessEnv = {}) =>
          modulesLoadedBy(['__complete', 'workspace', 'use', ''], { ...home, ...frozenClockEnv(Date.now()), ...extra });
        const crypto = (modules: string[]) => modules.includes('internal:crypto');
        const zlib = (modules: string[]) => modules.includes('internal:zlib');
        const miss = await tab();
        expect([miss.code, miss.stdout]).toEqual([0, '1\tAcme\n:0\n']);
        const hit = await tab();
        expect([hit.code, hit.stdout]).toEqual([0, '1\tAcme\n:0\n']);
        // Answered by bin/formctl.js (no CLI), and no hash: the log sees Node's built-ins (the shim's node:fs).
        expect(hit.modules.some((m) => m.includes('/dist/cli/'))).toBe(false);
        expect(hit.modules).toContain('internal:fs');
        expect(crypto(hit.modules)).toBe(false);
        expect(zlib(hit.modules)).toBe(false);
        // The entry names the request, holds no token, and is the one the hit read.
        const entries = readdirSync(join(dir, 'cache', 'completion'));
        expect(entries).toEqual(['v2.p.-.workspace.-.-.json']);
        expect(readFileSync(join(dir, 'cache', 'completion', entries[0]!), 'utf8')).not.toContain('fsk_saved_profile_token');
        // A token from the environment is keyed into the entry's name (src/name-key.ts: no module loaded), never written.
        const envToken = { FORMCTL_TOKEN: 'fsk_env_token_1', FORMCTL_BASE_URL: url };
        expect((await tab(envToken)).stdout).toBe('1\tAcme\n:0\n');
        const envHit = await tab(envToken);
        expect(envHit.stdout).toBe('1\tAcme\n:0\n');
        expect(envHit.modules.some((m) => m.includes('/dist/cli/'))).toBe(false);
        expect(zlib(envHit.modules)).toBe(false);
        expect(crypto(envHit.modules)).toBe(false);
        for (const entry of readdirSync(join(dir, 'cache', 'completion')))
          expect(readFileSync(join(dir, 'cache', 'completion', entry), 'utf8')).not.toContain('fsk_env_token_1');
        // Each has its own entry: the profile's is still served, without a request.
        expect(readdirSync(join(dir, 'cache', 'completion'))).toHaveLength(2);
        const again = await tab();
        expect([crypto(again.modules), zlib(again.modules)]).toEqual([false, false]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await server.close();
      }
    },
  );
});
