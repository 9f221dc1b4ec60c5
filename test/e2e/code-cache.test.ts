// The code cache loader (src/startup/code-cache.ts, built into bin/formctl.js), through the files of a
// small CommonJS "CLI" laid out as the build lays out its own, and through the real binary. No
// timings: whether V8 was offered a cache for each file and used it (test/e2e/fixtures/script-log.mjs
// logs that), what the cache files hold, and that the code runs the same with or without them.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { nameKey } from '../../src/name-key.js';

const SCRIPT_LOG = fileURLToPath(new URL('./fixtures/script-log.mjs', import.meta.url));
const built = existsSync(join(ROOT, 'dist', 'cli', 'main.cjs'));

// The loader as the build bundles it into bin/formctl.js (src/startup/bin.ts), in a file of its own
// for the fixture CLI below to require: the executable itself runs the real CLI when loaded.
const loaderDir = mkdtempSync(join(tmpdir(), 'formctl-loader-'));
const LOADER = join(loaderDir, 'load.cjs');
beforeAll(() => {
  buildSync({
    entryPoints: [join(ROOT, 'src', 'startup', 'code-cache.ts')],
    outfile: LOADER,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.18',
    logLevel: 'warning',
  });
});
afterAll(() => rmSync(loaderDir, { recursive: true, force: true }));

