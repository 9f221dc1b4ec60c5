import { requireAbility, requireAdmin, requireWriter } from '../auth.js';
import { ok } from '../context.js';
import type { RouteTable } from '../context.js';
import { forbidden } from '../errors.js';
import { flavorOf } from '../flavor.js';
import { requireAdminAction } from '../deployed.js';
import { Errors, requiredString } from '../validation.js';
import { workspaceView } from '../views.js';
import { findWorkspace } from './common.js';

/** Reads the optional `emoji` (spec: sent as `emoji`, returned as `icon`; blank clears it). */
function emojiOf(errors: Errors, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (v === null) return '';
  if (typeof v !== 'string') {
    errors.add('emoji', 'The emoji field must be a string.');
    return undefined;
  }
  return v.trim();
}

/** Workspace list, create, update and delete. */
export function registerWorkspaces(r: RouteTable): void {
  r.api('GET', '/open/workspaces', ({ app, caller }) => {
    requireAbility(caller, 'workspaces-read');
    const out = [];
    for (const id of app.store.workspacesOf(caller.user.id)) {
      const ws = app.store.workspaces.get(id);
      if (ws) out.push(workspaceView(ws, app.store.roleOf(id, caller.user.id)));
    }
    return ok(out.sort((a, b) => (a.id as number) - (b.id as number)));
  });

  r.api('POST', '/open/workspaces/create', async (ctx) => {
    const { app, caller } = ctx;
    requireAbility(caller, 'workspaces-write');
    const body = await ctx.body();
    const errors = new Errors();
    const name = requiredString(errors, body, 'name');
    const icon = emojiOf(errors, body.emoji);
    errors.throwIfAny();
    const ws = app.store.createWorkspace(name!, icon ?? '', caller.user.id, app.opts.now());
    return ok({ message: 'Workspace created.', workspace_id: ws.id, workspace: workspaceView(ws, 'admin') });
  });

  r.api('PUT', '/open/workspaces/:workspace', async (ctx) => {
    const { app, caller } = ctx;
    const ws = findWorkspace(app, ctx.params.workspace);
    requireAbility(caller, 'workspaces-write');
    // The deployed server lets any member with write access update a workspace; the spec needs an admin.
    if (flavorOf(app).workspaceUpdateBy === 'writer') requireWriter(app.store, caller, ws.id, 'update this workspace');
    else requireAdmin(app.store, caller, ws.id, 'update this workspace');
    const body = await ctx.body();
    const errors = new Errors();
    const name = requiredString(errors, body, 'name');
    const icon = emojiOf(errors, body.emoji);
    errors.throwIfAny();
    ws.name = name!;
    // Spec: emoji is optional and a blank value clears the icon; an absent emoji keeps it.
    // Deployed: `icon = emoji ?? ''`, so an absent emoji clears it too.
    if (icon !== undefined) ws.icon = icon;
    else if (flavorOf(app).absentEmojiClearsIcon) ws.icon = '';
    ws.updated_at = app.opts.now();
    app.store.changed();
    return ok({ message: 'Workspace updated.', workspace: workspaceView(ws, 'admin', false) });
  });

  r.api('DELETE', '/open/workspaces/:workspace', ({ app, caller, params }) => {
    const ws = findWorkspace(app, params.workspace);
    if (flavorOf(app).adminActionAlike) requireAdminAction(app, caller, ws.id);
    else {
      requireAbility(caller, 'workspaces-write');
      requireAdmin(app.store, caller, ws.id, 'delete this workspace');
    }
    // The caller's last workspace cannot be deleted (docs/service-details.md, Authorization order).
    if (app.store.workspacesOf(caller.user.id).size <= 1) {
      throw forbidden('You cannot delete your last workspace. Delete your account instead.');
    }
    app.store.deleteWorkspace(ws.id);
    return ok({ ...(flavorOf(app).successType ? { type: 'success' } : {}), message: 'Workspace successfully deleted.', workspace_id: ws.id });
  });
}
