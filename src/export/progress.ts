import type { IOStreams } from '../io/iostreams.js';

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

/** A ten-cell bar for a fraction from 0 to 1: "▕████░░░░░░▏". */
export function progressBar(fraction: number, cells = 10): string {
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const full = Math.round(f * cells);
  return `▕${'█'.repeat(full)}${'░'.repeat(cells - full)}▏`;
}
