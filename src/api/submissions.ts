import type { ApiClient } from './client.js';
import { ForbiddenError, NotFoundError, forbiddenCause } from './errors.js';
import { messageOf, unwrapList } from './normalize.js';
import { apiPath } from './path.js';

/** One page of a form's submission list, as the service answers it (filters in `query`, if any; without `status` both services list partial submissions too). */
export function listSubmissionsPage(
  c: ApiClient,
  formId: number,
  page: number,
  perPage: number,
  o: { query?: Record<string, string | undefined>; signal?: AbortSignal } = {},
) {
  return c.request<unknown>({
    path: apiPath`/open/forms/${formId}/submissions`,
    query: { ...o.query, page, per_page: perPage },
    ability: 'forms-read',
    signal: o.signal,
  });
}

/**
 * Sends one update body (see buildUpdateBody: full answers at the top level, patch under `data`) to
 * the numeric path id. The deployed service checks `forms-write`, the spec names `submissions-write`.
 */
export async function updateSubmission(
  c: ApiClient,
  formId: number,
  submissionId: number,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ message: string; body: unknown }> {
  try {
    const res = await c.request({
      method: 'PUT',
      path: apiPath`/open/forms/${formId}/submissions/${submissionId}`,
      body,
      ability: 'forms-write',
      signal,
      // Each update re-runs the form's integrations on the deployed service: never sent twice.
      retry: 'never-after-send',
    });
    return { message: messageOf(res.data, 'Record successfully updated.'), body: res.data };
  } catch (err) {
    // Refused for the token's abilities, or for a reason the message does not name: this route's
    // ability differs between the services, so the hint names both. Other causes keep their hint.
    const cause = err instanceof ForbiddenError ? forbiddenCause(err.serverMessage) : undefined;
    if (err instanceof ForbiddenError && (cause === 'ability' || cause === 'unknown')) {
      throw new ForbiddenError(
        { status: err.status, method: err.method, path: err.path, serverMessage: err.serverMessage, ability: err.ability },
        'This needs a token with the `forms-write` ability on the deployed OpnForm service (`submissions-write` by the API spec), or your role in the workspace does not allow it. Create a token with it and run `formctl auth login`.',
      );
    }
    throw err;
  }
}

/** Deletes a submission by its numeric id. Not in the spec; the deployed service and the sandbox answer `{message}`. */
export async function deleteSubmission(c: ApiClient, formId: number, submissionId: number): Promise<string> {
  const res = await c.request({ method: 'DELETE', path: apiPath`/open/forms/${formId}/submissions/${submissionId}`, ability: 'forms-write' });
  return messageOf(res.data, 'Record successfully removed.');
}

/**
 * The active integrations of a form (every kind: webhooks, e-mail, Slack…): on the deployed service
 * each fires again on every submission update. undefined when the list cannot be read with this token.
 */
export async function activeIntegrations(c: ApiClient, formId: number, signal?: AbortSignal): Promise<Record<string, unknown>[] | undefined> {
  try {
    const res = await c.request<unknown>({ path: apiPath`/open/forms/${formId}/integrations`, ability: 'forms-read', signal });
    return unwrapList<Record<string, unknown>>(res.data).items.filter((i) => i && typeof i === 'object' && (i.status ?? 'active') === 'active');
  } catch (err) {
    if (err instanceof ForbiddenError || err instanceof NotFoundError) return undefined;
    throw err;
  }
}
