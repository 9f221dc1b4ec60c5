// The Node 20 start path: bin/formctl.js runs dist/single.js through vm.Script with a V8 code cache
// in the cache directory (docs/performance.md). No timings here: only that the cache is written,
// used, refused when damaged or stale, and never changes what formctl prints.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, runFormctl } from '../helpers/cli.js';

const PRELOAD = join(ROOT, 'test', 'unit', 'api', 'fixtures', 'load-log.mjs');

const hasSingle = existsSync(join(ROOT, 'dist', 'single.js'));
// Node >= 22.1 uses the ESM build with Node's own compile cache instead.
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const singlePath = hasSingle && (major < 22 || (major === 22 && minor < 1));

let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-startup-'));
  env = { HOME: dir, FORMCTL_CONFIG_DIR: join(dir, 'config'), FORMCTL_STATE_DIR: join(dir, 'state'), FORMCTL_CACHE_DIR: join(dir, 'cache') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cacheFiles = () => {
  const d = join(dir, 'cache', 'code-cache');
  return existsSync(d) ? readdirSync(d).filter((n) => n.endsWith('.bin')).map((n) => join(d, n)) : [];
};
/** `formctl help` with the startup trace on: stdout, and the [startup] lines of stderr. */
async function help(extra: NodeJS.ProcessEnv = {}) {
  const r = await runFormctl(['help'], { env: { ...env, FORMCTL_STARTUP_TRACE: '1', ...extra } });
  expect(r.code).toBe(0);
  const trace = r.stderr.split('\n').filter((l) => l.startsWith('[startup] '));
  expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('[startup] '))).toEqual([]);
  return { stdout: r.stdout, trace: trace.join('\n') };
}

describe.skipIf(!singlePath)('startup code cache (Node < 22.1)', () => {
  it('a cold run writes the cache, a warm run uses it, and both print the same help as the ESM build', async () => {
    const esm = await runFormctl(['help'], { env: { ...env, FORMCTL_CODE_CACHE: '0' } });
    expect(esm.code).toBe(0);
    expect(cacheFiles()).toEqual([]);

    const cold = await help();
    expect(cold.trace).toMatch(/code cache absent/);
    expect(cold.trace).toMatch(/code cache written/);
    expect(cold.stdout).toBe(esm.stdout);
    const [file] = cacheFiles();
    expect(file).toMatch(/single-v[\d.]+-\w+-help\.bin$/);
    const written = readFileSync(file!);

    const warm = await help();
    expect(warm.trace).toMatch(/code cache used/);
    expect(warm.trace).not.toMatch(/written/);
    expect(warm.stdout).toBe(esm.stdout);
    expect(readFileSync(file!).equals(written)).toBe(true);
    // Without the trace variable, nothing on stderr.
    const quiet = await runFormctl(['help'], { env });
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(esm.stdout);
  });

  it('ignores and rewrites a corrupt cache: garbage, a damaged V8 payload, a cache from another build', async () => {
    await help();
    const [file] = cacheFiles();
    const good = readFileSync(file!);
    const damaged = Buffer.from(good);
    // Flip bytes inside V8's data (past our header): V8 on Node 20 would crash on this without its checksum check.
    for (let i = 0; i < 64; i++) damaged[Math.floor(good.length / 2) + i * 97] ^= 0xa5;
    const len = good.readUInt32LE(4);
    const otherBuild = Buffer.concat([good.subarray(0, 8), Buffer.from(good.subarray(8, 8 + len).toString().replace(/"key":"[0-9a-f]/, '"key":"_')), good.subarray(8 + len)]);
    for (const [bad, expected] of [
      [Buffer.from('not a cache at all'), /code cache ignored: bad magic/],
      [damaged, /code cache rejected/],
      [otherBuild, /code cache ignored: built from another/],
      [Buffer.alloc(0), /code cache ignored/],
    ] as const) {
      writeFileSync(file!, bad);
      const r = await help();
      expect(r.trace).toMatch(expected);
      expect(r.trace).toMatch(/code cache written/);
      expect(r.stdout).toContain('Usage: formctl');
      expect((await help()).trace).toMatch(/code cache used/);
    }
  });

  it('works when the cache directory cannot be written', async () => {
    // A cache "directory" below a regular file: ENOTDIR for everyone, root included.
    writeFileSync(join(dir, 'file'), '');
    const r1 = await help({ FORMCTL_CACHE_DIR: join(dir, 'file', 'cache') });
    expect(r1.stdout).toContain('Usage: formctl');
    expect(r1.trace).toMatch(/code cache not written/);
    const r2 = await runFormctl(['help', 'exit-codes'], { env: { ...env, FORMCTL_CACHE_DIR: join(dir, 'file', 'cache') } });
    expect(r2.code).toBe(0);
    expect(r2.stderr).toBe('');
  });

  it('concurrent cold runs leave one valid cache and no temporary files', async () => {
    const runs = await Promise.all(Array.from({ length: 4 }, () => help()));
    for (const r of runs) expect(r.stdout).toContain('Usage: formctl');
    const names = readdirSync(join(dir, 'cache', 'code-cache'));
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(cacheFiles()).toHaveLength(1);
    expect((await help()).trace).toMatch(/code cache used/);
  });

  it('keeps one cache per command group, and usage errors still exit 2', async () => {
    await help();
    const r = await runFormctl(['workspace', '--nope'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--nope'/);
    expect(cacheFiles().map((f) => f.replace(/.*-/, '')).sort()).toEqual(['help.bin', 'workspace.bin']);
  });

  it('`help` through dist/single.js loads no heavy dependency, no undici built-ins and no child_process', async () => {
    const log = join(dir, 'modules.log');
    const r = await runFormctl(['help'], { env: { ...env, NODE_OPTIONS: `--import ${PRELOAD}`, FORMCTL_LOAD_LOG: log } });
    expect(r.code).toBe(0);
    const modules = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    // The log works: commander's require of node:events went through it.
    expect(modules).toContain('node:events');
    const heavy = ['undici', 'conf', 'chalk', 'ora', '@inquirer', 'ajv', 'cli-table3'];
    expect(modules.filter((m) => heavy.some((h) => m.includes(`/node_modules/${h}/`)))).toEqual([]);
    expect(modules.filter((m) => ['node:http', 'node:http2', 'node:net', 'node:tls', 'node:child_process'].includes(m))).toEqual([]);
  });

  it('FORMCTL_CODE_CACHE=0 runs the ESM build and writes no cache', async () => {
    const r = await runFormctl(['help'], { env: { ...env, FORMCTL_CODE_CACHE: '0', FORMCTL_STARTUP_TRACE: '1' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(cacheFiles()).toEqual([]);
  });
});
