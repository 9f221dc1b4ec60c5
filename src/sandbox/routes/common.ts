import { requireAbility, requireMember, requireWriter } from '../auth.js';
import type { App, Ctx } from '../context.js';
import { notFound } from '../errors.js';
import type { Ability, Form, Workspace } from '../model.js';

/** A numeric path id, or 404 (the deployed server casts non-numbers to 0, which is never found). */
export function numericId(raw: string | undefined, what: string): number {
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw notFound(`${what} not found.`);
  return Number(raw);
}

/** The workspace named by a path parameter, or 404. */
export function findWorkspace(app: App, raw: string | undefined): Workspace {
  const ws = app.store.workspaces.get(numericId(raw, 'Workspace'));
  if (!ws) throw notFound('Workspace not found.');
  return ws;
}

/** The form named by a path parameter (numeric id or slug), or 404. */
export function findForm(app: App, raw: string | undefined): Form {
  const form = raw === undefined ? undefined : app.store.findForm(raw);
  if (!form) throw notFound('Form not found.');
  return form;
}

/**
 * Resolves the `:form` parameter and applies the usual order of checks: 404 for an unknown form,
 * then 403 for the ability, then 403 for membership (and, when `writeAction` is given, for a
 * read-only role). This mirrors the deployed order: route binding before policy (docs/service-details.md, Authorization order).
 */
export function formFor(ctx: Ctx, ability: Ability, writeAction?: string): Form {
  const form = findForm(ctx.app, ctx.params.form);
  requireAbility(ctx.caller, ability);
  if (writeAction) requireWriter(ctx.app.store, ctx.caller, form.workspace_id, writeAction);
  else requireMember(ctx.app.store, ctx.caller, form.workspace_id);
  return form;
}
