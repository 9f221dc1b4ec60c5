import { COLOR_PATTERN, LANGUAGES, type OptionalAttribute, STYLE_BOOLEANS, STYLE_DEFAULTS, STYLE_ENUMS, TITLE_MAX, VISIBILITIES } from '../service/forms.js';
import { RETENTION_MAX, RETENTION_MIN, RETENTION_UNITS } from '../service/retention.js';
import type { FormProperty } from './model.js';
import { Errors, charLength, isBlank, isObject, label, requiredEnum, requiredString } from './validation.js';

export { TITLE_MAX } from '../service/forms.js';

type Optional =
  | { kind: 'string'; max?: number; default: string | null }
  | { kind: 'bool'; default: boolean }
  | { kind: 'url' }
  | { kind: 'date' }
  | { kind: 'int'; min: number }
  | { kind: 'tags' }
  | { kind: 'object' }
  | { kind: 'array' };

/**
 * Optional writable attributes ("description, logo_picture and further optional fields" in the spec),
 * with the deployed server's rules (docs/service-details.md, Forms) and the defaults a new form gets.
 * Keys not listed here or among the 14 update fields are ignored, as the deployed server keeps only validated keys,
 * so a fetched form (with id, share_url, counts…) can be sent back unchanged.
 */
const OPTIONAL: Record<OptionalAttribute, Optional> = {
  description: { kind: 'string', max: 2000, default: null },
  tags: { kind: 'tags' },
  font_family: { kind: 'string', default: null },
  layout_rtl: { kind: 'bool', default: false },
  closes_at: { kind: 'date' },
  closed_text: { kind: 'string', default: null },
  logo_picture: { kind: 'url' },
  cover_picture: { kind: 'url' },
  submit_button_text: { kind: 'string', max: 50, default: 'Submit' },
  submitted_text: { kind: 'string', max: 10000, default: 'Amazing, we saved your answers. Thank you for your time and have a great day!' },
  re_fillable: { kind: 'bool', default: false },
  re_fill_button_text: { kind: 'string', max: 50, default: 'Fill Again' },
  redirect_url: { kind: 'string', default: null },
  max_submissions_count: { kind: 'int', min: 1 },
  max_submissions_reached_text: { kind: 'string', default: null },
  editable_submissions: { kind: 'bool', default: false },
  editable_submissions_button_text: { kind: 'string', max: 50, default: 'Edit submission' },
  confetti_on_submission: { kind: 'bool', default: false },
  show_progress_bar: { kind: 'bool', default: false },
  auto_save: { kind: 'bool', default: false },
  auto_focus: { kind: 'bool', default: false },
  enable_partial_submissions: { kind: 'bool', default: false },
  use_captcha: { kind: 'bool', default: false },
  can_be_indexed: { kind: 'bool', default: true },
  password: { kind: 'string', default: null },
  custom_code: { kind: 'string', default: null },
  seo_meta: { kind: 'object' },
  // Further optional attributes the deployed server validates and stores (docs/service-details.md, Forms).
  settings: { kind: 'object' },
  cover_settings: { kind: 'object' },
  translations: { kind: 'array' },
  computed_variables: { kind: 'array' },
  database_fields_update: { kind: 'array' },
  custom_css: { kind: 'string', default: null },
  pdf_download_enabled: { kind: 'bool', default: false },
  pdf_download_button_text: { kind: 'string', max: 50, default: 'Download PDF' },
  enable_ip_tracking: { kind: 'bool', default: false },
  clear_empty_fields_on_update: { kind: 'bool', default: false },
};

