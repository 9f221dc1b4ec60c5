// Every process a test starts is stopped on every path, a timeout included, and the run proves it.
//
// - Each test run has a marker, FORMCTL_TEST_RUN=<id> (set by test/helpers/global-setup.ts). The
//   helpers that start processes with a clean environment add it (`markedEnv`), and processes that
//   inherit the runner's environment carry it anyway; so a process started by the tests can be found
//   through /proc/<pid>/environ even once its parent is gone and init has adopted it.
// - `track()` registers how to stop what a test started; test/helpers/preload.ts stops whatever is
//   still registered after each test, so a test that timed out (its promise abandoned by vitest)
//   still has its processes killed.
// - The global teardown lists the processes that carry the run's marker and fails the run if any is left.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { onTestFinished } from 'vitest';

export const RUN_MARKER = 'FORMCTL_TEST_RUN';

/** The run's marker value (or a fixed one when a test file runs outside the global setup). */
export function runId(): string {
  return process.env[RUN_MARKER] ?? 'no-global-setup';
}

/** `env` plus the run's marker, for a child started with a clean environment. */
export function markedEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...env, [RUN_MARKER]: runId() };
}

export interface MarkedProcess {
  pid: number;
  ppid: number;
  cmdline: string;
}

/** Processes whose environment holds `name=value` (Linux: /proc; elsewhere an empty list). */
export function processesWith(name: string, value: string): MarkedProcess[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  const needle = `${name}=${value}`;
  const found: MarkedProcess[] = [];
  for (const p of pids) {
    const pid = Number(p);
    if (pid === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${p}/environ`, 'utf8').split('\0');
      if (!env.includes(needle)) continue;
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      // A zombie has exited already; its parent has not reaped it yet.
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const cmdline = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid, ppid, cmdline });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * SIGKILLs every process whose environment holds `name=value`, again until none is left: a process
 * may fork between the listing and the kill, and a killed one shows in /proc until it has died.
 * Resolves with how many were killed; gives up after `boundMs` (a bound for a process that cannot
 * be killed, not a wait for a slow one).
 */
export async function killProcessesWith(name: string, value: string, boundMs = 10_000): Promise<number> {
  const killed = new Set<number>();
  const end = Date.now() + boundMs;
  for (;;) {
    const found = processesWith(name, value);
    if (found.length === 0 || Date.now() > end) return killed.size;
    for (const p of found) {
      try {
        process.kill(p.pid, 'SIGKILL');
        killed.add(p.pid);
      } catch {
        // Gone.
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** SIGKILLs a child started with `detached: true` and its whole process group. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // Gone.
    }
  }
}

const stoppers = new Set<() => void | Promise<unknown>>();

/**
 * Registers how to stop something a test started; call the returned function once it has stopped.
 * Started inside a test, it is stopped when that test finishes, however it finishes (a timeout
 * included); started in a hook, when the file's tests are done (test/helpers/preload.ts).
 */
export function track(stop: () => void | Promise<unknown>): () => void {
  stoppers.add(stop);
  try {
    onTestFinished(async () => {
      if (stoppers.delete(stop)) await stop();
    });
  } catch {
    // Not inside a test: stopTracked() after the file.
  }
  return () => void stoppers.delete(stop);
}

/** Tracks a child process until it closes; stopping it kills its process group (spawn it detached). */
export function trackChild(child: ChildProcess): void {
  const untrack = track(() => killGroup(child));
  child.once('close', untrack);
}

/**
 * `spawn`, for tests: the child leads a process group of its own (so stopping it stops what it
 * started), carries the run's marker even in a clean environment, and is stopped when the test
 * finishes if it is still running then. Same arguments and result as node:child_process `spawn`.
 */
export const spawnTracked = ((command: string, args: readonly string[] = [], options: SpawnOptions = {}) => {
  const child = spawn(command, args, { ...options, detached: true, env: options.env ? markedEnv(options.env) : process.env });
  trackChild(child);
  return child;
}) as typeof spawn;

/** Stops everything still tracked (after each file, from test/helpers/preload.ts); returns how many. */
export async function stopTracked(): Promise<number> {
  const all = [...stoppers];
  stoppers.clear();
  for (const stop of all) {
    try {
      await stop();
    } catch {
      // Best effort: the global teardown reports what survives.
    }
  }
  return all.length;
}
