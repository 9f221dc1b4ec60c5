import { isDeepStrictEqual } from 'node:util';
import { UsageError } from '../errors.js';
import { COLOR_PATTERN, MAX_BODY_BYTES, STYLE_BOOLEANS, TITLE_MAX as SERVICE_TITLE_MAX, UPDATE_REQUIRED } from '../service/forms.js';
import { retentionProblems } from '../service/retention.js';
import { charLength } from '../service/text.js';
import { CREATE_DEFAULTS, FORM_ENUMS, isObject } from './document.js';

type Obj = Record<string, unknown>;

/** Spec limit for a new title (the deployed server allows 255 and keeps longer titles it holds; see formProblems). */
export const TITLE_MAX = SERVICE_TITLE_MAX.spec;

/**
 * The one check that `--no-validate` never skips: the service treats an empty `properties` array as
 * "delete every field" (spec, PUT rule 2), so formctl refuses to send one at all.
 */
export function assertPropertiesKept(body: Obj, mode: 'create' | 'update' = 'update'): void {
  if (!Array.isArray(body.properties) || body.properties.length === 0) {
    // A new form has no fields to lose: what is missing is its first field.
    if (mode === 'create') {
      throw new UsageError(
        'Refusing to create a form without fields: the service needs at least one in "properties".',
        'Add one, e.g. `"properties": [{"id": "name", "type": "text", "name": "Name"}]` in the file (each field needs an id), or `--field Name` with `formctl form create`.',
      );
    }
    throw new UsageError(
      Array.isArray(body.properties)
        ? 'Refusing to send an empty "properties" list: the service would delete every field of the form.'
        : 'Refusing to send a form without "properties": the service would reject or erase its fields.',
      'Keep at least one field; to change fields, edit the list returned by `formctl form pull` or `formctl form edit`.',
    );
  }
}

/**
 * Local checks of a full update body (spec rules, and the deployed service's enums); returns
 * "field: problem" lines. With `held` (the form as the service holds it), only what the change
 * touches is checked: an attribute, or a field of `properties`, equal to what the service already
 * holds is sent back as it is, whatever formctl thinks of it (a 70-character title the deployed
 * service accepted, an odd language). See docs/forms.md, "Local checks".
 */
