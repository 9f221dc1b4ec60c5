// The fixture most sandbox tests share: a throw-away home (tempHome), an in-process sandbox on port
// 0 (startTestSandbox), their merged env, and a scratch directory, started and stopped by vitest hooks
// (useSandboxFixture), or inside one test for a sandbox of its own (sandboxForTest).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, onTestFinished } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { tempHome } from './cli.js';
import { type TestSandbox, startTestSandbox } from './sandbox.js';

export interface SandboxFixtureOptions extends SandboxOptions {
  /** Fresh home, sandbox and work dir for every test (beforeEach/afterEach); default: one for the describe block (beforeAll/afterAll). */
  perTest?: boolean;
  /**
   * One sandbox for the block, a fresh home and work dir for every test (what a test saves, a profile
   * or a backup, never reaches the next). A before-all hook registered after the fixture reads the
   * block's own home, removed before the first test. Not needed with `perTest`.
   */
  homePerTest?: boolean;
  /** Variables added to `env` after the home's and the sandbox's, e.g. `(sb) => ({ FORMCTL_WORKSPACE: String(sb.workspaceId) })`. */
  env?: (sb: TestSandbox) => NodeJS.ProcessEnv;
}

/** What the tests read, in a test or in a hook registered after the fixture's. */
export interface SandboxFixture {
  /** The throw-away home: `dir`, and `env` (HOME and the FORMCTL_*_DIR variables). */
  readonly home: { dir: string; env: NodeJS.ProcessEnv };
  /** The sandbox (flavour and seed as asked). */
  readonly sb: TestSandbox;
  /** `home.env`, then `sb.env` (base URL, the admin's token), then the `env` option's variables. */
  readonly env: NodeJS.ProcessEnv;
  /** A scratch directory, made on first read and removed with the home. */
  readonly work: string;
}

/** The fixture with its start and stop, without hooks: what useSandboxFixture registers (and its own test calls). */
export interface ManualSandboxFixture extends SandboxFixture {
  /** Makes the home, then starts the sandbox; when anything fails, stops what was made and throws. */
  start(this: void): Promise<void>;
  /**
   * Closes the sandbox (waiting for a start still under way, e.g. after a hook timeout) and removes
   * the work dir and the home; each step runs even when another fails. Does nothing when not started.
   */
  stop(this: void): Promise<void>;
  /** Removes the home and the work dir and makes a fresh home (`env` follows it); the sandbox stays. */
  renewHome(this: void): void;
}

interface State {
  home: ReturnType<typeof tempHome>;
  starting?: Promise<TestSandbox>;
  sb?: TestSandbox;
  env?: NodeJS.ProcessEnv;
  work?: string;
}

export function sandboxFixture(opts: SandboxFixtureOptions = {}): ManualSandboxFixture {
  const { perTest: _perTest, homePerTest: _homePerTest, env: extraEnv, ...sandboxOptions } = opts;
  let state: State | undefined;
  const started = (what: string): State & { sb: TestSandbox; env: NodeJS.ProcessEnv } => {
    if (!state?.sb || !state.env)
      throw new Error(`sandbox fixture: ${what} read before the fixture started (read it in a test, or a hook registered after it)`);
    return state as State & { sb: TestSandbox; env: NodeJS.ProcessEnv };
  };
  const stop = async (): Promise<void> => {
    const s = state;
    state = undefined;
    if (!s) return;
    const errors: unknown[] = [];
    // A start that failed was reported by start(); one still under way is waited for, then closed.
    const sb = s.sb ?? (await s.starting?.catch(() => undefined));
    if (sb) await sb.close().catch((e: unknown) => errors.push(e));
    for (const dir of [s.work, s.home.dir]) {
      if (dir === undefined) continue;
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'sandbox fixture: stopping failed');
  };
  const start = async (): Promise<void> => {
    if (state) throw new Error('sandbox fixture: started twice without a stop');
    const s: State = { home: tempHome() };
    state = s;
    try {
      s.starting = startTestSandbox(sandboxOptions);
      const sb = await s.starting;
      if (state !== s) return; // stopped while starting: stop() closed it
      s.sb = sb;
      s.env = { ...s.home.env, ...sb.env, ...extraEnv?.(sb) };
    } catch (e) {
      if (state === s) await stop().catch(() => undefined);
      throw e;
    }
  };
  const renewHome = (): void => {
    const s = started('home');
    const old = [s.work, s.home.dir];
    s.work = undefined;
    s.home = tempHome();
    s.env = { ...s.home.env, ...s.sb.env, ...extraEnv?.(s.sb) };
    for (const dir of old) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  };
  return {
    start,
    stop,
    renewHome,
    get home() {
      const { dir, env } = started('home').home;
      return { dir, env };
    },
    get sb() {
      return started('sb').sb;
    },
    get env() {
      return started('env').env;
    },
    get work() {
      const s = started('work');
      return (s.work ??= mkdtempSync(join(tmpdir(), 'formctl-work-')));
    },
  };
}

/**
 * `const fx = useSandboxFixture({ flavor, seed: 1 })` in a describe block (or at a file's top):
 * before its tests, a temp home and a sandbox on port 0 (the options are startTestSandbox's, plus
 * `perTest`, `homePerTest` and `env`); after them, the sandbox is closed and the home and `fx.work`
 * removed, on every path (a failed or timed-out start included). Read `fx.sb`, `fx.env`, `fx.home`,
 * `fx.work` in tests, or in hooks registered after this call (they run after its start, and their
 * after-hooks before its stop).
 */
export function useSandboxFixture(opts: SandboxFixtureOptions = {}): SandboxFixture {
  const fx = sandboxFixture(opts);
  if (opts.perTest) {
    beforeEach(fx.start);
    afterEach(fx.stop);
  } else {
    beforeAll(fx.start);
    if (opts.homePerTest) beforeEach(fx.renewHome);
    afterAll(fx.stop);
  }
  return fx;
}

/**
 * `const fx = await sandboxForTest({ seed: 60, rateLimit: 600 })` inside a test whose sandbox is its
 * own (options no other test shares): the same fixture, started now and stopped when the test ends
 * (onTestFinished), on every path: a failed assertion, a timeout, a start still under way.
 */
export async function sandboxForTest(opts: Omit<SandboxFixtureOptions, 'perTest' | 'homePerTest'> = {}): Promise<SandboxFixture> {
  const fx = sandboxFixture(opts);
  onTestFinished(fx.stop);
  await fx.start();
  return fx;
}
