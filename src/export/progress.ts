import type { IOStreams } from '../io/iostreams.js';

/** A one-line progress display on stderr: redrawn in place on a TTY, printed once per change otherwise. */
export interface StatusLine {
  update(text: string): void;
  /** Clears the line (TTY) so the next message starts clean. */
  done(): void;
}

/** Creates the status line; `minIntervalMs` limits TTY redraws (a fast download would otherwise redraw per chunk). */
export function createStatusLine(io: IOStreams, now: () => number, minIntervalMs = 200): StatusLine {
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
        io.stderr.write(`\r\x1b[2K${text}`);
        shown = true;
      } else {
        io.stderr.write(`${text}\n`);
      }
      last = text;
    },
    done() {
      if (io.stderrIsTTY && shown) io.stderr.write('\r\x1b[2K');
      shown = false;
    },
  };
}

/** "12.3 MB". */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = -1;
  do {
    v /= 1000;
    i++;
  } while (v >= 1000 && i < units.length - 1);
  return `${v.toFixed(1)} ${units[i]}`;
}
