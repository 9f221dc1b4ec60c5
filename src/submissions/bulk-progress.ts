import type { IOStreams } from '../io/iostreams.js';
import { createStatusLine } from '../io/status-line.js';
import type { BulkStats } from './bulk-run.js';

// The progress of a bulk update on stderr, and its closing summary line.

function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** The rate shown is measured over the last minute: long enough to smooth the pacer's steps, short enough to follow a changed limit. */
const RATE_WINDOW_MS = 60_000;
/** Below this much measured time a rate is noise (the first requests go at once), so none is shown. */
const MIN_RATE_SPAN_MS = 2_000;

/**
 * Progress on stderr: redrawn on a TTY, one line every 10 s otherwise (CI logs). The rate counts
 * lines that were sent (not skipped ones), over the last minute, and never shows more than the
 * pacer lets through: a burst at the start would otherwise promise a rate, and an ETA, the limit
 * forbids. A dry run sends nothing, so it has neither.
 */
export function progressReporter(io: IOStreams, o: { now: () => number; total?: number; dryRun?: boolean; ceiling: () => number }) {
  const started = o.now();
  // The first line comes after one interval: a short run needs only the summary.
  let lastAt = started;
  const every = io.stderrIsTTY ? 250 : 10_000;
  // Paced here (every 250 ms on a terminal, 10 s in a log), drawn by the shared status line.
  const line = createStatusLine(io, o.now, { minIntervalMs: 0, inLog: 'each' });
  const done: number[] = [];
  let handledSeen = 0;
  const track = (s: BulkStats) => {
    const t = o.now();
    for (; handledSeen < s.ok + s.failed; handledSeen++) done.push(t);
    while (done.length > 0 && done[0]! < t - RATE_WINDOW_MS) done.shift();
  };
  const rate = (): number | undefined => {
    const t = o.now();
    const span = Math.min(t - started, RATE_WINDOW_MS);
    if (o.dryRun || done.length === 0 || span < MIN_RATE_SPAN_MS) return undefined;
    return Math.min((done.length / span) * 60_000, o.ceiling());
  };
  const count = (s: BulkStats) => `${s.ok + s.failed + s.skipped}${o.total !== undefined ? `/${o.total}` : ''}`;
  const text = (s: BulkStats) => {
    const r = rate();
    const left = o.total !== undefined ? Math.max(0, o.total - s.ok - s.failed - s.skipped) : undefined;
    const perMin = r !== undefined ? ` · ${Math.round(r)}/min` : '';
    const eta = r !== undefined && r > 0 && left !== undefined && left > 0 ? ` · ETA ${formatDuration((left / r) * 60_000)}` : '';
    return `${count(s)} lines · ${s.ok} ok · ${s.failed} failed${s.skipped ? ` · ${s.skipped} skipped` : ''}${perMin}${eta}`;
  };
  return {
    update(s: BulkStats) {
      track(s);
      const t = o.now();
      if (t - lastAt < every) return;
      lastAt = t;
      line.update(text(s));
    },
    /** Clears the live line and returns the summary. */
    finish(s: BulkStats) {
      track(s);
      line.done();
      return text(s);
    },
    /** Clears the live line and returns how far an interrupted run got. */
    interrupted(s: BulkStats) {
      line.done();
      return `Interrupted after ${count(s)} lines`;
    },
  };
}
