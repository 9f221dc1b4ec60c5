import type { IOStreams } from './iostreams.js';

/** Wait before a spinner appears: most requests finish sooner, and a flash of spinner is noise. */
const SPINNER_DELAY_MS = 150;

/**
 * Runs `work` with a spinner on stderr, for people: only when stdout and stderr are both terminals
 * (a table is coming), and only once the work has taken longer than 150 ms. ora is imported then,
 * not before, so fast commands and scripts never pay for it.
 */
export async function withSpinner<T>(io: IOStreams, text: string, work: () => Promise<T>): Promise<T> {
  // ora draws with a terminal stream's cursor methods and divides by its width: a stream without
  // them, or a pty that reports 0 columns (it would clear lines forever), gets no spinner.
  const stderr = io.stderr as { cursorTo?: unknown; columns?: number };
  const drawable = typeof stderr.cursorTo === 'function' && (stderr.columns ?? 0) > 0;
  if (!io.stdoutIsTTY || !io.stderrIsTTY || !drawable) return work();
  let finished = false;
  let spinner: { stop(): void } | undefined;
  const timer = setTimeout(() => {
    void import('ora').then(
      ({ default: ora }) => {
        if (finished) return;
        // A spinner is a nicety: if it cannot start, the command goes on without it.
        try {
          spinner = ora({
            text,
            stream: io.stderr,
            isEnabled: true,
            color: io.colorStderr ? 'cyan' : false,
            // ora would otherwise put stdin in raw mode, which swallows Ctrl-C and a following prompt's keys.
            discardStdin: false,
          }).start();
        } catch {
          spinner = undefined;
        }
      },
      () => undefined,
    );
  }, SPINNER_DELAY_MS);
  try {
    return await work();
  } finally {
    finished = true;
    clearTimeout(timer);
    spinner?.stop();
  }
}

/** Drains an async iterable into an array under a spinner (a table needs every row before it is drawn). */
export function collectWithSpinner<T>(io: IOStreams, text: string, rows: AsyncIterable<T>): Promise<T[]> {
  return withSpinner(io, text, async () => {
    const all: T[] = [];
    for await (const row of rows) all.push(row);
    return all;
  });
}
