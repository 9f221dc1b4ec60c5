import type { NormalizedSubmission } from '../api/normalize.js';
import { UsageError } from '../errors.js';

// How the user names a submission (its numeric id or its public UUID), and how a listed one is named.

/**
 * A submission as the user names it: the numeric id (the path id on both services) or the public
 * UUID the deployed service shows as `submission_id`, which must be looked up: the deployed service
 * reads a UUID path id as its leading digits, i.e. as another submission (docs/submission-update.md).
 */
export type SubmissionRef = { kind: 'id'; id: number } | { kind: 'uuid'; uuid: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parses a submission id given by the user or found in an input line; null when it is neither form. */
export function parseSubmissionRef(raw: unknown): SubmissionRef | null {
  const s = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (/^\d{1,16}$/.test(s) && Number.isSafeInteger(Number(s)) && Number(s) > 0) return { kind: 'id', id: Number(s) };
  if (UUID.test(s)) return { kind: 'uuid', uuid: s.toLowerCase() };
  return null;
}

/** Like parseSubmissionRef, but a UsageError (exit 2, before any request) for anything else. */
export function submissionRefArg(raw: string): SubmissionRef {
  const ref = parseSubmissionRef(raw);
  if (!ref) {
    throw new UsageError(
      `Invalid submission id "${raw}": expected the number in the ID column of \`formctl submission list\` (or the submission's UUID).`,
      'See the ids with `formctl submission list <form>`.',
    );
  }
  return ref;
}

/** The public UUID of a listed submission (the deployed service's `submission_id`), lower-cased. */
export function uuidOf(s: NormalizedSubmission): string | undefined {
  const v = s.submission_id;
  return typeof v === 'string' && UUID.test(v) ? v.toLowerCase() : undefined;
}

/** The numeric id of a listed submission (the path id), or undefined when the service sent none. */
export function numericIdOf(s: NormalizedSubmission): number | undefined {
  for (const v of [s.id, s.pathId]) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : Number.NaN;
    if (Number.isSafeInteger(n) && n > 0) return n;
  }
  return undefined;
}