let dir: string;
let cli: string;
let cache: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-codecache-'));
  cli = join(dir, 'dist', 'cli');
  cache = join(dir, 'cache');
  mkdirSync(join(cli, 'chunks'), { recursive: true });
  // An entry that requires a chunk, which requires the entry back (a circle, as split chunks may
  // have), a built-in, and a module through import.cjs (the build's one import()).
  writeFileSync(
    join(cli, 'main.cjs'),
    [
      `const path = require('node:path');`,
      `exports.early = 'set before the chunk loads';`,
      `const chunk = require('./chunks/chunk-A.cjs');`,
      `exports.run = (word) => ({ word: chunk.shout(word), base: path.basename(__filename), dir: path.basename(__dirname), same: this === module.exports });`,
      `exports.imported = () => require('./import.cjs')('node:os').then((os) => typeof os.cpus);`,
      `exports.fail = () => {`,
      `  throw new Error('thrown on line 7');`,
      `};`,
      '',
    ].join('\n'),
  );
  writeChunk('toUpperCase');
  writeFileSync(join(cli, 'import.cjs'), `module.exports = (specifier) => import(specifier);\n`);
  writeFileSync(
    join(dir, 'run.cjs'),
    [
      `const main = require(${JSON.stringify(LOADER)}).loadWithCodeCache(${JSON.stringify(join(cli, 'main.cjs'))}, process.env, require);`,
      // As the CLI does (src/program.ts): the group it loaded, here the first argument when there is one.
      // The loader reads the command word from argv itself (src/code-cache-group.ts, groupWord).
      `if (process.argv[2]) globalThis[Symbol.for('formctl.codeCacheGroup')] = process.argv[2];`,
      `let line;`,
      `try { main.fail(); } catch (err) { line = /main\\.cjs:(\\d+)/.exec(err.stack)[1]; }`,
      `main.imported().then((cpus) => console.log(JSON.stringify({ ...main.run('hi'), cpus, line })));`,
      '',
    ].join('\n'),
  );
});
afterEach(() => {
  try {
    chmodSync(cache, 0o700);
  } catch {
    // Not made read-only by this test.
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The chunk, calling `method` on the word; its source length stays the same for any 11-letter method. */
function writeChunk(method: string): void {
  writeFileSync(
    join(cli, 'chunks', 'chunk-A.cjs'),
    [`const main = require('../main.cjs');`, `exports.shout = (w) => w.${method}() + ' / ' + main.early;`, ''].join('\n'),
  );
}

/** Runs the fixture CLI for `args` with the loader; what it printed, and the loader's log of each file. */
function run(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; out: Record<string, unknown>; log: string[]; stderr: string } {
  const log = join(dir, `log-${Math.random().toString(36).slice(2)}.txt`);
  const r = spawnSync(process.execPath, ['--import', SCRIPT_LOG, join(dir, 'run.cjs'), ...args], {
    env: { PATH: process.env.PATH, HOME: dir, FORMCTL_CACHE_DIR: cache, FORMCTL_SCRIPT_LOG: log, ...env },
    encoding: 'utf8',
  });
  return {
    status: r.status,
    out: r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>) : {},
    log: existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [],
    stderr: r.stderr,
  };
}

/** The directory the loader keeps this install's caches in, and the cache files there. */
function cacheFiles(): { at: string; names: string[] } {
  const versions = join(cache, 'code');
  const [version] = readdirSync(versions);
  const [install] = readdirSync(join(versions, version!));
  const at = join(versions, version!, install!);
  return { at, names: readdirSync(at).sort() };
}

/** The modification time the loader gives the cache files it writes (src/startup/code-cache.ts). */
const SEALED_MS = 1_000_000_000_000;

/** The cache file of `file` for runs of a command word (undefined: runs that named no command group). */
const cacheOf = (file: string, word?: string): string => `${file}.${word === undefined ? '-' : nameKey(word)}.v8`;
const LIST = [cacheOf('chunk-A.cjs', 'list'), cacheOf('main.cjs', 'list')];

const EXPECTED = { word: 'HI / set before the chunk loads', base: 'main.cjs', dir: 'cli', same: true, cpus: 'function', line: '7' };

describe.skipIf(!built)('the code cache loader', () => {
  it('runs CommonJS as Node does, writes a cache per file after the run, and V8 takes it on the next run', () => {
    const cold = run(['list']);
    expect([cold.status, cold.stderr]).toEqual([0, '']);
    expect(cold.out).toEqual(EXPECTED);
    // import.cjs is Node's to compile (its import() needs Node's loader): never through vm.Script.
    expect(cold.log).toEqual(['main.cjs:none', 'chunk-A.cjs:none']);
    const { at, names } = cacheFiles();
    expect(names).toEqual(LIST);
    expect(statSync(at).mode & 0o777).toBe(0o700);
    for (const name of names) {
      expect(statSync(join(at, name)).mode & 0o777).toBe(0o600);
      // A header names what the code was made from and its length; the file keeps the modification
      // time its run sealed it with.
      expect(readFileSync(join(at, name), 'latin1').split('\n')[0]).toMatch(/^formctl-code-cache\/4 \d+:\d+:\d+:[\d.]+ \d+$/);
      expect(statSync(join(at, name)).mtimeMs).toBe(SEALED_MS);
    }
    const inodes = names.map((n) => statSync(join(at, n)).ino);
    const warm = run(['list', '--json']);
    expect(warm.out).toEqual(EXPECTED);
    expect(warm.log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
    // The same command word again: its cache is taken, nothing is written again.
    expect(names.map((n) => statSync(join(at, n)).ino)).toEqual(inodes);
  });

  it('each command word has caches of its own; a word without them starts from those of runs that named no group, which a run recording no group writes', () => {
    run(['list']);
    // A run that records no group (the CLI's help topics, a mistyped command): the "-" caches.
    const none = run([]);
    expect(none.log).toEqual(['main.cjs:none', 'chunk-A.cjs:none']);
    expect(cacheFiles().names).toEqual([cacheOf('chunk-A.cjs'), ...LIST.slice(0, 1), cacheOf('main.cjs'), ...LIST.slice(1)].sort());
    const inodes = () => cacheFiles().names.map((n) => statSync(join(cacheFiles().at, n)).ino);
    const before = inodes();
    // The list caches are untouched by the other runs, and taken by a run of list.
    expect(run([]).log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
    expect(run(['list']).log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
    expect(inodes()).toEqual(before);
    // A new word starts from the "-" caches and writes its own at exit; then takes its own.
    expect(run(['get', '5']).log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
    expect(cacheFiles().names).toContain(cacheOf('main.cjs', 'get'));
    const after = inodes();
    expect(run(['get', '6']).log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
    expect(inodes()).toEqual(after);
  });

  it('the real CLI: the caches of a command are named by its group word, never by an option value before it; help topics use the "-" caches', () => {
    const env = { PATH: process.env.PATH, HOME: dir, FORMCTL_CONFIG_DIR: join(dir, 'config'), FORMCTL_CACHE_DIR: cache, NO_COLOR: '1' };
    // --profile's value comes first; the profile does not exist (exit 2), the group is still known.
    spawnSync(process.execPath, [BIN, '--profile', 'secret-name', 'workspace', 'list'], { env, encoding: 'utf8' });
    spawnSync(process.execPath, [BIN, 'help', 'exit-codes'], { env, encoding: 'utf8' });
    // A word that is no command (a token pasted in the wrong place): no cache named by it.
    spawnSync(process.execPath, [BIN, 'fsk_not-a-command'], { env, encoding: 'utf8' });
    const { at, names } = cacheFiles();
    expect(names).toEqual([cacheOf('main.cjs'), cacheOf('main.cjs', 'workspace')].sort());
    for (const name of names) expect(readFileSync(join(at, name), 'latin1').split('\n')[0]).not.toMatch(/secret-name|fsk_/);
  });

  it('a cache changed after its run wrote it is never offered to V8 (its modification time is not the sealed one); a run that died while it used the caches (its mark left, its process gone) takes them all out of use', () => {
    run(['list']);
    const { at } = cacheFiles();
    // A cache whose code is damaged (its header intact) may make V8 end the process at once.
    const file = join(at, cacheOf('main.cjs', 'list'));
    const bytes = readFileSync(file);
    bytes.fill(0, bytes.length >> 1, (bytes.length >> 1) + 64);
    writeFileSync(file, bytes);
    // Written to since its run sealed it: it is not offered, and is made again.
    const damaged = run(['list']);
    expect([damaged.status, damaged.out, damaged.log]).toEqual([0, EXPECTED, ['main.cjs:none', 'chunk-A.cjs:used']]);
    expect(run(['list']).log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
    // Damage anywhere in the code, a byte at a time, written as any tool writes: never offered.
    const good = readFileSync(file);
    for (const at of [good.indexOf(10) + 1, good.length >> 2, good.length - 1]) {
      const bad = Buffer.from(good);
      bad[at] = bad[at]! ^ 0x20;
      writeFileSync(file, bad);
      const r = run(['list']);
      expect([r.status, r.out, r.log[0]]).toEqual([0, EXPECTED, 'main.cjs:none']);
    }
    // Its content untouched but its time changed (touch, a copy): not offered either, and made again.
    const now = new Date();
    utimesSync(file, now, now);
    expect(run(['list']).log[0]).toBe('main.cjs:none');
    expect(run(['list']).log[0]).toBe('main.cjs:used');
    // A mark left by a process that is gone: the caches are not offered, and are made again.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(join(at, `running.${gone}`), '');
    const after = run(['list']);
    expect([after.status, after.out, after.log]).toEqual([0, EXPECTED, ['main.cjs:none', 'chunk-A.cjs:none']]);
    expect(cacheFiles().names).toEqual(LIST);
    expect(run(['list']).log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
  });

  it('other V8 flags (NODE_OPTIONS, node --…) keep caches of their own; with source maps on, Node loads the CLI itself', () => {
    run(['list']);
    const flags = { NODE_OPTIONS: '--max-old-space-size=512' };
    expect(run(['list'], flags).log).toEqual(['main.cjs:none', 'chunk-A.cjs:none']);
    expect(run(['list'], flags).log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
    expect(run(['list']).log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
    expect(readdirSync(join(cache, 'code'))).toHaveLength(2);
    const mapped = run(['list'], { NODE_OPTIONS: '--enable-source-maps' });
    expect([mapped.status, mapped.out, mapped.log]).toEqual([0, EXPECTED, []]);
  });

  it("pruning keeps this install's caches however old their directories, and removes a dead run's temporary file", () => {
    run(['list']);
    const { at } = cacheFiles();
    const old = new Date(Date.now() - 40 * 86_400_000);
    utimesSync(at, old, old);
    utimesSync(dirname(at), old, old);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(join(at, `${cacheOf('main.cjs', 'get')}.${gone}.tmp`), 'half');
    run(['get']);
    expect(cacheFiles().names).toEqual([...LIST, cacheOf('chunk-A.cjs', 'get'), cacheOf('main.cjs', 'get')].sort());
  });

  it('a changed file is never run with the code of the old one, even with the same length; its cache is made again', () => {
    expect(run(['list']).out).toEqual(EXPECTED);
    writeChunk('toLowerCase');
    const changed = run(['list']);
    expect(changed.out).toEqual({ ...EXPECTED, word: 'hi / set before the chunk loads' });
    expect(changed.log).toEqual(['main.cjs:used', 'chunk-A.cjs:none']);
    expect(run(['list']).log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
  });

  it('a cache V8 refuses (its header right, its code not from V8) is made again; a cache without its header is not offered', () => {
    run(['list']);
    const { at } = cacheFiles();
    const file = join(at, cacheOf('main.cjs', 'list'));
    const [magic, id, size] = readFileSync(file, 'latin1').split('\n')[0]!.split(' ');
    const junk = Buffer.alloc(Number(size), 7);
    writeFileSync(file, Buffer.concat([Buffer.from(`${magic} ${id} ${size}\n`, 'latin1'), junk]));
    // Sealed as a run seals what it writes: V8 is offered it, and refuses it.
    utimesSync(file, new Date(SEALED_MS), new Date(SEALED_MS));
    writeFileSync(join(at, cacheOf('chunk-A.cjs', 'list')), 'not a cache');
    const damaged = run(['list']);
    expect(damaged.out).toEqual(EXPECTED);
    expect(damaged.log).toEqual(['main.cjs:rejected', 'chunk-A.cjs:none']);
    expect(run(['list']).log).toEqual(['main.cjs:used', 'chunk-A.cjs:used']);
  });

  it('caches of files the build no longer has are removed when caches are written; NODE_DISABLE_COMPILE_CACHE turns it all off', () => {
    run(['list']);
    const { at } = cacheFiles();
    writeFileSync(join(at, cacheOf('chunk-GONE.cjs', 'list')), 'x');
    // Named as formctl named its caches before they were kept per command word.
    writeFileSync(join(at, 'main.cjs.v8'), 'x');
    // A new chunk file (as a rebuild leaves it) has no cache: this run writes, and prunes.
    renameSync(join(cli, 'chunks', 'chunk-A.cjs'), join(cli, 'chunks', 'chunk-A.tmp'));
    renameSync(join(cli, 'chunks', 'chunk-A.tmp'), join(cli, 'chunks', 'chunk-A.cjs'));
    run(['list']);
    expect(cacheFiles().names).toEqual(LIST);
    rmSync(cache, { recursive: true, force: true });
    const off = run(['list'], { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off.out).toEqual(EXPECTED);
    expect(off.log).toEqual([]);
    expect(existsSync(cache)).toBe(false);
  });

  it('a cache directory that cannot be written or is not a directory changes nothing but the speed', () => {
    writeFileSync(cache, 'a file where the cache directory would be');
    const blocked = run(['list']);
    expect([blocked.status, blocked.stderr, blocked.out]).toEqual([0, '', EXPECTED]);
    rmSync(cache);
    mkdirSync(cache, { mode: 0o500 });
    const readOnly = run(['list']);
    expect([readOnly.status, readOnly.stderr, readOnly.out]).toEqual([0, '', EXPECTED]);
  });

  it('the real CLI: a second run of a command takes the cache of every file it loads', () => {
    const env = { PATH: process.env.PATH, HOME: dir, FORMCTL_CONFIG_DIR: join(dir, 'config'), FORMCTL_CACHE_DIR: cache, NO_COLOR: '1' };
    const runBin = (log: string) =>
      spawnSync(process.execPath, ['--import', SCRIPT_LOG, BIN, 'help', 'exit-codes'], { env: { ...env, FORMCTL_SCRIPT_LOG: log }, encoding: 'utf8' });
    const cold = runBin(join(dir, 'cold.txt'));
    const warm = runBin(join(dir, 'warm.txt'));
    expect([warm.status, warm.stdout, warm.stderr]).toEqual([cold.status, cold.stdout, cold.stderr]);
    expect(warm.stdout).toContain('Exit codes:');
    const coldLog = readFileSync(join(dir, 'cold.txt'), 'utf8').trim().split('\n');
    const warmLog = readFileSync(join(dir, 'warm.txt'), 'utf8').trim().split('\n');
    expect(coldLog).toContain('main.cjs:none');
    expect(warmLog.length).toBe(coldLog.length);
    expect(warmLog.every((l) => l.endsWith(':used'))).toBe(true);
  });
});
