import { randomBytes } from 'node:crypto';
import { requireAbility, requireAdmin, requireMember } from '../auth.js';
import { ok } from '../context.js';
import type { App, Ctx, RouteTable } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { flavorOf } from '../flavor.js';
import { UNAUTHORIZED, requireAdminAction } from '../deployed.js';
import { ROLES } from '../model.js';
import type { Ability, Invite, Role, User } from '../model.js';
import { Errors, requiredEmail, requiredEnum } from '../validation.js';
import { inviteView } from '../views.js';
import { findWorkspace, numericId } from './common.js';
import { COMMUNITY_SEATS } from '../../service/access.js';

const INVITE_VALIDITY_MS = 7 * 86_400_000; // docs/service-details.md, Members and invites: valid for 7 days

/**
 * The ability a member route checks: the spec's workspace-users-*; the deployed server has no such
 * abilities and checks workspaces-* instead (docs/service.md).
 */
function usersAbility(app: App, kind: 'read' | 'write'): Ability {
  return flavorOf(app).ability(kind === 'read' ? 'workspace-users-read' : 'workspace-users-write');
}

/** The workspace a member-writing route acts on, once the caller may write members there: the ability, then the admin role. */
function adminWorkspace(ctx: Ctx, action: string) {
  const ws = findWorkspace(ctx.app, ctx.params.workspace);
  // Deployed: WorkspacePolicy::adminAction alone, worded by Laravel (requireAdminAction).
  if (flavorOf(ctx.app).adminActionAlike) {
    requireAdminAction(ctx.app, ctx.caller, ws.id, UNAUTHORIZED);
    return ws;
  }
  requireAbility(ctx.caller, usersAbility(ctx.app, 'write'));
  requireAdmin(ctx.app.store, ctx.caller, ws.id, action);
  return ws;
}

/** True while an invite still counts: pending and not past valid_until. */
export function isOpenInvite(invite: Invite, now: number): boolean {
  return invite.status === 'pending' && invite.valid_until > now;
}

/**
 * Seats taken on the instance: every user account plus every address with an open invite and no
 * account yet (an invite becomes an account when accepted, so it already holds its seat).
 */
function seatsTaken(app: App, now: number): Set<string> {
  const seats = new Set<string>();
  for (const user of app.store.users.values()) seats.add(user.email.toLowerCase());
  for (const invite of app.store.invites.values()) if (isOpenInvite(invite, now)) seats.add(invite.email.toLowerCase());
  return seats;
}

/** A user left without any workspace gets a fresh "My Workspace" (docs/service-details.md, Members and invites). */
export function ensureHasWorkspace(app: App, user: User): void {
  if (app.store.workspacesOf(user.id).size > 0) return;
  app.store.createWorkspace('My Workspace', '', user.id, app.opts.now());
}

/** The member named by `:user`, or 404 when the user does not exist or is not in the workspace. */
function targetMember(ctx: Ctx, workspaceId: number): User {
  const user = ctx.app.store.users.get(numericId(ctx.params.user, 'User'));
  if (!user || !ctx.app.store.roleOf(workspaceId, user.id)) throw notFound('User is not a member of this workspace.');
  return user;
}

/** The invite named by `:invite` in this workspace; a missing or accepted one is 400 (docs/service-details.md). */
function openInviteFor(ctx: Ctx, workspaceId: number): Invite {
  const id = /^\d{1,15}$/.test(ctx.params.invite ?? '') ? Number(ctx.params.invite) : -1;
  const invite = ctx.app.store.invites.get(id);
  if (!invite || invite.workspace_id !== workspaceId) throw badRequest('Invite not found for this workspace.');
  if (invite.status === 'accepted') throw badRequest('Invite already accepted.');
  return invite;
}

