import { ExitCode } from '../errors.js';
import type { ApiClient } from './client.js';
import { ApiError } from './errors.js';
import { errorInit, need, notFoundWithHint, requestWithNeeds } from './requirements.js';
import { messageOf, unwrapList } from './normalize.js';
import { apiPath } from './path.js';

export { INVITE_STATUSES, type InviteStatus } from '../service/access.js';

/** A workspace invite. The service never returns the invite token, and formctl never prints one. */
export interface Invite {
  id: number;
  email: string;
  role: string;
  status: string;
  valid_until: string | null;
  [key: string]: unknown;
}

// Resend and cancel are "not shown" in the spec: the public OpenAPI document names
// workspace-users-write; the deployed code checks workspaces-write plus admin (docs/service-details.md, Authorization order).
const listNeed = (ws: number) => need('listing invites', 'workspaces-write', 'workspaces-write', 'admin', ws);
const writeNeed = (action: string, ws: number) => need(action, 'workspace-users-write', 'workspaces-write', 'admin', ws);

/** Strips any secret the server might add by mistake: an invite token must never reach output. */
function scrub(raw: Record<string, unknown>): Invite {
  const { token: _token, ...rest } = raw;
  return { ...rest, valid_until: typeof rest.valid_until === 'string' ? rest.valid_until : null } as Invite;
}

/** Lists a workspace's invites (`workspaces-write` and admin; spec, latest change). */
export async function listInvites(c: ApiClient, workspaceId: number): Promise<Invite[]> {
  const res = await requestWithNeeds(c, { path: apiPath`/open/workspaces/${workspaceId}/invites` }, listNeed(workspaceId));
  return unwrapList<Record<string, unknown>>(res.data, res).items.map(scrub);
}

/**
 * The deployed server answers a missing or accepted invite with 400 and a text; a missing one is
 * reported as not found (exit 6) so scripts can tell it from a real validation failure.
 */
function inviteError(err: unknown, workspaceId: number, inviteId: number): unknown {
  const hint = `See the invites of workspace ${workspaceId} with \`formctl invite list -w ${workspaceId}\`.`;
  if (err instanceof ApiError && (err.status === 400 || err.status === 422)) {
    const init = errorInit(err);
    if (/not found/i.test(err.serverMessage ?? ''))
      return new ApiError(init, ExitCode.notFound, `Invite ${inviteId} is not an invite of workspace ${workspaceId}. ${hint}`);
    if (/accepted/i.test(err.serverMessage ?? '')) {
      return new ApiError(
        init,
        ExitCode.validation,
        `Invite ${inviteId} was accepted: that person is a member now (\`formctl member list -w ${workspaceId}\`).`,
      );
    }
  }
  return notFoundWithHint(err, `Invite ${inviteId} or workspace ${workspaceId} does not exist. ${hint}`);
}

/** Sends a pending invite's email again. */
export async function resendInvite(c: ApiClient, workspaceId: number, inviteId: number): Promise<string> {
  try {
    const res = await requestWithNeeds(
      c,
      { method: 'POST', path: apiPath`/open/workspaces/${workspaceId}/invites/${inviteId}/resend` },
      writeNeed('resending invites', workspaceId),
    );
    return messageOf(res.data, 'Invite email resent.');
  } catch (err) {
    throw inviteError(err, workspaceId, inviteId);
  }
}

/** Deletes a pending invite. */
export async function cancelInvite(c: ApiClient, workspaceId: number, inviteId: number): Promise<string> {
  try {
    const res = await requestWithNeeds(
      c,
      { method: 'DELETE', path: apiPath`/open/workspaces/${workspaceId}/invites/${inviteId}/cancel` },
      writeNeed('cancelling invites', workspaceId),
    );
    return messageOf(res.data, 'Invite cancelled.');
  } catch (err) {
    throw inviteError(err, workspaceId, inviteId);
  }
}
