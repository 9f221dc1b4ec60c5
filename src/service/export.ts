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