export function formProblems(body: Obj, mode: 'create' | 'update' = 'update', held?: Obj): string[] {
  const problems: string[] = [];
  const required = mode === 'update' ? UPDATE_REQUIRED : (['title', 'visibility', 'language', 'properties'] as const);
  for (const k of required) {
    if (body[k] === undefined || body[k] === null) problems.push(`${k}: is required`);
  }
  // Unchanged attributes are dropped from the copy that is checked (required ones were checked above).
  const unchanged = (k: string) => held !== undefined && k in held && isDeepStrictEqual(held[k], body[k]);
  const checked: Obj = {};
  for (const [k, v] of Object.entries(body)) if (!unchanged(k) || k === 'properties') checked[k] = v;
  // Submission retention: the pair is checked as it will be sent, when the change touches either.
  if ('submission_retention_value' in checked || 'submission_retention_unit' in checked) problems.push(...retentionProblems(body));
  const heldProps = new Map<string, unknown>();
  if (held && Array.isArray(held.properties)) for (const p of held.properties) if (isObject(p) && typeof p.id === 'string') heldProps.set(p.id, p);
  const heldField = (p: Obj) => typeof p.id === 'string' && heldProps.has(p.id) && isDeepStrictEqual(heldProps.get(p.id), p);
  body = checked;
  if (body.title !== undefined && body.title !== null) {
    if (typeof body.title !== 'string' || body.title.trim() === '') problems.push('title: must be a non-empty string');
    else if (charLength(body.title) > TITLE_MAX) problems.push(`title: is ${charLength(body.title)} characters; the maximum is ${TITLE_MAX}`);
  }
  for (const [k, values] of Object.entries(FORM_ENUMS)) {
    const v = body[k];
    if (v !== undefined && v !== null && !values.includes(v as string)) problems.push(`${k}: "${String(v)}" is not one of ${values.join(', ')}`);
  }
  if (body.language !== undefined && body.language !== null && (typeof body.language !== 'string' || !/^[a-z]{2}$/.test(body.language))) {
    problems.push(`language: "${String(body.language)}" is not a two-letter language code such as en`);
  }
  if (body.color !== undefined && body.color !== null && (typeof body.color !== 'string' || !COLOR_PATTERN.test(body.color))) {
    problems.push(`color: "${String(body.color)}" is not a hex colour such as #3B82F6`);
  }
  for (const k of STYLE_BOOLEANS) {
    if (body[k] !== undefined && body[k] !== null && typeof body[k] !== 'boolean') problems.push(`${k}: must be true or false`);
  }
  if (Array.isArray(body.properties)) {
    if (body.properties.length === 0) problems.push('properties: must contain at least one field');
    const seen = new Set<string>();
    body.properties.forEach((p, i) => {
      if (!isObject(p)) {
        problems.push(`properties.${i}: must be an object`);
        return;
      }
      if (typeof p.id === 'string' && p.id !== '') {
        if (seen.has(p.id)) problems.push(`properties.${i}.id: "${p.id}" is used by another field`);
        seen.add(p.id);
      }
      if (heldField(p)) return;
      for (const f of ['id', 'type', 'name']) {
        if (typeof p[f] !== 'string' || (p[f] as string).trim() === '') problems.push(`properties.${i}.${f}: is required`);
      }
      if (p.required !== undefined && typeof p.required !== 'boolean') problems.push(`properties.${i}.required: must be true or false`);
    });
  } else if (body.properties !== undefined && body.properties !== null) {
    problems.push('properties: must be a list of fields');
  }
  return problems;
}

/** Throws a UsageError (exit 2) listing every local problem; nothing has been sent when it throws. */
export function assertValidForm(body: Obj, mode: 'create' | 'update' = 'update', held?: Obj): void {
  const problems = formProblems(body, mode, held);
  if (problems.length === 0) return;
  throw new UsageError(
    `The form is not valid (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was sent:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    'Fix the values, or pass --no-validate to let the service decide (an empty field list is always refused).',
  );
}

/**
 * Fills each required attribute that is missing from both the form as held and the body with the
 * create default (docs/forms.md): the deployed service requires all 14 on every update, and a form
 * it returned without one (an older record) must still be updatable. Returns the names filled.
 */
export function fillRequired(body: Obj, held: Obj): string[] {
  const filled: string[] = [];
  for (const k of UPDATE_REQUIRED) {
    if (!(k in CREATE_DEFAULTS)) continue;
    const missing = (v: unknown) => v === undefined || v === null;
    if (missing(held[k]) && missing(body[k])) {
      body[k] = CREATE_DEFAULTS[k];
      filled.push(k);
    }
  }
  return filled;
}

/**
 * The largest request body formctl sends for a form (create, update, apply): the service's limit.
 * A form definition is a few hundred kilobytes at most; beyond this the service answers 413 after
 * the upload (docs/forms.md, "Size limit").
 */
export const MAX_FORM_BODY_BYTES = MAX_BODY_BYTES;

/** Refuses (exit 2) a body the service would refuse for its size, before anything is sent. */
export function assertBodySize(body: Obj, what: string): void {
  const bytes = Buffer.byteLength(JSON.stringify(body), 'utf8');
  if (bytes <= MAX_FORM_BODY_BYTES) return;
  throw new UsageError(
    `${what} is ${(bytes / 1024 / 1024).toFixed(1)} MiB as JSON; the service takes at most ${MAX_FORM_BODY_BYTES / 1024 / 1024} MiB: nothing was sent.`,
    'A form definition is normally a few hundred KB: look for large embedded data (images as data: URLs, long texts) and link to them instead.',
  );
}
