// The body of an integration update: the current integration with the change merged over it.
import type { WebhookIntegration, WebhookIntegrationBody } from '../../api/webhooks.js';
import { headersOf, isEmptyLogic } from './view.js';

/**
 * The full body for an update, built from the current integration (docs/service.md "Integrations and events"):
 * the deployed server rebuilds `data` on every write and erases what is left out, the spec's keeps
 * it, so sending everything behaves the same on both.
 */
export function fullBody(
  current: WebhookIntegration,
  change: {
    url?: string;
    /** A new secret; null turns signing off (sent as an explicit null, which both services read as "none"). */
    secret?: string | null;
    headers?: Record<string, string>;
    status?: 'active' | 'inactive';
    logic?: unknown;
  },
): WebhookIntegrationBody {
  const data: WebhookIntegrationBody['data'] = { webhook_url: change.url ?? String(current.data?.webhook_url ?? '') };
  const secret = change.secret === undefined ? current.data?.webhook_secret : change.secret;
  if (typeof secret === 'string' && secret !== '') data.webhook_secret = secret;
  else if (change.secret === null) data.webhook_secret = null;
  data.webhook_headers = change.headers ?? headersOf(current);
  const status = change.status ?? (String(current.status).toLowerCase() === 'inactive' ? 'inactive' : 'active');
  const body: WebhookIntegrationBody = { integration_id: 'webhook', status, data };
  if (change.logic !== undefined) body.logic = change.logic;
  else if (!isEmptyLogic(current.logic)) body.logic = current.logic;
  return body;
}