/** Workspace members (list, add, remove, role, leave) and invites (list, resend, cancel). */
export function registerMembers(r: RouteTable): void {
  r.api('GET', '/open/workspaces/:workspace/users', ({ app, caller, params }) => {
    const ws = findWorkspace(app, params.workspace);
    requireAbility(caller, usersAbility(app, 'read'));
    requireMember(app.store, caller, ws.id);
    const out = [];
    for (const [userId, role] of app.store.members.get(ws.id) ?? []) {
      const user = app.store.users.get(userId);
      if (user) out.push(flavorOf(app).memberView(user, ws.id, role));
    }
    return ok(out);
  });

  r.api('POST', '/open/workspaces/:workspace/users/add', async (ctx) => {
    const { app } = ctx;
    let ws;
    if (flavorOf(app).adminActionAlike) {
      ws = findWorkspace(app, ctx.params.workspace);
      requireAdminAction(app, ctx.caller, ws.id);
    } else ws = adminWorkspace(ctx, 'add users to this workspace');
    const body = await ctx.body();
    const errors = new Errors();
    requiredEmail(errors, body);
    const role = requiredEnum(errors, body, 'role', ROLES);
    errors.throwIfAny();
    const email = (body.email as string).trim();
    const now = app.opts.now();

    const existing = app.store.userByEmail(email);
    if (existing) {
      // Spec: adding an existing instance user to another workspace does not consume a seat.
      if (app.store.roleOf(ws.id, existing.id)) return ok({ message: 'User is already in workspace.' });
      app.store.setMember(ws.id, existing.id, role!);
      return ok({ message: 'User has been successfully added to workspace.' });
    }
    if (app.store.invitesOf(ws.id).some((i) => isOpenInvite(i, now) && i.email.toLowerCase() === email.toLowerCase())) {
      throw badRequest('User has already been invited.');
    }
    const seats = seatsTaken(app, now);
    if (app.opts.community && !seats.has(email.toLowerCase()) && seats.size >= COMMUNITY_SEATS) {
      throw forbidden(
        `This Community instance has reached its ${COMMUNITY_SEATS}-user limit (Community limit: ${COMMUNITY_SEATS} users in total across the instance). Adding or inviting more users requires an Enterprise licence.`,
      );
    }
    const invite = app.store.addInvite({
      id: app.store.nextId('invite'),
      workspace_id: ws.id,
      email,
      role: role!,
      status: 'pending',
      valid_until: now + INVITE_VALIDITY_MS,
      token: randomBytes(24).toString('base64url'),
      created_at: now,
      updated_at: now,
    });
    return ok({ message: 'Registration invitation email sent to user.', invite: inviteView(invite) });
  });

  r.api('DELETE', '/open/workspaces/:workspace/users/:user/remove', (ctx) => {
    const { app } = ctx;
    const ws = adminWorkspace(ctx, 'remove users from this workspace');
    const user = targetMember(ctx, ws.id);
    app.store.removeMember(ws.id, user.id);
    ensureHasWorkspace(app, user);
    return ok({ message: 'User removed from workspace successfully.' });
  });

  r.api('PUT', '/open/workspaces/:workspace/users/:user/update-role', async (ctx) => {
    const { app } = ctx;
    const ws = adminWorkspace(ctx, 'change member roles');
    const user = targetMember(ctx, ws.id);
    const errors = new Errors();
    const role = requiredEnum(errors, await ctx.body(), 'role', ROLES);
    errors.throwIfAny();
    app.store.setMember(ws.id, user.id, role as Role);
    return ok({ message: 'User role changed successfully.' });
  });

  r.api('POST', '/open/workspaces/:workspace/leave', ({ app, caller, params }) => {
    const ws = findWorkspace(app, params.workspace);
    // Deployed: any member may leave with workspaces-read.
    requireAbility(caller, flavorOf(app).leaveAbility);
    requireMember(app.store, caller, ws.id);
    app.store.removeMember(ws.id, caller.user.id);
    ensureHasWorkspace(app, caller.user);
    // Spec: 204. Deployed: 200 with a JSON message. Neither guards the last admin or member.
    if (flavorOf(app).leaveAnswersJson) return ok({ success: true, message: 'You have left the workspace.' });
    return { status: 204 };
  });

  r.api('GET', '/open/workspaces/:workspace/invites', ({ app, caller, params }) => {
    const ws = findWorkspace(app, params.workspace);
    // Spec (latest change): listing invites needs workspaces-write and an admin; the deployed
    // server's adminAction checks the same two, worded by Laravel.
    if (flavorOf(app).adminActionAlike) requireAdminAction(app, caller, ws.id, UNAUTHORIZED);
    else {
      requireAbility(caller, 'workspaces-write');
      requireAdmin(app.store, caller, ws.id, 'list invites');
    }
    return ok(app.store.invitesOf(ws.id).map(inviteView));
  });

  r.api('POST', '/open/workspaces/:workspace/invites/:invite/resend', (ctx) => {
    const ws = adminWorkspace(ctx, 'resend invites');
    openInviteFor(ctx, ws.id);
    return ok({ message: 'Invite email resent successfully.' });
  });

  r.api('DELETE', '/open/workspaces/:workspace/invites/:invite/cancel', (ctx) => {
    const { app } = ctx;
    const ws = adminWorkspace(ctx, 'cancel invites');
    const invite = openInviteFor(ctx, ws.id);
    app.store.deleteInvite(invite.id);
    return ok({ message: 'Invite deleted successfully.' });
  });
}
