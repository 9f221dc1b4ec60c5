import { killGroup, spawnTracked as spawn } from './processes.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'formctl.js');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  cwd?: string;
  /** Kill the process after this long (at least HANG_BOUND_MS). */
  timeoutMs?: number;
}

/** The shortest time runFormctl lets a process run before it calls it hung and kills it. */
export const HANG_BOUND_MS = 90_000;

/**
 * Env for runFormctl that stops the child's clock at `now` (ms since the epoch): Date.now() and
 * new Date() answer that instant for the whole run (test/e2e/fixtures/frozen-clock.mjs, preloaded).
 * For tests whose subject is a time window (the rate budget's minute, the completion cache's 60 s):
 * the window is where the test puts it, not where the machine's speed leaves it. Timers still run.
 */
export function frozenClockEnv(now: number): NodeJS.ProcessEnv {
  return { NODE_OPTIONS: `--import=${pathToFileURL(join(ROOT, 'test', 'e2e', 'fixtures', 'frozen-clock.mjs')).href}`, FORMCTL_TEST_NOW: String(now) };
}

/** A throw-away home with config/state/cache dirs, removed by cleanup(). */
export function tempHome(): { dir: string; env: NodeJS.ProcessEnv; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'formctl-test-'));
  return {
    dir,
    env: {
      HOME: dir,
      FORMCTL_CONFIG_DIR: join(dir, 'config'),
      FORMCTL_STATE_DIR: join(dir, 'state'),
      FORMCTL_CACHE_DIR: join(dir, 'cache'),
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Spawns the real built binary (bin/formctl.js → dist/). The child gets a clean environment:
 * PATH plus what the test passes, NO_COLOR=1, and no CI variable unless the test sets one.
 */
export function runFormctl(args: string[], o: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: o.cwd ?? ROOT,
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...o.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    // A bound for a process that hangs, never a measure of speed: a loaded machine runs a command
    // several times slower, so no bound is shorter than HANG_BOUND_MS. (The test's end stops it too.)
    const timer = setTimeout(() => killGroup(child), Math.max(o.timeoutMs ?? 0, HANG_BOUND_MS));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(o.input ?? '');
  });
}
