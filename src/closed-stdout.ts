// What a reader that goes away from stdout (EPIPE: `formctl … | head -1`) does to a run. A command
// that only reads ends at once with its exit code so far: nothing more of its output is wanted
// (src/main.ts). A run that changes things one by one (a bulk update or delete) keeps going to its
// end, its output unread, so that its exit code still says whether everything was done: ending it
// with 0 midway left some of its lines undone under a success.

let changing = 0;
let closedWhileChanging = false;

/** Runs `fn`, a run of changes, during which a closed stdout does not end the process. */
export async function whileChanging<T>(fn: () => Promise<T>): Promise<T> {
  changing++;
  try {
    return await fn();
  } finally {
    changing--;
  }
}

/**
 * Whether the process should go on after stdout closed: during a run of changes, and for the rest of
 * the process once it closed during one (the run's summary and exit code are still to come).
 */
export function goOnWhenStdoutCloses(): boolean {
  if (changing > 0) closedWhileChanging = true;
  return closedWhileChanging;
}
