// The form as a document people keep in files: one place decides which keys are the user's (writable)
// and which the server computes, and in which order keys are written so diffs and git history stay quiet.
import { isObj as isObject } from '../api/normalize.js';
import { STYLE_DEFAULTS, STYLE_ENUMS, UPDATE_REQUIRED, VISIBILITIES } from '../service/forms.js';

export { UPDATE_REQUIRED, VISIBILITIES } from '../service/forms.js';

/** Every enum attribute and its values (the service's, src/service/forms.ts). */
export const FORM_ENUMS: Readonly<Record<string, readonly string[]>> = {
  visibility: VISIBILITIES,
  ...Object.fromEntries(Object.entries(STYLE_ENUMS).map(([k, e]) => [k, e.values])),
};

/**
 * Create defaults: the spec's service needs 5 fields on create, the deployed one all 14, so create
 * always sends the 14 and the same request works on both (docs/forms.md). The style values are the
 * service's own defaults; visibility and language are formctl's choice.
 */
export const CREATE_DEFAULTS: Readonly<Record<string, unknown>> = {
  // Draft: nobody sees a new form before its owner says so.
  visibility: 'draft',
  language: 'en',
  ...STYLE_DEFAULTS,
};

/**
 * Keys the server computes (spec summary fields, and the extras of docs/service-details.md, Forms). They are never
 * sent back and never part of a pulled document or a diff: a change in a count is not a change to the form.
 */
export const READ_ONLY_KEYS: ReadonlySet<string> = new Set([
  'views_count',
  'submissions_count',
  'created_at',
  'updated_at',
  'last_edited_human',
  'share_url',
  'is_closed',
  'max_number_of_submissions_reached',
  'is_pro',
  'plan_tier',
  'is_trialing',
  'workspace',
  'is_password_protected',
  'has_password',
  'form_pending_submission_key',
  'max_file_size',
  'submissions_url',
  'removed_properties',
  'cleanings',
  'deleted_at',
  'creator',
  'creator_id',
  'users_first_form',
]);

/** Identity keys: kept in documents (apply finds the form by them) but never in a PUT body. */
export const IDENTITY_KEYS = ['id', 'slug', 'workspace_id'] as const;

type Obj = Record<string, unknown>;

export { isObj as isObject } from '../api/normalize.js';

const HEAD_ORDER = ['id', 'slug', 'workspace_id', ...UPDATE_REQUIRED.filter((k) => k !== 'properties')];
const PROPERTY_HEAD = ['id', 'type', 'name', 'required'];

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObject(v)) return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
  return out;
}

function ordered(obj: Obj, head: readonly string[], tail: readonly string[] = []): Obj {
  const out: Obj = {};
  for (const k of head) if (k in obj) out[k] = sortKeys(obj[k]);
  for (const k of Object.keys(obj).sort()) {
    if (!head.includes(k) && !tail.includes(k)) out[k] = sortKeys(obj[k]);
  }
  for (const k of tail) if (k in obj) out[k] = obj[k];
  return out;
}

/**
 * The form as a stable document: server-computed keys dropped, identity and the 13 style fields first
 * (in the spec's order), other attributes alphabetically, `properties` last with `id, type, name,
 * required` first in each. Property order is kept: it is the form's field order.
 */
export function toDocument(form: Obj): Obj {
  const kept: Obj = {};
  for (const [k, v] of Object.entries(form)) if (!READ_ONLY_KEYS.has(k)) kept[k] = v;
  const doc = ordered(kept, HEAD_ORDER, ['properties']);
  if (Array.isArray(kept.properties)) {
    doc.properties = kept.properties.map((p: unknown) => (isObject(p) ? ordered(p, PROPERTY_HEAD) : p));
  }
  return doc;
}

/** The PUT body for a document: identity and read-only keys removed (the path names the form). */
export function toUpdateBody(doc: Obj): Obj {
  const body = toDocument(doc);
  for (const k of IDENTITY_KEYS) delete body[k];
  return body;
}

/** The document as text: two-space JSON with a final newline, identical for identical forms. */
export function documentText(doc: Obj): string {
  return JSON.stringify(toDocument(doc), null, 2) + '\n';
}
