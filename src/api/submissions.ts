import type { ApiClient } from './client.js';
import { type NormalizedSubmission, messageOf, normalizeSubmission } from './normalize.js';
import { type Page, paginate } from './paginate.js';
import { apiPath } from './path.js';

/** The deployed service caps `per_page` at 100 (research §2); asking for more gains nothing. */
export const SUBMISSIONS_MAX_PER_PAGE = 100;

export interface ListSubmissionsQuery {
  /** `completed`, `partial` or `all` (research §1.3); passed through as given. */
  status?: string;
  /** Free-text match over answer values, passed through. */
  search?: string;
  limit?: number;
  perPage?: number;
}

/** Pages of a form's submissions, normalised; works with the spec's bare array and Laravel envelopes. */
export async function* listSubmissions(c: ApiClient, formId: number, q: ListSubmissionsQuery = {}): AsyncGenerator<Page<NormalizedSubmission>> {
  const pages = paginate<Record<string, unknown>>(
    c,
    { path: apiPath`/open/forms/${formId}/submissions`, query: { status: q.status, search: q.search }, ability: 'forms-read' },
    { perPage: q.perPage ?? SUBMISSIONS_MAX_PER_PAGE, limit: q.limit },
  );
  for await (const p of pages) yield { ...p, items: p.items.map(normalizeSubmission) };
}

/** Patches a submission's answers with `{data}` (spec); `submissionId` is the path id (numeric `id` when known). */
export async function updateSubmission(
  c: ApiClient,
  formId: number,
  submissionId: string,
  data: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ message: string; body: unknown }> {
  const res = await c.request({
    method: 'PUT',
    path: apiPath`/open/forms/${formId}/submissions/${submissionId}`,
    body: { data },
    ability: 'submissions-write',
    signal,
    // Each update re-runs the form's integrations on the deployed service: never sent twice.
    retry: 'never-after-send',
  });
  return { message: messageOf(res.data, 'Record successfully updated.'), body: res.data };
}

/** Deletes a submission. Not in the spec; the deployed service and the sandbox answer `{message}`. */
export async function deleteSubmission(c: ApiClient, formId: number, submissionId: string): Promise<string> {
  const res = await c.request({ method: 'DELETE', path: apiPath`/open/forms/${formId}/submissions/${submissionId}`, ability: 'forms-write' });
  return messageOf(res.data, 'Record successfully removed.');
}
