import type { ApiClient } from './client.js';
import { messageOf, unwrapList, unwrapWorkspace } from './normalize.js';
import { apiPath } from './path.js';
import { need, requestWithNeeds } from './requirements.js';

export interface Workspace {
  id: number;
  name: string;
  icon?: string | null;
  settings?: Record<string, unknown>;
  max_file_size?: number;
  is_readonly?: boolean;
  [key: string]: unknown;
}

/** Lists the workspaces the user belongs to. */
export async function listWorkspaces(c: ApiClient): Promise<Workspace[]> {
  const res = await c.request({ path: '/open/workspaces', ability: 'workspaces-read' });
  return unwrapList<Workspace>(res.data, res).items;
}

/** Creates a workspace; the caller becomes its admin. */
export async function createWorkspace(c: ApiClient, body: { name: string; emoji?: string }): Promise<Workspace> {
  const res = await c.request({ method: 'POST', path: '/open/workspaces/create', body, ability: 'workspaces-write' });
  return unwrapWorkspace<Workspace>(res.data, res);
}

/** Renames a workspace or changes its emoji (admin). */
export async function updateWorkspace(c: ApiClient, id: number, body: { name: string; emoji?: string }): Promise<Workspace> {
  const res = await c.request({ method: 'PUT', path: apiPath`/open/workspaces/${id}`, body, ability: 'workspaces-write' });
  return unwrapWorkspace<Workspace>(res.data, res);
}

/** Deletes a workspace (admin; not the caller's last one). */
export async function deleteWorkspace(c: ApiClient, id: number): Promise<string> {
  const res = await c.request({ method: 'DELETE', path: apiPath`/open/workspaces/${id}`, ability: 'workspaces-write' });
  return messageOf(res.data, 'Workspace deleted.');
}

/**
 * Leaves a workspace (204 per spec, 200 JSON on the deployed service). The spec asks for
 * `workspace-users-write`; the deployed server checks `workspaces-read` and membership (the `view`
 * policy: OpnForm `WorkspaceUserController.php:136`, `WorkspacePolicy.php:37-46`), so a 403 names both.
 */
export async function leaveWorkspace(c: ApiClient, id: number): Promise<string> {
  const res = await requestWithNeeds(
    c,
    { method: 'POST', path: apiPath`/open/workspaces/${id}/leave` },
    need('leaving a workspace', 'workspace-users-write', 'workspaces-read', 'member', id),
  );
  return messageOf(res.data, 'You left the workspace.');
}
