import { UsageError } from '../errors.js';
import type { OutputFormat } from './output.js';

/**
 * One rule for every list (README "Output, scripting and environment"): JSON and NDJSON are for programs and carry every record
 * unless --limit is given; a table or TSV is for reading and shows the first 30, with a note on
 * stderr when there are more.
 */
export const DEFAULT_LIST_LIMIT = 30;

export interface LimitFlags {
  all?: boolean;
  limit?: number;
}

/** Parser for positive integers given to a flag (limits, pages, concurrency, rates). */
export function parsePositiveInt(name: string): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a whole number of at least 1, got "${v}".`);
    return n;
  };
}

/** The number of records to show, or undefined for all of them. */
export function listLimit(format: OutputFormat, flags: LimitFlags): number | undefined {
  if (flags.all && flags.limit !== undefined) throw new UsageError('Use either --all or --limit, not both.');
  if (flags.all) return undefined;
  if (flags.limit !== undefined) return flags.limit;
  return format.kind === 'json' || format.kind === 'ndjson' ? undefined : DEFAULT_LIST_LIMIT;
}

/** The note a cut list prints on stderr. */
export function moreNote(count: number, things: string, filtered = false): string {
  const noun = count === 1 ? things.replace(/s$/, '') : things;
  return `showing the first ${count} ${noun}${filtered ? (count === 1 ? ' that matches' : ' that match') : ''}; pass --all or --limit N for more.`;
}

/** Cuts an in-memory list to the limit; `cut` says whether records were left out. */
export function applyLimit<T>(rows: T[], limit: number | undefined): { rows: T[]; cut: boolean } {
  if (limit === undefined || rows.length <= limit) return { rows, cut: false };
  return { rows: rows.slice(0, limit), cut: true };
}
