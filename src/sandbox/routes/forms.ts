import { randomBytes } from 'node:crypto';
import { requireAbility, requireMember } from '../auth.js';
import { ok } from '../context.js';
import type { App, RouteTable } from '../context.js';
import { forbidden } from '../errors.js';
import { flavorOf } from '../flavor.js';
import { validateFormInput } from '../form-rules.js';
import type { Form, FormProperty } from '../model.js';
import { Errors, queryInt } from '../validation.js';
import { formFull, formSummary, paginate } from '../views.js';
import { findWorkspace, formFor } from './common.js';
import { nextRemovedProperties } from '../../service/export.js';
import { MAX_PER_PAGE } from '../../service/limits.js';

/** A unique, URL-safe slug from a title, e.g. "Contact us!" → "contact-us-3f9a1c"; never all digits. */
export function newSlug(app: App, title: string): string {
  const base =
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'form';
  for (;;) {
    const slug = `${base}-${randomBytes(3).toString('hex')}`;
    if (!app.store.formsBySlug.has(slug)) return slug;
  }
}

/** Creates a form record from validated input (used by POST /open/forms and by the seed). */
export function createForm(app: App, workspaceId: number, attrs: Record<string, unknown>, properties: FormProperty[]): Form {
  const now = app.opts.now();
  return app.store.addForm({
    id: app.store.nextId('form'),
    workspace_id: workspaceId,
    slug: newSlug(app, String(attrs.title)),
    attrs,
    properties,
    views_count: 0,
    created_at: now,
    updated_at: now,
  });
}

/** Forms: workspace list, deprecated list, create, get, update, delete. */
export function registerForms(r: RouteTable): void {
  r.api('GET', '/open/workspaces/:workspace/forms', ({ app, caller, params, url }) => {
    const ws = findWorkspace(app, params.workspace);
    requireAbility(caller, 'forms-read');
    requireMember(app.store, caller, ws.id);
    const forms: Form[] = [];
    for (const id of app.store.workspaceForms.get(ws.id) ?? []) forms.push(app.store.forms.get(id)!);
    // Newest edit first; id breaks ties so the order is stable (docs/service-details.md, Pagination).
    forms.sort((a, b) => b.updated_at - a.updated_at || b.id - a.id);
    // per_page default 10, clamped to 1..100 as the deployed server does (docs/service-details.md).
    const perPage = Math.min(Math.max(queryInt(url.searchParams.get('per_page'), 10), 1), MAX_PER_PAGE);
    const page = queryInt(url.searchParams.get('page'), 1);
    return ok(paginate(forms, page, perPage, app, url, (f) => formSummary(app, f)));
  });

  r.api('GET', '/open/forms', ({ app, caller }) => {
    requireAbility(caller, 'forms-read');
    // Deprecated endpoint: a bare array of full forms across the caller's workspaces (docs/service-details.md, Pagination).
    const out = [];
    for (const wsId of [...app.store.workspacesOf(caller.user.id)].sort((a, b) => a - b)) {
      for (const id of app.store.workspaceForms.get(wsId) ?? []) out.push(formFull(app, app.store.forms.get(id)!));
    }
    return ok(out);
  });

  r.api('POST', '/open/forms', async (ctx) => {
    const { app, caller } = ctx;
    requireAbility(caller, 'forms-write');
    const body = await ctx.body();
    const errors = new Errors();
    const wsId = body.workspace_id;
    const ws = typeof wsId === 'number' || (typeof wsId === 'string' && /^\d+$/.test(wsId)) ? app.store.workspaces.get(Number(wsId)) : undefined;
    if (wsId === undefined || wsId === null || wsId === '') errors.add('workspace_id', 'The workspace id field is required.');
    else if (!ws) errors.add('workspace_id', 'The selected workspace id is invalid.');
    else {
      // Permission comes before the other field errors: a non-member learns nothing about the body.
      const role = requireMember(app.store, caller, ws.id);
      if (role === 'readonly') throw forbidden('Read-only members cannot create forms.');
    }
    // The deployed server requires all 14 fields on create too (the spec: 5, the rest defaulted).
    const input = validateFormInput(flavorOf(app).formInput(body), flavorOf(app).formCreateRules, errors, undefined, flavorOf(app).titleMax);
    errors.throwIfAny();
    const form = createForm(app, ws!.id, input.attrs, input.properties);
    if (flavorOf(app).formAnswerEnvelope) {
      const first = [...app.store.workspacesOf(caller.user.id)].every((id) => [...(app.store.workspaceForms.get(id) ?? [])].every((f) => f === form.id));
      return ok({ type: 'success', message: 'Form saved.', form: formFull(app, form), users_first_form: first });
    }
    return ok(formFull(app, form), 201);
  });

  r.api('GET', '/open/forms/:form', (ctx) => ok(formFull(ctx.app, formFor(ctx, 'forms-read'))));

  r.api('PUT', '/open/forms/:form', async (ctx) => {
    const form = formFor(ctx, 'forms-write', 'edit forms');
    const errors = new Errors();
    const input = validateFormInput(flavorOf(ctx.app).formInput(await ctx.body()), 'update', errors, form.attrs, flavorOf(ctx.app).titleMax);
    errors.throwIfAny();
    form.attrs = input.attrs;
    // As the deployed server does (OpnForm `api/app/Service/Forms/FormUpdateService.php:21-27`): the
    // fields this update drops join `removed_properties`, which export columns may still name.
    form.removed_properties = nextRemovedProperties(form.removed_properties ?? [], form.properties, input.properties);
    form.properties = input.properties;
    // Keep updated_at strictly increasing so "changed since read" checks never miss an edit.
    form.updated_at = Math.max(ctx.app.opts.now(), form.updated_at + 1);
    ctx.app.store.changed();
    if (flavorOf(ctx.app).formAnswerEnvelope) return ok({ type: 'success', message: 'Form updated.', form: formFull(ctx.app, form) });
    return ok(formFull(ctx.app, form));
  });

  r.api('DELETE', '/open/forms/:form', (ctx) => {
    const form = formFor(ctx, 'forms-write', 'delete forms');
    ctx.app.store.deleteForm(form.id);
    return ok({ ...(flavorOf(ctx.app).successType ? { type: 'success' } : {}), message: 'Form was deleted.' });
  });
}
