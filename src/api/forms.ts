import { parseFormRef } from '../io/ids.js';
import type { ApiClient } from './client.js';
import { messageOf, unwrapForm, unwrapList } from './normalize.js';
import { type Page, type PaginateOptions, paginate } from './paginate.js';
import { apiPath } from './path.js';
import type { FormProperty } from '../service/forms.js';

export type { FormProperty };

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

/** Gets one full form by numeric id or slug (the service reads a numeric reference as an id, anything else as a slug). */
export async function getForm(c: ApiClient, ref: string | number): Promise<Form> {
  const res = await c.request({ path: apiPath`/open/forms/${ref}`, ability: 'forms-read' });
  return unwrapForm<Form>(res.data, res);
}

/**
 * Resolves a user's `<form>` argument (id or slug) to the full form. Paths that take a numeric id
 * (submissions, export, integrations) use `form.id` from here, so a slug works everywhere.
 */
export async function resolveForm(c: ApiClient, ref: string): Promise<Form> {
  // Checked here too (the argument parser checks first): no path is built from `1e23` or 2^53 + 1.
  return getForm(c, parseFormRef(ref));
}

/** A form as listed in a workspace: no `properties` (spec, "Form (summary)"). */
export interface FormSummary {
  id: number;
  slug: string;
  title: string;
  visibility: string;
  tags?: string[];
  submissions_count?: number;
  views_count?: number;
  updated_at?: string;
  share_url?: string;
  [key: string]: unknown;
}

/** Pages of a workspace's form summaries (`{data, links, meta}`), following `meta`/`links`. */
export function listWorkspaceForms(c: ApiClient, workspaceId: number, o: PaginateOptions = {}): AsyncGenerator<Page<FormSummary>> {
  return paginate<FormSummary>(c, { path: apiPath`/open/workspaces/${workspaceId}/forms`, ability: 'forms-read' }, o);
}

/** The deprecated all-workspaces list (`GET /open/forms`): a bare array of full forms on the deployed service. */
export async function listAllFormsDeprecated(c: ApiClient): Promise<FormSummary[]> {
  const res = await c.request({ path: '/open/forms', ability: 'forms-read' });
  return unwrapList<FormSummary>(res.data, res).items;
}

/** Creates a form (201 bare Form per spec; 200 `{form}` on the deployed service). */
export async function createForm(c: ApiClient, body: Record<string, unknown>): Promise<Form> {
  const res = await c.request({ method: 'POST', path: '/open/forms', body, ability: 'forms-write' });
  return unwrapForm<Form>(res.data, res);
}

/** Replaces a form: the body must be complete (use src/forms/safe-update.ts, never call this directly). */
export async function putForm(c: ApiClient, id: number, body: Record<string, unknown>): Promise<Form> {
  const res = await c.request({ method: 'PUT', path: apiPath`/open/forms/${id}`, body, ability: 'forms-write' });
  return unwrapForm<Form>(res.data, res);
}

/** Deletes a form (204 or 200 `{message}`). */
export async function deleteForm(c: ApiClient, id: number): Promise<string> {
  const res = await c.request({ method: 'DELETE', path: apiPath`/open/forms/${id}`, ability: 'forms-write' });
  return messageOf(res.data, 'Form deleted.');
}
