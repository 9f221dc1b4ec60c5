import { ok } from '../context.js';
import type { Ctx, PublicCtx, RouteTable } from '../context.js';
import { forbidden, notFound } from '../errors.js';
import { isLayoutBlock } from '../form-rules.js';
import type { Form, FormProperty, Submission } from '../model.js';
import { Errors, isBlank, isObject, queryInt } from '../validation.js';
import { paginate, submissionView } from '../views.js';
import { findForm, formFor } from './common.js';

/** Properties that take answers, keyed by id (layout blocks `nf-*` take none). */
function answerable(form: Form): Map<string, FormProperty> {
  const map = new Map<string, FormProperty>();
  for (const p of form.properties) if (!isLayoutBlock(p)) map.set(p.id, p);
  return map;
}

function isRequired(p: FormProperty): boolean {
  return p.required === true && p.hidden !== true;
}

function submissionFor(ctx: Ctx, form: Form): Submission {
  const raw = ctx.params.submission ?? '';
  const sub = /^\d{1,15}$/.test(raw) ? ctx.app.store.submissionsOf(form.id).get(Number(raw)) : undefined;
  if (!sub) throw notFound('Submission not found.');
  return sub;
}

/** Case-insensitive match of `term` against any string or number value of a submission (research §1.3 `search`). */
function matches(sub: Submission, term: string): boolean {
  for (const v of Object.values(sub.data)) {
    const values = Array.isArray(v) ? v : [v];
    for (const x of values) {
      if ((typeof x === 'string' || typeof x === 'number') && String(x).toLowerCase().includes(term)) return true;
    }
  }
  return false;
}

/** Why a public form refuses answers right now, or null (research §1.3: 403 from FormPolicy@answer). */
function refusal(ctx: PublicCtx, form: Form): string | null {
  if (form.attrs.visibility === 'draft') return 'This form is a draft and does not accept submissions.';
  if (form.attrs.visibility === 'closed') return 'This form is closed and does not accept submissions.';
  const closesAt = form.attrs.closes_at as string | null;
  if (closesAt !== null && Date.parse(closesAt) <= ctx.app.opts.now()) return 'This form is closed and does not accept submissions.';
  const max = form.attrs.max_submissions_count as number | null;
  if (max !== null && ctx.app.store.submissionsOf(form.id).size >= max) return 'This form has reached its maximum number of submissions.';
  return null;
}

/** Submissions: list, patch, delete, and the public answer endpoint that creates them. */
export function registerSubmissions(r: RouteTable): void {
  r.api('GET', '/open/forms/:form/submissions', (ctx) => {
    const form = formFor(ctx, 'forms-read');
    const q = ctx.url.searchParams;
    // Newest first, as the deployed server orders them (research §1.3).
    let subs = [...ctx.app.store.submissionsOf(form.id).values()].reverse();
    const term = q.get('search')?.trim().toLowerCase();
    if (term) subs = subs.filter((s) => matches(s, term));
    // Every sandbox submission is complete, so `status=partial` matches none (research: completed/partial/all).
    if (q.get('status') === 'partial') subs = [];
    // FIDELITY: a bare array unless the caller asks for pages; then per_page default 100, clamped 1..100.
    if (!q.has('page') && !q.has('per_page')) return ok(subs.map(submissionView));
    const perPage = Math.min(Math.max(queryInt(q.get('per_page'), 100), 1), 100);
    return ok(paginate(subs, queryInt(q.get('page'), 1), perPage, ctx.app, ctx.url, submissionView));
  });

  r.api('PUT', '/open/forms/:form/submissions/:submission', async (ctx) => {
    const form = formFor(ctx, 'submissions-write', 'edit submissions');
    const sub = submissionFor(ctx, form);
    const body = await ctx.body();
    const errors = new Errors();
    const props = answerable(form);
    if (!isObject(body.data)) errors.add('data', 'The data field is required and must be an object of field values.');
    else {
      for (const [key, value] of Object.entries(body.data)) {
        const p = props.get(key);
        if (!p) errors.add(`data.${key}`, `'${key}' is not a field of this form.`);
        else if (isRequired(p) && isBlank(value)) errors.add(`data.${key}`, `The ${p.name} field is required.`);
      }
    }
    errors.throwIfAny();
    // Spec: `data` holds the fields to patch; everything else is kept.
    Object.assign(sub.data, body.data);
    ctx.app.store.changed();
    return ok({ message: 'Record successfully updated.', data: submissionView(sub) });
  });

  r.api('DELETE', '/open/forms/:form/submissions/:submission', (ctx) => {
    // Research §1.2: deleting a submission needs forms-write (the spec does not show this endpoint).
    const form = formFor(ctx, 'forms-write', 'delete submissions');
    const sub = submissionFor(ctx, form);
    ctx.app.store.deleteSubmission(form.id, sub.id);
    return ok({ message: 'Record successfully removed.' });
  });

  r.open('POST', '/forms/:form/answer', async (ctx) => {
    const { app } = ctx;
    const form = findForm(app, ctx.params.form);
    const why = refusal(ctx, form);
    if (why) throw forbidden(why);
    const body = await ctx.body();
    const errors = new Errors();
    const data: Record<string, unknown> = {};
    for (const [id, p] of answerable(form)) {
      const value = body[id];
      if (isRequired(p) && isBlank(value)) errors.add(id, `The ${p.name} field is required.`);
      else if (value !== undefined) data[id] = value;
    }
    errors.throwIfAny();
    const sub = app.store.addSubmission({ id: app.store.nextId('submission'), form_id: form.id, data, created_at: app.opts.now() });
    app.dispatcher.submissionCreated(form, sub);
    return ok({
      type: 'success',
      message: 'Form submission saved.',
      submission_id: String(sub.id),
      is_first_submission: app.store.submissionsOf(form.id).size === 1,
      redirect: false,
    });
  });
}
