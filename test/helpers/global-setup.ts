// vitest globalSetup: gives the run its marker (test/helpers/processes.ts) and, at the end, proves
// that no process the tests started outlives the run: any process still carrying the marker is
// listed, killed, and fails the run.
import { RUN_MARKER, processesWith } from './processes.js';

export function setup(): void {
  // Once per run, also when each project of vitest.config.ts runs this setup. A marker this runner
  // did not set (its pid is not the value's first part) is an outer run's, inherited by a run a test
  // started (test/e2e/path-with-space.test.ts): kept, this run's teardown would kill the outer run's
  // processes, the worker that started it among them. The outer run still sees this runner itself.
  if (!process.env[RUN_MARKER]?.startsWith(`${process.pid}-`)) process.env[RUN_MARKER] = `${process.pid}-${Date.now()}`;
}

export async function teardown(): Promise<void> {
  const id = process.env[RUN_MARKER]!;
  // The runner's own children (its workers, esbuild's service) carry the marker too: they are not
  // the tests'. A process a test started has a worker as parent, or init once it lost its parent.
  const strays = () => processesWith(RUN_MARKER, id).filter((p) => p.ppid !== process.pid);
  // A process stopped in the last test's teardown may take a moment to go; wait for its exit, not longer.
  let left = strays();
  for (let i = 0; i < 100 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = strays();
  }
  if (left.length === 0) return;
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
  // vitest reports an error thrown here but still exits 0: the exit code is set too.
  process.exitCode = 1;
  throw new Error(
    `${left.length} process${left.length === 1 ? '' : 'es'} started by the tests outlived them (now killed):\n${left.map((p) => `  ${p.pid} (parent ${p.ppid}): ${p.cmdline.slice(0, 200)}`).join('\n')}`,
  );
}
