// Which columns a submission export takes (`POST /open/forms/{id}/submissions/export`, body
// `{columns: {<id>: true}}`), as the deployed server decides it: the client checks `--columns` with
// these rules, and the sandbox answers by them (docs/service-details.md, Export).

import { type FormProperty, isLayoutBlock } from './forms.js';

/**
 * The attribution parameters a submission may carry (`meta.attribution`), each exportable as the
 * column `meta.attribution.<parameter>` (OpnForm `api/app/Service/Forms/SubmissionAttribution.php:9-26`).
 */
export const ATTRIBUTION_PARAMETERS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_id',
  'utm_term',
  'utm_content',
  'utm_source_platform',
  'utm_creative_format',
  'utm_marketing_tactic',
  'gclid',
  'gbraid',
  'wbraid',
  'dclid',
  'fbclid',
  'ttclid',
  'msclkid',
] as const;

export type AttributionParameter = (typeof ATTRIBUTION_PARAMETERS)[number];

const ATTRIBUTION_PREFIX = 'meta.attribution.';

/** The parameter an attribution column names (`meta.attribution.utm_source` → `utm_source`); undefined for any other id (SubmissionAttribution.php:61-71). */
export function attributionParameter(column: string): AttributionParameter | undefined {
  if (!column.startsWith(ATTRIBUTION_PREFIX)) return undefined;
  const p = column.slice(ATTRIBUTION_PREFIX.length);
  return (ATTRIBUTION_PARAMETERS as readonly string[]).includes(p) ? (p as AttributionParameter) : undefined;
}

/** The export's own columns besides the fields: the creation time and the partial/completed status. */
export const SYSTEM_COLUMNS = ['created_at', 'status'] as const;

/**
 * Whether the service takes `column` as a key of `columns`: the id of a current or removed property
 * (layout blocks included), `created_at`, `status`, or `meta.attribution.<parameter>` (OpnForm
 * `api/app/Http/Requests/FormSubmissionExportRequest.php:22-42`; any other key is 422 "The columns
 * contain invalid values: …").
 */
export function isExportColumn(column: string, properties: readonly Pick<FormProperty, 'id'>[], removed: readonly Pick<FormProperty, 'id'>[]): boolean {
  if ((SYSTEM_COLUMNS as readonly string[]).includes(column) || attributionParameter(column) !== undefined) return true;
  return properties.some((p) => p.id === column) || removed.some((p) => p.id === column);
}

/**
 * A form's removed properties as the service lists them (`removed_properties`: every field a form
 * update dropped, OpnForm `api/app/Service/Forms/FormUpdateService.php:21-27`); [] when the answer has none.
 */
export function removedProperties(form: Readonly<Record<string, unknown>>): FormProperty[] {
  const v = form.removed_properties;
  return Array.isArray(v) ? v.filter((p): p is FormProperty => p !== null && typeof p === 'object' && typeof (p as { id?: unknown }).id === 'string') : [];
}

/**
 * What a form update adds to `removed_properties`: the form's earlier removed fields, then every
 * input field (layout blocks never) of the old properties whose id the new ones lack. Nothing is taken
 * out, even when a field comes back (FormUpdateService.php:21-27 merges, it never filters).
 */
export function nextRemovedProperties(removed: readonly FormProperty[], before: readonly FormProperty[], after: readonly FormProperty[]): FormProperty[] {
  const kept = new Set(after.map((p) => p.id));
  return [...removed, ...before.filter((p) => !isLayoutBlock(p) && !kept.has(p.id))];
}

/** An answer's key in the deployed server's export, and the field it is for. */
export interface ExportAnswerKey {
  key: string;
  property: FormProperty;
}

/**
 * The key the deployed server gives each answer before it picks columns: "{name} ({id})", with
 * " (deleted)" after the name of a removed field; current fields first, then removed ones, layout
 * blocks never (OpnForm `api/app/Service/Forms/FormSubmissionFormatter.php:111-146`).
 */
export function exportAnswerKeys(properties: readonly FormProperty[], removed: readonly FormProperty[]): ExportAnswerKey[] {
  const fields = [...properties.map((p) => ({ p, gone: false })), ...removed.map((p) => ({ p, gone: true }))];
  return fields.filter(({ p }) => !isLayoutBlock(p)).map(({ p, gone }) => ({ key: `${String(p.name)}${gone ? ' (deleted)' : ''} (${p.id})`, property: p }));
}

/**
 * A column's header for an answer key: the deployed server strips the key with the greedy
 * /\s\(.*\)/ (docs/service-details.md, "Export"), so "Age (years) (a1)" is exported as "Age" and a
 * removed field's "Name (deleted) (n1)" as "Name".
 */
export function exportHeader(key: string): string {
  return key.replace(/\s\(.*\)/, '');
}
