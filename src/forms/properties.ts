import type { Form, FormProperty } from '../api/forms.js';
import { UsageError } from '../errors.js';
import { escapeControls } from '../io/output.js';
import { isLayoutBlock } from '../service/forms.js';

/**
 * The service's block types (docs/service-details.md, Form blocks): inputs, then layout blocks. The
 * service itself accepts any non-empty type, so formctl checks `--field` types against this list.
 */
export const PROPERTY_TYPES = [
  'text',
  'rich_text',
  'date',
  'url',
  'phone_number',
  'email',
  'checkbox',
  'select',
  'radio',
  'multi_select',
  'matrix',
  'number',
  'rating',
  'scale',
  'slider',
  'files',
  'signature',
  'barcode',
  'qrcode',
  'password',
  'toggle_switch',
  'payment',
  'nf-text',
  'nf-page-break',
  'nf-divider',
  'nf-image',
  'nf-video',
  'nf-audio',
  'nf-code',
] as const;

/** A name or id from the service inside a hint: control characters, tab and newline escaped, so it cannot forge a line. */
const shown = (v: unknown) => escapeControls(String(v), { all: true });

/** "Name (id)" lines for hints: people know names, the API wants ids. */
function describeChoices(props: FormProperty[]): string {
  const list = props.slice(0, 20).map((p) => `"${shown(p.name)}" (${shown(p.id)})`);
  if (props.length > 20) list.push(`… and ${props.length - 20} more (see \`formctl form fields\`)`);
  return list.join(', ');
}

/**
 * Resolves a field reference to one property of the form: an exact id wins, then an exact name,
 * then a case-insensitive name. Throws a UsageError (exit 2) when the reference is unknown or
 * matches several fields, listing what would have worked.
 */
export function findProperty(form: Form, ref: string): FormProperty {
  const props = (Array.isArray(form.properties) ? form.properties : []).filter((p) => !isLayoutBlock(p));
  const wanted = ref.trim();
  const byId = props.find((p) => p.id === wanted);
  if (byId) return byId;
  let matches = props.filter((p) => p.name === wanted);
  if (matches.length === 0) {
    const lower = wanted.toLowerCase();
    matches = props.filter((p) => typeof p.name === 'string' && p.name.trim().toLowerCase() === lower);
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new UsageError(
      `Field "${ref}" is ambiguous in form ${form.slug ?? form.id}: ${matches.length} fields have that name.`,
      `Use the field id instead: ${matches.map((p) => shown(p.id)).join(', ')}`,
    );
  }
  throw new UsageError(
    `Unknown field "${ref}" in form ${form.slug ?? form.id}.`,
    props.length > 0 ? `Fields: ${describeChoices(props)}` : 'The form has no input fields.',
  );
}
