import type { IOStreams } from './iostreams.js';

/** Back to the start of the line and erase it: what a redrawn status line is overwritten with. */
export const CLEAR_LINE = '\r\x1b[2K';

/** A one-line progress display on stderr: redrawn in place on a TTY, printed once per change otherwise. */
export interface StatusLine {
  update(text: string): void;
  /** Clears the line (TTY) so the next message starts clean. */
  done(): void;
}

/**
 * Creates the status line; `minIntervalMs` limits TTY redraws (a fast download would otherwise redraw
 * per chunk). `quiet` (the CSV goes to stdout, maybe the same terminal) shows nothing at all.
 */
export function createStatusLine(io: IOStreams, now: () => number, minIntervalMs = 200, quiet = false): StatusLine {
  if (quiet) return { update: () => undefined, done: () => undefined };
  let last = '';
  let lastAt = Number.NEGATIVE_INFINITY;
  let shown = false;
  return {
    update(text) {
      if (text === last) return;
      if (io.stderrIsTTY) {
        const t = now();
        if (t - lastAt < minIntervalMs) return;
        lastAt = t;
        io.stderr.write(`${CLEAR_LINE}${text}`);
        shown = true;
      } else {
        io.stderr.write(`${text}\n`);
      }
      last = text;
    },
    done() {
      if (io.stderrIsTTY && shown) io.stderr.write(CLEAR_LINE);
      shown = false;
    },
  };
}
