import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../atomic-file.js';
import { EXPORT_ASYNC_THRESHOLD } from '../service/limits.js';

/** How long "this service closes export jobs to tokens" is believed without asking again. */
export const CLOSED_STATUS_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * What formctl learnt about a service's export status route, remembered per service (origin) in the
 * cache directory (docs/submission-update.md, "Exports above 1,000 rows"): once the route answered
 * a token "closed" (404 with an empty message on the code's path), a later export of more than
 * 1,000 submissions goes straight to chunks instead of first starting a server job nobody can
 * collect, which would cost one of the 10 exports a minute and the server's work. The answer is
 * believed for 7 days, then asked again. Anything wrong with the file (a read-only cache) only
 * forgets: the export then learns it again as before.
 */
export class ExportStatusMemo {
  constructor(
    /** The directory of the service facts, `<cache dir>/service`; undefined: nothing is remembered. */
    private readonly dir: string | undefined,
    private readonly now: () => number,
  ) {}

  private file(origin: string): string | undefined {
    if (!this.dir) return undefined;
    const key = createHash('sha256').update(`export-status\0${origin}`).digest('hex').slice(0, 32);
    return join(this.dir, `${key}.json`);
  }

  /** When the service was last seen closing the status route to tokens, if within the last 7 days. */
  closedSince(origin: string): number | undefined {
    const file = this.file(origin);
    if (!file) return undefined;
    try {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as { origin?: unknown; closed?: unknown; seen_at?: unknown };
      if (raw.origin !== origin || raw.closed !== true || typeof raw.seen_at !== 'number') return undefined;
      const age = this.now() - raw.seen_at;
      return age >= 0 && age < CLOSED_STATUS_TTL_MS ? raw.seen_at : undefined;
    } catch {
      return undefined;
    }
  }

  /** Records that the service closes the status route to tokens (now). */
  rememberClosed(origin: string): void {
    const file = this.file(origin);
    if (!file) return;
    try {
      mkdirSync(this.dir!, { recursive: true, mode: 0o700 });
      writeFileAtomicSync(file, JSON.stringify({ v: 1, origin, closed: true, seen_at: this.now() }));
    } catch {
      // Not remembered: the next export learns it again.
    }
  }

  /** Forgets it: the route answered a token after all. */
  forget(origin: string): void {
    const file = this.file(origin);
    if (file) rmSync(file, { force: true });
  }
}

/**
 * Whether an export should go straight to chunks: the service is known to close the status route
 * to tokens, and the form has more submissions than the service exports at once (so it would
 * answer with a job). A form at or under the threshold is exported in one answer, as always.
 */
export function straightToChunks(memo: ExportStatusMemo, origin: string, submissionsCount: unknown): boolean {
  return typeof submissionsCount === 'number' && submissionsCount > EXPORT_ASYNC_THRESHOLD && memo.closedSince(origin) !== undefined;
}
