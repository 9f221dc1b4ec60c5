import { CliError, ExitCode } from '../errors.js';
import type { Role } from '../service/access.js';
import type { ApiClient, ApiResponse } from './client.js';
import { ApiError } from './errors.js';
import { listInvites } from './invites.js';
import { messageOf, normalizeMember, unwrapList } from './normalize.js';
import { apiPath } from './path.js';
import { errorInit, need, notFoundWithHint, requestWithNeeds } from './requirements.js';

export { ROLES, type Role } from '../service/access.js';

/** A workspace member; `role` is read from the top level (spec) or `pivot.role` (deployed). */
export interface Member {
  id: number;
  name: string;
  email: string;
  role: string | null;
  [key: string]: unknown;
}

/** What `POST …/users/add` did. */
export type AddOutcome = 'added' | 'invited' | 'already_member';

export interface AddResult {
  outcome: AddOutcome;
  message: string;
}

/** Lists a workspace's members (`workspace-users-read`; caller must belong to the workspace). */
export async function listMembers(c: ApiClient, workspaceId: number): Promise<Member[]> {
  const res = await requestWithNeeds(
    c,
    { path: apiPath`/open/workspaces/${workspaceId}/users` },
    need('listing members', 'workspace-users-read', 'workspaces-read', 'member', workspaceId),
  );
  return unwrapList<Record<string, unknown>>(res.data, res).items.map((m) => normalizeMember(m) as Member);
}

/**
 * Reads the add-member outcome from the answer. The spec gives only the meanings of the three texts,
 * and servers word them differently, so this matches on key words rather than exact sentences; the
 * deployed server also attaches an `invite` object when it sends an invitation.
 */
export function classifyAddOutcome(body: unknown): AddOutcome | undefined {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const invite = (body as Record<string, unknown>).invite;
    if (invite !== null && typeof invite === 'object') return 'invited';
  }
  const m = messageOf(body, '').toLowerCase();
  if (/invit|registration|email sent|sent .*email/.test(m)) return 'invited';
  if (/already/.test(m)) return 'already_member';
  if (/\badded\b|success/.test(m)) return 'added';
  return undefined;
}

/**
 * Adds a user by email (`workspace-users-write`, admin). An unrecognised success message is settled
 * by looking the address up in the member list, since a 200 means either "added" or "invited".
 */
export async function addMember(c: ApiClient, workspaceId: number, body: { email: string; role: Role }): Promise<AddResult> {
  let res: ApiResponse<unknown>;
  try {
    res = await requestWithNeeds(
      c,
      { method: 'POST', path: apiPath`/open/workspaces/${workspaceId}/users/add`, body },
      need('adding members', 'workspace-users-write', 'workspaces-write', 'admin', workspaceId, true),
    );
  } catch (err) {
    // Deployed servers answer 400 when an unexpired invite to this address is already pending.
    if (err instanceof ApiError && (err.status === 400 || err.status === 422) && /already.*invited/i.test(err.serverMessage ?? '')) {
      const id = await pendingInviteId(c, workspaceId, body.email);
      const resend =
        id !== undefined
          ? `Resend it with \`formctl invite resend -w ${workspaceId} ${id}\`.`
          : `Resend it with \`formctl invite resend -w ${workspaceId} <invite-id>\` (ids: \`formctl invite list -w ${workspaceId}\`).`;
      throw new ApiError(errorInit(err), ExitCode.validation, `An invite to ${body.email} is already pending. ${resend}`);
    }
    throw err;
  }
  const message = messageOf(res.data, '');
  const known = classifyAddOutcome(res.data);
  if (known) return { outcome: known, message };
  const members = await listMembers(c, workspaceId).catch(() => undefined);
  if (!members) {
    throw new CliError(
      `The server accepted the request but its answer ("${message}") does not say whether ${body.email} was added or invited.`,
      ExitCode.error,
      `Check with \`formctl member list -w ${workspaceId}\` and \`formctl invite list -w ${workspaceId}\`; do not retry blindly.`,
    );
  }
  const found = members.some((m) => typeof m.email === 'string' && m.email.toLowerCase() === body.email.toLowerCase());
  return { outcome: found ? 'added' : 'invited', message };
}

/** The id of the pending invite to `email`, for a hint; undefined when there is none or the list cannot be read. */
async function pendingInviteId(c: ApiClient, workspaceId: number, email: string): Promise<number | undefined> {
  try {
    const wanted = email.toLowerCase();
    const pending = (await listInvites(c, workspaceId)).filter((i) => i.status === 'pending' && String(i.email).toLowerCase() === wanted);
    // The one still valid: an expired invite cannot be resent usefully (invite resend refuses it).
    const live = (i: (typeof pending)[number]) => i.valid_until === null || !(Date.parse(i.valid_until) < Date.now());
    const invite = pending.find(live) ?? pending[0];
    return invite ? Number(invite.id) : undefined;
  } catch {
    return undefined;
  }
}

/** A 404 on a member endpoint, in words: the user is not in the workspace, or the workspace is gone. */
function memberError(err: unknown, workspaceId: number, userId: number): unknown {
  return notFoundWithHint(
    err,
    `User ${userId} is not a member of workspace ${workspaceId}, or the workspace does not exist. See \`formctl member list -w ${workspaceId}\`.`,
  );
}

/** Removes a user from a workspace (`workspace-users-write`; admin on the deployed server). */
export async function removeMember(c: ApiClient, workspaceId: number, userId: number): Promise<string> {
  try {
    const res = await requestWithNeeds(
      c,
      { method: 'DELETE', path: apiPath`/open/workspaces/${workspaceId}/users/${userId}/remove` },
      need('removing members', 'workspace-users-write', 'workspaces-write', 'admin', workspaceId),
    );
    return messageOf(res.data, 'User removed from workspace.');
  } catch (err) {
    throw memberError(err, workspaceId, userId);
  }
}

/** Changes a member's role (`workspace-users-write`, admin). */
export async function updateMemberRole(c: ApiClient, workspaceId: number, userId: number, role: Role): Promise<string> {
  try {
    const res = await requestWithNeeds(
      c,
      { method: 'PUT', path: apiPath`/open/workspaces/${workspaceId}/users/${userId}/update-role`, body: { role } },
      need('changing member roles', 'workspace-users-write', 'workspaces-write', 'admin', workspaceId),
    );
    return messageOf(res.data, 'Role changed.');
  } catch (err) {
    throw memberError(err, workspaceId, userId);
  }
}
