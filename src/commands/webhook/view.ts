// How webhook integrations are shown: the --json fields, the masked view and the table columns.
import type { WebhookIntegration } from '../../api/webhooks.js';
import type { Column } from '../../io/output.js';
import { maskSecret } from '../../webhooks/secret.js';

/** Top-level JSON fields of a webhook integration (a contract with scripts). */
export const WEBHOOK_FIELDS = ['id', 'form_id', 'integration_id', 'status', 'data', 'logic', 'created_at', 'updated_at'] as const;

/** Headers as sent: the service may answer `[]` for an empty PHP array. */
export function headersOf(i: WebhookIntegration): Record<string, string> {
  const h = i.data?.webhook_headers;
  return h && typeof h === 'object' && !Array.isArray(h) ? { ...h } : {};
}

/** A copy safe to print: the secret masked (`••••` + last 4) unless the user asked to see it. */
export function webhookView(i: WebhookIntegration, showSecret = false): WebhookIntegration {
  const data = { ...(i.data ?? {}) };
  if ('webhook_secret' in data && !showSecret) data.webhook_secret = maskSecret(data.webhook_secret);
  if (Array.isArray(data.webhook_headers)) data.webhook_headers = {};
  return { ...i, data };
}

/** Table/TSV columns of the webhook list (applied to a masked view). */
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
  { header: 'Headers', value: (i) => Object.entries(headersOf(i)).map(([k, v]) => `${k}: ${v}`).join(', ') },
  { header: 'Logic', value: (i) => (isEmptyLogic(i.logic) ? '(always)' : i.logic) },
  { header: 'Created', value: (i) => i.created_at, time: true },
  { header: 'Updated', value: (i) => i.updated_at, time: true },
];

/** An absent or empty `logic`: the integration delivers every submission. */
export function isEmptyLogic(logic: unknown): boolean {
  return logic === null || logic === undefined || (typeof logic === 'object' && Object.keys(logic as object).length === 0);
}
