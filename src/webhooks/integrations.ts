// Integrations of every kind (docs/webhooks-and-members.md, "Integrations of every kind"): the
// deployed service lists webhooks, Slack, Discord, Telegram, e-mail, Google Sheets, Zapier, n8n, …
// in one list (OpnForm `api/resources/data/forms/integrations.json`), and every active one runs
// again on each submission update. Webhook verbs stay webhook-only; this is for seeing them all.
import { type WebhookIntegration, integrationKind } from '../api/webhooks.js';
import { maskSecret, maskWebhookUrl } from './secret.js';
import { webhookView } from './view.js';

/** The kinds' names as people know them (`integrations.json`'s `name`, shortened). */
const KIND_NAMES: Record<string, [one: string, many: string]> = {
  webhook: ['webhook', 'webhooks'],
  email: ['e-mail', 'e-mails'],
  slack: ['Slack', 'Slack'],
  discord: ['Discord', 'Discord'],
  telegram: ['Telegram', 'Telegram'],
  google_sheets: ['Google Sheets', 'Google Sheets'],
  zapier: ['Zapier', 'Zapier'],
  n8n: ['n8n', 'n8n'],
  activepieces: ['Activepieces', 'Activepieces'],
  make: ['Make', 'Make'],
  pabbly: ['Pabbly', 'Pabbly'],
  albato: ['Albato', 'Albato'],
};

/** "2 webhooks", "1 Slack", "1 e-mail", "3 mystery" (an unknown kind by its id). */
export function kindCount(kind: string, n: number): string {
  const names = KIND_NAMES[kind] ?? [kind, kind];
  return `${n} ${n === 1 ? names[0] : names[1]}`;
}

/** The kind of an integration; the spec's records (webhooks only) may leave it out. */
export function kindOf(i: Record<string, unknown>): string {
  return integrationKind(i as WebhookIntegration);
}

/** Active integrations by kind, in the list's order of first appearance: "2 webhooks, 1 Slack, 1 e-mail". */
export function activeByKind(list: readonly Record<string, unknown>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const i of list) if ((i.status ?? 'active') === 'active') out.set(kindOf(i), (out.get(kindOf(i)) ?? 0) + 1);
  return out;
}

/** "2 webhooks, 1 Slack, 1 e-mail". */
export function describeKinds(kinds: Map<string, number>): string {
  return [...kinds].map(([k, n]) => kindCount(k, n)).join(', ');
}

/** The URL-valued keys of the kinds' `data` (each handler's validation rules): masked as webhook URLs are. */
const URL_KEYS = ['webhook_url', 'hook_url', 'slack_webhook_url', 'discord_webhook_url'];

/** A copy safe to print: webhooks as `webhook list` shows them; every other kind's URLs masked, secrets masked. */
export function integrationView(i: WebhookIntegration): WebhookIntegration {
  if (kindOf(i) === 'webhook') return webhookView(i);
  const data: Record<string, unknown> = { ...(i.data ?? {}) };
  for (const k of URL_KEYS) if (typeof data[k] === 'string') data[k] = maskWebhookUrl(data[k]);
  for (const k of Object.keys(data)) if (/secret|token|password|api_key/i.test(k) && typeof data[k] === 'string') data[k] = maskSecret(data[k] as string);
  return { ...i, data };
}

function recipients(v: unknown): string[] {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(/[\s,;]+/) : [];
  return list.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
}

/**
 * One line about where an integration sends: the URL (secret parts masked) for webhooks, Slack,
 * Discord and the automation services; the recipients of an e-mail; the chat or the spreadsheet
 * where the data names one. Works on the raw record: nothing secret is returned.
 */
export function integrationSummary(i: WebhookIntegration): string {
  const data = (i.data ?? {}) as Record<string, unknown>;
  const kind = kindOf(i);
  if (kind === 'email') {
    const to = recipients(data.send_to);
    const subject = typeof data.subject === 'string' && data.subject ? ` · subject ${JSON.stringify(data.subject)}` : '';
    return to.length > 0 ? `to ${to.join(', ')}${subject}` : `no recipients${subject}`;
  }
  for (const k of URL_KEYS) if (typeof data[k] === 'string' && data[k]) return String(maskWebhookUrl(data[k]));
  if (kind === 'telegram')
    return typeof data.chat_id === 'string' || typeof data.chat_id === 'number' ? `chat ${data.chat_id}` : 'the connected Telegram account';
  if (kind === 'google_sheets') return typeof data.spreadsheet_id === 'string' ? `spreadsheet ${data.spreadsheet_id}` : 'the connected Google account';
  const keys = Object.keys(data);
  return keys.length > 0 ? `settings: ${keys.join(', ')}` : '';
}
