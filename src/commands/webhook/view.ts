// How webhook integrations are shown: the --json fields, the masked view and the table columns.
import type { WebhookIntegration } from '../../api/webhooks.js';
import { type Column, type OutputFormat, escapeControls } from '../../io/output.js';
import { urlHasSecrets } from '../../webhooks/secret.js';
import { HEADER_MASK, headersOf, isEmptyLogic } from '../../webhooks/view.js';

// The masked view lives with the webhook room (src/webhooks/view.ts): `form copy` prints it too.
export { HEADER_MASK, headersOf, isEmptyLogic, webhookView } from '../../webhooks/view.js';

/** Top-level JSON fields of a webhook integration (a contract with scripts). */
export const WEBHOOK_FIELDS = ['id', 'form_id', 'integration_id', 'status', 'data', 'logic', 'created_at', 'updated_at'] as const;

/**
 * The note for output that holds masked header values (`--json` with `data`, the detail view), or
 * undefined when no value was masked. `hooks` are the raw integrations, before webhookView.
 */
export function maskedHeadersNote(hooks: readonly WebhookIntegration[], showSecret = false): string | undefined {
  if (showSecret) return undefined;
  const names = [...new Set(hooks.flatMap((i) => Object.keys(headersOf(i))))];
  if (names.length === 0) return undefined;
  // Stored names come from the service (set in its web app too): shown, never obeyed or set on a line of their own.
  const list = names.map((n) => escapeControls(n, { all: true })).join(', ');
  return `the value${names.length === 1 ? ' of the custom header' : 's of the custom headers'} ${list} ${names.length === 1 ? 'is' : 'are'} masked (${HEADER_MASK}): they may hold credentials. Pass --show-secret to print ${names.length === 1 ? 'it' : 'them'} (and the signing secret) in full.`;
}

/**
 * The note for output that shows URLs with secret parts masked, or undefined when none was. `hooks`
 * are the raw integrations, before webhookView.
 */
export function maskedUrlNote(hooks: readonly WebhookIntegration[], showSecret = false): string | undefined {
  if (showSecret) return undefined;
  const ids = hooks.filter((i) => urlHasSecrets(i.data?.webhook_url)).map((i) => escapeControls(String(i.id), { all: true }));
  if (ids.length === 0) return undefined;
  const which = ids.length === 1 ? `the URL of webhook ${ids[0]} is` : `the URLs of webhooks ${ids.join(', ')} are`;
  return `${which} shown with ${ids.length === 1 ? 'its' : 'their'} secret parts masked (••••): a token or key in the query, a password, a secret path. Pass --show-secret to print ${ids.length === 1 ? 'it' : 'them'} in full.`;
}

/** True when `format` shows the URL: the table and TSV views, and JSON holding `data`. */
export function printsUrl(format: OutputFormat): boolean {
  return format.kind === 'table' || format.kind === 'tsv' || printsData(format);
}

/** True when `format` prints the `data` field (where the headers are): every field, or a list naming it. */
export function printsData(format: OutputFormat): boolean {
  if (format.kind !== 'json' && format.kind !== 'ndjson') return false;
  return format.fields === undefined || format.fields.includes('data');
}

/** Table/TSV columns of the webhook list (applied to a masked view): header names only. */
export const LIST_COLUMNS: Column<WebhookIntegration>[] = [
  { header: 'ID', value: (i) => i.id, style: 'cyan' },
  { header: 'Status', value: (i) => i.status },
  { header: 'URL', value: (i) => i.data?.webhook_url, keep: true },
  { header: 'Secret', value: (i) => i.data?.webhook_secret ?? '' },
  { header: 'Headers', value: (i) => Object.keys(headersOf(i)).join(', ') },
  { header: 'Updated', value: (i) => i.updated_at, time: true },
];

/** Key/value rows of `webhook get` (applied to a masked view). */
export const DETAIL_COLUMNS: Column<WebhookIntegration>[] = [
  { header: 'ID', value: (i) => i.id, style: 'cyan' },
  { header: 'Form', value: (i) => i.form_id },
  { header: 'Status', value: (i) => i.status },
  { header: 'URL', value: (i) => i.data?.webhook_url, keep: true },
  { header: 'Secret', value: (i) => i.data?.webhook_secret ?? '(none: deliveries are not signed)' },
  {
    header: 'Headers',
    value: (i) =>
      Object.entries(headersOf(i))
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
  },
  { header: 'Logic', value: (i) => (isEmptyLogic(i.logic) ? '(always)' : i.logic) },
  { header: 'Created', value: (i) => i.created_at, time: true },
  { header: 'Updated', value: (i) => i.updated_at, time: true },
];
