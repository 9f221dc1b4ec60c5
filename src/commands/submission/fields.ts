import type { Form, FormProperty } from '../../api/forms.js';
import { findProperty, isLayoutBlock } from '../../forms/properties.js';
import { UsageError } from '../../errors.js';

/** Fields that hold answers (layout blocks are neither answered nor exported). */
export function inputProperties(form: Form): FormProperty[] {
  return (Array.isArray(form.properties) ? form.properties : []).filter((p) => !isLayoutBlock(p));
}

/**
 * Turns a `--set` string into the JSON value the field type expects. Only unambiguous cases are
 * converted (numbers for numeric fields, true/false for checkboxes); everything else stays text,
 * and `--file` is the way to send arrays or objects.
 */
export function coerceValue(p: FormProperty, raw: string): unknown {
  const type = String(p.type ?? '');
  if (['number', 'rating', 'scale', 'slider'].includes(type) && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  if (type === 'checkbox' && /^(true|false)$/i.test(raw.trim())) return raw.trim().toLowerCase() === 'true';
  return raw;
}

/** Maps user keys (field names or ids) to property ids; UsageError on an unknown or ambiguous key. */
export function resolveData(form: Form, entries: Iterable<[string, unknown]>, o: { coerce?: boolean } = {}): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    const p = findProperty(form, key);
    if (p.id in data) throw new UsageError(`Field "${key}" is set twice (it is ${p.id}).`);
    data[p.id] = o.coerce && typeof value === 'string' ? coerceValue(p, value) : value;
  }
  return data;
}
