import { randomUUID } from 'node:crypto';
import { ok } from '../context.js';
import type { App, Ctx, PublicCtx, RouteTable } from '../context.js';
import { closedToTokens, deployedSubmissionView, emptyAnswer, isFileType, laravelInput, storedFileNames, storedFileValue } from '../deployed.js';
import { forbidden, notFound, validationFailed } from '../errors.js';
import { flavorOf } from '../flavor.js';
import { isLayoutBlock } from '../../service/forms.js';
import type { Form, FormProperty, Submission } from '../model.js';
import { Errors, isBlank, isObject, queryInt } from '../validation.js';
import { paginate, submissionView } from '../views.js';
import { findForm, formFor } from './common.js';
import { MAX_PER_PAGE } from '../../service/limits.js';

/** Properties that take answers, keyed by id (layout blocks `nf-*` take none). */
function answerable(form: Form): Map<string, FormProperty> {
  const map = new Map<string, FormProperty>();
  for (const p of form.properties) if (!isLayoutBlock(p)) map.set(p.id, p);
  return map;
}

function isRequired(p: FormProperty): boolean {
  return p.required === true && p.hidden !== true;
}

/**
 * Deployed flavour: a multi-select answer must be a list. The server's rules give a multi-select
 * Laravel's `array` rule (OpnForm api/app/Http/Requests/AnswerFormRequest.php:113-114), after
 * `nullable` and with empty strings turned to null (api/app/Http/Kernel.php:46); a JSON object is a
 * PHP array and passes. The message is api/resources/lang/en/validation.php:23 with the field's name.
 * Each item has rules of its own under `<id>.*` (AnswerFormRequest.php:124): the option check
 * (`in_array(…, options, true)`, :225-231), or `string` when the field takes new options (:221-222).
 * Neither is `nullable`, so an item that arrives as null (a blank string, after the middleware) fails
 * it: "The selected <id>.<n> is invalid." (validation.php:60) or "The <id>.<n> must be a valid text."
 * (validation.php:115), naming the item's raw path, as Laravel does for a path it expanded from a
 * wildcard. Those errors go to `items`: Laravel appends the expanded rules after all the others.
 */
function checkMultiSelect(app: App, errors: Errors, items: Errors, id: string, p: FormProperty, value: unknown): void {
  if (!flavorOf(app).multiSelectTakesList || p.type !== 'multi_select' || isBlank(value)) return;
  if (!Array.isArray(value) && !isObject(value)) {
    errors.add(id, `The ${p.name} must be an array.`);
    return;
  }
  for (const [n, item] of Object.entries(value)) {
    if (item !== null) continue;
    const path = `${id}.${n}`;
    items.add(path, p.allow_creation === true ? `The ${path} must be a valid text.` : `The selected ${path} is invalid.`);
  }
}

/**
 * The submission named by the path. Spec flavour: digits only. Deployed flavour: the id as PHP and
 * MySQL coerce a string, its numeric prefix ("4b2e…" is submission 4, "e3b0…" is 0: none).
 */
function submissionFor(ctx: Ctx, form: Form): Submission {
  const raw = ctx.params.submission ?? '';
  const id = flavorOf(ctx.app).pathId(raw);
  const sub = id > 0 ? ctx.app.store.submissionsOf(form.id).get(id) : undefined;
  if (!sub) throw notFound(flavorOf(ctx.app).missingSubmission);
  return sub;
}

/**
 * Deployed submission update (docs/service.md): the body's top-level keys that are field ids of the
 * form REPLACE the stored answers; `data` is not read. A captcha form is always 422; `is_partial: true`
 * on a form that takes partial submissions empties the rules, so the answers are wiped; a visible required field must be present;
 * completion_time becomes what was sent (else null); the status becomes completed; file answers
 * survive only as strings; answers to removed fields, and to fields whose id holds a `.` or `*`, are
 * dropped. Every active integration fires again.
 */
function deployedUpdate(ctx: Ctx, form: Form, sub: Submission, sent: Record<string, unknown>): void {
  const body = flavorOf(ctx.app).blankStringsAreNull ? laravelInput(sent) : sent;
  if (form.attrs.use_captcha === true) {
    throw validationFailed({ 'h-captcha-response': ['Please complete the captcha.'] });
  }
  const validated: Record<string, unknown> = {};
  // The server's rules() are empty only for `is_partial` read as true by Laravel's boolean() on a form
  // that takes partial submissions; `is_partial` itself has no rule, so it never reaches the stored record.
  const partialBody = laravelTrue(body.is_partial) && form.attrs.enable_partial_submissions === true;
  if (!partialBody) {
    const errors = new Errors();
    const items = new Errors();
    for (const [id, p] of answerable(form)) {
      const present = !laravelNested(id) && Object.hasOwn(body, id) && !isBlank(body[id]);
      if (isRequired(p) && !present) errors.add(id, `The ${p.name} field is required.`);
      else if (!laravelNested(id) && Object.hasOwn(body, id)) {
        checkMultiSelect(ctx.app, errors, items, id, p, body[id]);
        validated[id] = body[id];
      }
    }
    const ct = body.completion_time;
    if (ct !== undefined && ct !== null && !Number.isInteger(ct)) errors.add('completion_time', 'The completion time field must be an integer.');
    errors.addAll(items);
    errors.throwIfAny();
  }
  const props = answerable(form);
  const stored = storedFileNames(form, ctx.app.store.submissionsOf(form.id).values());
  const data: Record<string, unknown> = {};
  for (const [id, value] of Object.entries(validated)) {
    const p = props.get(id)!;
    data[id] = isFileType(p) ? storedFileValue(ctx.app, p, value, stored) : value;
  }
  // Files the update drops from the answers stay in the server's storage.
  const before = storedFileNames(form, [sub]);
  const after = storedFileNames(form, [{ ...sub, files: [], data }]);
  const kept = [...before].filter((n) => !after.has(n));
  if (kept.length > 0) sub.files = kept;
  else delete sub.files;
  sub.data = data;
  sub.completion_time = !partialBody && Number.isInteger(body.completion_time) ? (body.completion_time as number) : null;
  sub.status = 'completed';
  ctx.app.store.changed();
  ctx.app.dispatcher.submissionCreated(form, sub);
}

