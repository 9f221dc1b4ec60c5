import type { ApiClient } from './client.js';
import { unwrapForm } from './normalize.js';
import { apiPath } from './path.js';

/** A form property (field or block). Only these four are in the spec; the rest passes through untouched. */
export interface FormProperty {
  id: string;
  type: string;
  name: string;
  required?: boolean;
  [key: string]: unknown;
}

/** A full form as returned by get/create/update. */
export interface Form {
  id: number;
  slug: string;
  title: string;
  visibility: string;
  properties: FormProperty[];
  workspace_id?: number;
  updated_at?: string;
  share_url?: string;
  [key: string]: unknown;
}

/** Gets one full form by numeric id, slug or UUID (the service accepts all three on this path). */
export async function getForm(c: ApiClient, ref: string | number): Promise<Form> {
  const res = await c.request({ path: apiPath`/open/forms/${ref}`, ability: 'forms-read' });
  return unwrapForm<Form>(res.data);
}

/**
 * Resolves a user's `<form>` argument (id or slug) to the full form. Paths that take a numeric id
 * (submissions, export, integrations) use `form.id` from here, so a slug works everywhere.
 */
export async function resolveForm(c: ApiClient, ref: string): Promise<Form> {
  return getForm(c, ref.trim());
}
