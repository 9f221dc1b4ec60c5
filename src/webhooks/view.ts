// How a webhook integration is shown safely: header values, secrets and secret URL parts masked.
import type { WebhookIntegration } from '../api/webhooks.js';
import { maskSecret, maskWebhookUrl } from './secret.js';

/** Headers as sent: the service may answer `[]` for an empty PHP array. */
export function headersOf(i: WebhookIntegration): Record<string, string> {
  const h = i.data?.webhook_headers;
  return h && typeof h === 'object' && !Array.isArray(h) ? { ...h } : {};
}

/** What a custom header's value looks like when it is not shown: nothing of the value is revealed. */
export const HEADER_MASK = '••••';

/**
 * A copy safe to print, unless the user asked to see secrets (`--show-secret`): the signing secret
 * masked (`••••` + last 4), each custom header's value replaced by HEADER_MASK, its name kept, and
 * the secret parts of the URL (a `?token=`, a password, a Slack or Discord secret path) masked as
 * the secret is. Header values and URLs often carry credentials (an API key for the receiver), so
 * they are treated as the secret is (docs/security.md, "Secrets in output"). Only for output: a
 * request body is built from the integration as read (body.ts), never from this view.
 */
export function webhookView(i: WebhookIntegration, showSecret = false): WebhookIntegration {
  const data = { ...(i.data ?? {}) };
  if (!showSecret && typeof data.webhook_url === 'string') data.webhook_url = maskWebhookUrl(data.webhook_url);
  if ('webhook_secret' in data && !showSecret) data.webhook_secret = maskSecret(data.webhook_secret);
  if (Array.isArray(data.webhook_headers)) data.webhook_headers = {};
  else if (!showSecret && data.webhook_headers && typeof data.webhook_headers === 'object') {
    data.webhook_headers = Object.fromEntries(Object.keys(data.webhook_headers).map((k) => [k, HEADER_MASK]));
  }
  return { ...i, data };
}

/** An absent or empty `logic`: the integration delivers every submission. */
export function isEmptyLogic(logic: unknown): boolean {
  return logic === null || logic === undefined || (typeof logic === 'object' && Object.keys(logic as object).length === 0);
}