/**
 * A field id with a `.` or `*`: the server's validation rules are keyed by field id, Laravel reads a
 * dot (or star) in a rule's key as a path into nested input, and it escapes those characters in the
 * request's own keys; so the answer never matches its rule and never reaches the validated data it
 * stores: a required field fails as missing, any other is dropped (docs/service.md).
 */
function laravelNested(fieldId: string): boolean {
  return /[.*]/.test(fieldId);
}

/** Laravel's `$request->boolean()`: true for true, 1, "1", "true", "on" and "yes" (any case). */
function laravelTrue(v: unknown): boolean {
  return v === true || v === 1 || (typeof v === 'string' && /^(1|true|on|yes)$/i.test(v.trim()));
}

/** Case-insensitive match of `term` against any string or number value of a submission (docs/service-details.md, Submissions). */
function matches(sub: Submission, term: string): boolean {
  for (const v of Object.values(sub.data)) {
    const values = Array.isArray(v) ? v : [v];
    for (const x of values) {
      if ((typeof x === 'string' || typeof x === 'number') && String(x).toLowerCase().includes(term)) return true;
    }
  }
  return false;
}

/** Why a public form refuses answers right now, or null (docs/service-details.md, Submissions: 403). */
function refusal(ctx: PublicCtx, form: Form): string | null {
  if (form.attrs.visibility === 'draft') return 'This form is a draft and does not accept submissions.';
  if (form.attrs.visibility === 'closed') return 'This form is closed and does not accept submissions.';
  const closesAt = form.attrs.closes_at as string | null;
  if (closesAt !== null && Date.parse(closesAt) <= ctx.app.opts.now()) return 'This form is closed and does not accept submissions.';
  const max = form.attrs.max_submissions_count as number | null;
  if (max !== null && ctx.app.store.submissionsOf(form.id).size >= max) return 'This form has reached its maximum number of submissions.';
  return null;
}

/** List requests answered with unstable ties, per sandbox: how far each same-second group turns. */
const tieTurns = new WeakMap<App, number>();

/**
 * The deployed list orders by `created_at` to the second alone, and SQL leaves ties in no set order,
 * so two page requests may disagree about them (docs/service.md, "Submissions"). With `unstableTies`
 * the sandbox shows it deterministically: newest second first, and each second's submissions in id
 * order (newest first) turned by one more place on every list request, so a group that straddles a
 * page boundary puts one of them on both pages and leaves another off both.
 */
function turnTies(app: App, subs: Submission[]): Submission[] {
  const turn = (tieTurns.get(app) ?? 0) + 1;
  tieTurns.set(app, turn);
  const second = (s: Submission) => Math.floor(s.created_at / 1000);
  const sorted = [...subs].sort((a, b) => second(b) - second(a) || b.id - a.id);
  const out: Submission[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && second(sorted[j]!) === second(sorted[i]!)) j++;
    const group = sorted.slice(i, j);
    const k = turn % group.length;
    out.push(...group.slice(k), ...group.slice(0, k));
    i = j;
  }
  return out;
}

