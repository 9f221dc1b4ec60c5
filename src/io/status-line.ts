import type { IOStreams } from './iostreams.js';

/** Back to the start of the line and erase it: what a redrawn status line is overwritten with. */
export const CLEAR_LINE = '\r\x1b[2K';

/**
 * A one-line progress display on stderr: redrawn in place on a terminal. In a log (stderr not a
 * terminal: CI, `2>log`) nothing is redrawn: by default only the last text is printed, once, when
 * the line is done; `inLog: 'each'` prints every change on its own line instead (for a caller that
 * paces its updates for a log itself).
 */
export interface StatusLine {
  update(text: string): void;
  /** Clears the line (terminal), or prints its last text (log, by default), so the next message starts clean. */
  done(): void;
}

export interface StatusLineOptions {
  /** Fewest milliseconds between redraws on a terminal (a fast download would otherwise redraw per chunk). Default 200. */
  minIntervalMs?: number;
  /** Show nothing at all (the CSV goes to stdout, maybe the same terminal). */
  quiet?: boolean;
  /** In a log: only the last text when done (default), or each change as it comes. */
  inLog?: 'last' | 'each';
}

/** Creates the status line (see StatusLine for what it prints where). */
export function createStatusLine(io: IOStreams, now: () => number, o: StatusLineOptions = {}): StatusLine {
  if (o.quiet) return { update: () => undefined, done: () => undefined };
  const minIntervalMs = o.minIntervalMs ?? 200;
  const each = o.inLog === 'each';
  let last = '';
  let lastAt = Number.NEGATIVE_INFINITY;
  // Terminal: a line is drawn and must be cleared. Log ('last'): a text is waiting to be printed.
  let pending = false;
  return {
    update(text) {
      if (text === last) return;
      if (io.stderrIsTTY) {
        const t = now();
        if (t - lastAt < minIntervalMs) return;
        lastAt = t;
        io.stderr.write(`${CLEAR_LINE}${text}`);
        pending = true;
      } else if (each) {
        io.stderr.write(`${text}\n`);
      } else {
        pending = true;
      }
      last = text;
    },
    done() {
      if (pending) io.stderr.write(io.stderrIsTTY ? CLEAR_LINE : `${last}\n`);
      pending = false;
      last = '';
    },
  };
}
