import { UsageError } from '../errors.js';
import { FORM_ENUMS, UPDATE_REQUIRED, isObject } from './document.js';

type Obj = Record<string, unknown>;

/** Spec limit (the deployed server allows 255; `--no-validate` lets a longer title through). */
export const TITLE_MAX = 60;

const BOOLEANS = ['uppercase_labels', 'no_branding', 'transparent_background'];

/**
 * The one check that `--no-validate` never skips: the service treats an empty `properties` array as
 * "delete every field" (spec, PUT rule 2), so formctl refuses to send one at all.
 */
export function assertPropertiesKept(body: Obj): void {
  if (!Array.isArray(body.properties) || body.properties.length === 0) {
    throw new UsageError(
      Array.isArray(body.properties)
        ? 'Refusing to send an empty "properties" list: the service would delete every field of the form.'
        : 'Refusing to send a form without "properties": the service would reject or erase its fields.',
      'Keep at least one field; to change fields, edit the list returned by `formctl form pull` or `formctl form edit`.',
    );
  }
}

/** Local checks of a full update body (spec and FIDELITY rules); returns "field: problem" lines. */
export function formProblems(body: Obj, mode: 'create' | 'update' = 'update'): string[] {
  const problems: string[] = [];
  const required = mode === 'update' ? UPDATE_REQUIRED : (['title', 'visibility', 'language', 'properties'] as const);
  for (const k of required) {
    if (body[k] === undefined || body[k] === null) problems.push(`${k}: is required`);
  }
  if (body.title !== undefined && body.title !== null) {
    if (typeof body.title !== 'string' || body.title.trim() === '') problems.push('title: must be a non-empty string');
    else if ([...body.title].length > TITLE_MAX) problems.push(`title: is ${[...body.title].length} characters; the maximum is ${TITLE_MAX}`);
  }
  for (const [k, values] of Object.entries(FORM_ENUMS)) {
    const v = body[k];
    if (v !== undefined && v !== null && !values.includes(v as string)) problems.push(`${k}: "${String(v)}" is not one of ${values.join(', ')}`);
  }
  if (body.language !== undefined && body.language !== null && (typeof body.language !== 'string' || !/^[a-z]{2}$/.test(body.language))) {
    problems.push(`language: "${String(body.language)}" is not a two-letter language code such as en`);
  }
  if (body.color !== undefined && body.color !== null && (typeof body.color !== 'string' || !/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(body.color))) {
    problems.push(`color: "${String(body.color)}" is not a hex colour such as #3B82F6`);
  }
  for (const k of BOOLEANS) {
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
      for (const f of ['id', 'type', 'name']) {
        if (typeof p[f] !== 'string' || (p[f] as string).trim() === '') problems.push(`properties.${i}.${f}: is required`);
      }
      if (p.required !== undefined && typeof p.required !== 'boolean') problems.push(`properties.${i}.required: must be true or false`);
      if (typeof p.id === 'string' && p.id !== '') {
        if (seen.has(p.id)) problems.push(`properties.${i}.id: "${p.id}" is used by another field`);
        seen.add(p.id);
      }
    });
  } else if (body.properties !== undefined && body.properties !== null) {
    problems.push('properties: must be a list of fields');
  }
  return problems;
}

/** Throws a UsageError (exit 2) listing every local problem; nothing has been sent when it throws. */
export function assertValidForm(body: Obj, mode: 'create' | 'update' = 'update'): void {
  const problems = formProblems(body, mode);
  if (problems.length === 0) return;
  throw new UsageError(
    `The form is not valid (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was sent:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    'Fix the values, or pass --no-validate to let the service decide (an empty field list is always refused).',
  );
}