/** Submissions: list, patch, delete, and the public answer endpoint that creates them. */
export function registerSubmissions(r: RouteTable): void {
  r.api('GET', '/open/forms/:form/submissions', (ctx) => {
    const form = formFor(ctx, 'forms-read');
    const q = ctx.url.searchParams;
    // Newest first, as the deployed server orders them.
    let subs = [...ctx.app.store.submissionsOf(form.id).values()].reverse();
    const term = q.get('search')?.trim().toLowerCase();
    if (term) subs = subs.filter((s) => matches(s, term));
    if (flavorOf(ctx.app).laravelSubmissionList) {
      // Always the envelope; per_page min(n, 100), and 0 or absent falls back (100 by the route, 15 for 0).
      const status = q.get('status');
      if (status === 'partial') subs = subs.filter((s) => s.status === 'partial');
      else if (status === 'completed') subs = subs.filter((s) => s.status !== 'partial');
      const asked = q.has('per_page') ? queryInt(q.get('per_page'), MAX_PER_PAGE) : MAX_PER_PAGE;
      const perPage = asked <= 0 ? 15 : Math.min(asked, MAX_PER_PAGE);
      if (ctx.app.opts.unstableTies) subs = turnTies(ctx.app, subs);
      return ok(paginate(subs, queryInt(q.get('page'), 1), perPage, ctx.app, ctx.url, (s) => deployedSubmissionView(ctx.app, form, s)));
    }
    // Every sandbox submission is complete, so `status=partial` matches none (docs/service-details.md, Submissions).
    if (q.get('status') === 'partial') subs = [];
    // docs/service-details.md, Pagination: a bare array unless the caller asks for pages; then per_page default 100, clamped 1..100.
    if (!q.has('page') && !q.has('per_page')) return ok(subs.map(submissionView));
    const perPage = Math.min(Math.max(queryInt(q.get('per_page'), MAX_PER_PAGE), 1), MAX_PER_PAGE);
    return ok(paginate(subs, queryInt(q.get('page'), 1), perPage, ctx.app, ctx.url, submissionView));
  });

  if (r.flavor === 'deployed') {
    // The single-submission GET exists but is not open to personal access tokens.
    r.api('GET', '/open/forms/:form/submissions/:submission', () => {
      throw closedToTokens();
    });
  }

  r.api('PUT', '/open/forms/:form/submissions/:submission', async (ctx) => {
    // The deployed server has no submissions-write ability: editing answers needs forms-write.
    const form = formFor(ctx, flavorOf(ctx.app).ability('submissions-write'), 'edit submissions');
    const sub = submissionFor(ctx, form);
    const body = await ctx.body();
    if (flavorOf(ctx.app).submissionUpdateRebuilds) {
      deployedUpdate(ctx, form, sub, body);
      // The update moves `updated_at`, and so restarts the submission's retention clock (docs/service.md, "Retention").
      sub.updated_at = ctx.app.opts.now();
      return ok({ type: 'success', message: 'Record successfully updated.', data: deployedSubmissionView(ctx.app, form, sub) });
    }
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
    sub.updated_at = ctx.app.opts.now();
    ctx.app.store.changed();
    return ok({ message: 'Record successfully updated.', data: submissionView(sub) });
  });

  r.api('DELETE', '/open/forms/:form/submissions/:submission', (ctx) => {
    // docs/service-details.md, Authorization order: deleting a submission needs forms-write (the spec does not show this endpoint).
    const form = formFor(ctx, 'forms-write', 'delete submissions');
    const sub = submissionFor(ctx, form);
    ctx.app.store.deleteSubmission(form.id, sub.id);
    return ok({ ...(flavorOf(ctx.app).successType ? { type: 'success' } : {}), message: 'Record successfully removed.' });
  });

  r.open('POST', '/forms/:form/answer', async (ctx) => {
    const { app } = ctx;
    const form = findForm(app, ctx.params.form);
    const why = refusal(ctx, form);
    if (why) throw forbidden(why);
    const sent = await ctx.body();
    const body = flavorOf(app).blankStringsAreNull ? laravelInput(sent) : sent;
    const errors = new Errors();
    const items = new Errors();
    const data: Record<string, unknown> = {};
    // Deployed flavour: `is_partial: true` saves an unfinished answer (no required check), status partial.
    const partial = flavorOf(app).partialAnswers && body.is_partial === true;
    const leaveOutBlanks = flavorOf(app).createLeavesOutBlanks && form.attrs.clear_empty_fields_on_update !== true;
    for (const [id, p] of answerable(form)) {
      const value = flavorOf(app).nestedIdsUnanswered && laravelNested(id) ? undefined : body[id];
      if (!partial && isRequired(p) && isBlank(value)) errors.add(id, `The ${p.name} field is required.`);
      else if (value !== undefined) {
        if (!partial) checkMultiSelect(app, errors, items, id, p, value);
        if (!(leaveOutBlanks && emptyAnswer(value))) data[id] = value;
      }
    }
    // Deployed flavour: completion_time (seconds) is validated and kept; the spec flavour drops it like any unknown key.
    const ct = flavorOf(app).keepsCompletionTime ? body.completion_time : undefined;
    if (ct !== undefined && ct !== null && !Number.isInteger(ct)) errors.add('completion_time', 'The completion time field must be an integer.');
    errors.addAll(items);
    errors.throwIfAny();
    const sub = app.store.addSubmission({
      id: app.store.nextId('submission'),
      form_id: form.id,
      data,
      created_at: app.opts.now(),
      uuid: randomUUID(),
      status: partial ? 'partial' : 'completed',
      completion_time: Number.isInteger(ct) ? (ct as number) : null,
    });
    app.dispatcher.submissionCreated(form, sub);
    return ok({
      type: 'success',
      message: 'Form submission saved.',
      submission_id: flavorOf(app).answerNamesUuid ? sub.uuid : String(sub.id),
      is_first_submission: app.store.submissionsOf(form.id).size === 1,
      redirect: false,
    });
  });
}
