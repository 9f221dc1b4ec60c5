import type { ApiClient } from './client.js';
import { NotFoundError } from './errors.js';

/** The account a token belongs to (docs/service.md, "Who am I"). */
export interface Account {
  name: string;
  email: string;
}

/**
 * Whose the token is: `GET /external/zapier/validate` answers `{name, email}` to any valid token,
 * whatever its abilities, under its own limiter (the `external` bucket, not the general one).
 * null when the service has no such route (an older or a non-OpnForm server: 404) or answers
 * without an e-mail; a 401 and other failures are thrown as usual.
 */
export async function whoAmI(c: ApiClient, signal?: AbortSignal): Promise<Account | null> {
  try {
    const res = await c.request<unknown>({ path: '/external/zapier/validate', bucket: 'external', acceptStatuses: [405], signal });
    const b = res.data as Record<string, unknown> | null;
    if (res.status !== 200 || !b || typeof b !== 'object' || typeof b.email !== 'string' || b.email === '') return null;
    return { name: typeof b.name === 'string' ? b.name : '', email: b.email };
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}
