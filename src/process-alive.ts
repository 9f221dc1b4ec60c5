// A fact about the machine, not about the service: shared by the export's .part owner check and
// the stale temp-file sweep of src/atomic-file.ts (the sandbox's data file) (the sandbox imports nothing of the client's logic, and this is none).

/** True when a process with this id exists on this machine (EPERM: it exists, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