function optionalDefault(spec: Optional): unknown {
  switch (spec.kind) {
    case 'string':
    case 'bool':
      return spec.default;
    case 'tags':
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}

function checkOptional(errors: Errors, key: string, spec: Optional, v: unknown): unknown {
  const name = label(key);
  switch (spec.kind) {
    case 'bool':
      if (typeof v !== 'boolean') errors.add(key, `The ${name} field must be true or false.`);
      return v;
    case 'string':
      if (v === null) return null;
      if (typeof v !== 'string') errors.add(key, `The ${name} field must be a string.`);
      else if (spec.max !== undefined && charLength(v) > spec.max) errors.add(key, `The ${name} field must not be greater than ${spec.max} characters.`);
      return v;
    case 'url':
      if (v === null || v === '') return null;
      if (typeof v !== 'string' || !/^https?:\/\//i.test(v) || !URL.canParse(v)) errors.add(key, `The ${name} field must be a valid URL.`);
      return v;
    case 'date': {
      if (v === null || v === '') return null;
      const ms = typeof v === 'string' ? Date.parse(v) : Number.NaN;
      if (Number.isNaN(ms)) {
        errors.add(key, `The ${name} field must be a valid date.`);
        return v;
      }
      return new Date(ms).toISOString();
    }
    case 'int':
      if (v === null) return null;
      if (!Number.isInteger(v) || (v as number) < spec.min) errors.add(key, `The ${name} field must be an integer of at least ${spec.min}.`);
      return v;
    case 'tags':
      if (v === null) return [];
      if (!Array.isArray(v) || !v.every((t) => typeof t === 'string')) errors.add(key, `The ${name} field must be an array of strings.`);
      return v;
    case 'object':
      if (v === null) return {};
      if (!isObject(v)) errors.add(key, `The ${name} field must be an object.`);
      return v;
    case 'array':
      if (v === null) return [];
      if (!Array.isArray(v)) errors.add(key, `The ${name} field must be an array.`);
      return v;
  }
}

/** Validates `properties` (non-empty; each block has id, name, type; ids unique) and returns a copy. */
function checkProperties(errors: Errors, v: unknown): FormProperty[] {
  if (!Array.isArray(v) || v.length === 0) {
    // Spec rule 2 for updates: an empty array would lose every field, so it is refused.
    errors.add('properties', Array.isArray(v) ? 'The properties field must contain at least one property.' : 'The properties field is required.');
    return [];
  }
  const seen = new Set<string>();
  v.forEach((p, i) => {
    const n = i + 1;
    if (!isObject(p)) {
      errors.add(`properties.${i}`, `The form block number ${n} must be an object.`);
      return;
    }
    for (const field of ['id', 'name', 'type'] as const) {
      if (typeof p[field] !== 'string' || (p[field] as string).trim() === '') {
        errors.add(`properties.${i}.${field}`, `The form block number ${n} is missing ${field === 'id' ? 'an' : 'a'} ${field}.`);
      }
    }
    for (const field of ['required', 'hidden'] as const) {
      if (p[field] !== undefined && typeof p[field] !== 'boolean') {
        errors.add(`properties.${i}.${field}`, `The ${field} flag of form block number ${n} must be true or false.`);
      }
    }
    if (typeof p.id === 'string' && p.id !== '') {
      // Spec: a property id is unique within the form (it is the answer and export column key).
      if (seen.has(p.id)) errors.add(`properties.${i}.id`, `The form block id '${p.id}' is used more than once.`);
      if (p.id === 'created_at') errors.add(`properties.${i}.id`, `The form block id 'created_at' is reserved.`);
      seen.add(p.id);
    }
  });
  return v as FormProperty[];
}

export interface FormInput {
  attrs: Record<string, unknown>;
  properties: FormProperty[];
}

/**
 * Validates a create or update body. Create needs the spec's five fields (workspace_id is checked by
 * the route) and fills the other style fields with the create defaults (docs/service-details.md); update needs all 14.
 * On update, optional fields that are absent keep their stored value.
 */
export function validateFormInput(
  body: Record<string, unknown>,
  mode: 'create' | 'update',
  errors: Errors,
  current?: Record<string, unknown>,
  titleMax: number = TITLE_MAX.spec,
): FormInput {
  const attrs: Record<string, unknown> = current ? { ...current } : {};
  const title = requiredString(errors, body, 'title', titleMax);
  if (title !== undefined) attrs.title = title;
  const visibility = requiredEnum(errors, body, 'visibility', VISIBILITIES);
  if (visibility) attrs.visibility = visibility;
  if (isBlank(body.language)) errors.add('language', 'The language field is required.');
  else if (typeof body.language !== 'string' || !(LANGUAGES as readonly string[]).includes(body.language)) {
    errors.add('language', `The selected language is invalid. Use a two-letter code: ${LANGUAGES.join(', ')}.`);
  } else attrs.language = body.language;

  for (const [key, spec] of Object.entries(STYLE_ENUMS)) {
    if (mode === 'create' && body[key] === undefined) attrs[key] = spec.default;
    else {
      const v = requiredEnum(errors, body, key, spec.values);
      if (v) attrs[key] = v;
    }
  }
  if (mode === 'create' && body.color === undefined) attrs.color = STYLE_DEFAULTS.color;
  else if (isBlank(body.color)) errors.add('color', 'The color field is required.');
  else if (typeof body.color !== 'string' || !COLOR_PATTERN.test(body.color)) {
    errors.add('color', 'The color field must be a hex colour such as #3B82F6.');
  } else attrs.color = body.color;
  for (const key of STYLE_BOOLEANS) {
    const v = body[key];
    if (mode === 'create' && v === undefined) attrs[key] = STYLE_DEFAULTS[key];
    else if (v === undefined || v === null) errors.add(key, `The ${label(key)} field is required.`);
    else if (typeof v !== 'boolean') errors.add(key, `The ${label(key)} field must be true or false.`);
    else attrs[key] = v;
  }
  const properties = checkProperties(errors, body.properties);

  for (const [key, spec] of Object.entries(OPTIONAL)) {
    if (body[key] !== undefined) attrs[key] = checkOptional(errors, key, spec, body[key]);
    else if (!(key in attrs)) attrs[key] = optionalDefault(spec);
  }
  checkRetention(errors, body, attrs);
  return { attrs, properties };
}

const empty = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Submission retention, both flavours, with the deployed server's rules (OpnForm
 * `UserFormRequest.php:163-174`): the value an integer from 1 to 3650, the unit day/week/month/year,
 * both nullable, each required when the other is given. Absent keys keep what is stored.
 */
function checkRetention(errors: Errors, body: Record<string, unknown>, attrs: Record<string, unknown>): void {
  const value = body.submission_retention_value;
  const unit = body.submission_retention_unit;
  if (!empty(value)) {
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (!Number.isInteger(n)) errors.add('submission_retention_value', 'The submission retention value field must be an integer.');
    else if ((n as number) < RETENTION_MIN) errors.add('submission_retention_value', `The submission retention value field must be at least ${RETENTION_MIN}.`);
    else if ((n as number) > RETENTION_MAX)
      errors.add('submission_retention_value', `The submission retention value field must not be greater than ${RETENTION_MAX}.`);
    else attrs.submission_retention_value = n;
  } else if (!empty(unit))
    errors.add('submission_retention_value', 'The submission retention value field is required when submission retention unit is present.');
  else if (value !== undefined || !('submission_retention_value' in attrs)) attrs.submission_retention_value = null;
  if (!empty(unit)) {
    if (!(RETENTION_UNITS as readonly unknown[]).includes(unit)) errors.add('submission_retention_unit', 'The selected submission retention unit is invalid.');
    else attrs.submission_retention_unit = unit;
  } else if (!empty(value))
    errors.add('submission_retention_unit', 'The submission retention unit field is required when submission retention value is present.');
  else if (unit !== undefined || !('submission_retention_unit' in attrs)) attrs.submission_retention_unit = null;
}
