import type { ApiClient } from './client.js';
import { CliError, ExitCode } from '../errors.js';
import { messageOf, normalizeEvent, unwrapIntegration, unwrapList } from './normalize.js';
import { apiPath } from './path.js';
import type { WebhookStatus } from '../service/webhooks.js';
import { capitalise } from '../service/text.js';

/** The spec's `data` of a webhook integration. */
export interface WebhookIntegrationData {
  webhook_url?: string;
  webhook_secret?: string | null;
  webhook_headers?: Record<string, string> | null;
  [key: string]: unknown;
}

/** A webhook integration as the service returns it (extra keys from the deployed server pass through). */
export interface WebhookIntegration {
  id: number;
  form_id: number;
  integration_id: string;
  status: string;
  data: WebhookIntegrationData;
  logic?: unknown;
  created_at?: string;
  updated_at?: string;
  [key: string]: unknown;
}

/** A body for create and update: always the full data (docs/service.md, Integrations and events). */
export interface WebhookIntegrationBody {
  integration_id: 'webhook';
  status: WebhookStatus;
  data: { webhook_url: string; webhook_secret?: string | null; webhook_headers?: Record<string, string> };
  logic?: unknown;
}

/** A dispatch event record in the spec's shape (deployed `{date, status, data}` is normalised). */
export interface DispatchEvent {
  id: unknown;
  integration_id: unknown;
  event: unknown;
  status: string;
  response_code: unknown;
  error_message: unknown;
  created_at: string | null;
  [key: string]: unknown;
}

const ABILITY = 'manage-integrations';

/** Every integration of the form, whatever its kind (the deployed list mixes webhooks, e-mail, Slack…). */
export async function listIntegrations(c: ApiClient, formId: number): Promise<WebhookIntegration[]> {
  const res = await c.request({ path: apiPath`/open/forms/${formId}/integrations`, ability: ABILITY });
  return unwrapList<WebhookIntegration>(res.data, res).items.filter((i) => i !== null && typeof i === 'object');
}

/** The kind of an integration; the spec's records (webhooks only) may leave it out. */
export function integrationKind(i: WebhookIntegration): string {
  return typeof i.integration_id === 'string' && i.integration_id !== '' ? i.integration_id : 'webhook';
}

/** The form's webhook integrations (the deployed list holds every integration kind; only webhooks are kept). */
export async function listWebhooks(c: ApiClient, formId: number): Promise<WebhookIntegration[]> {
  return (await listIntegrations(c, formId)).filter((i) => integrationKind(i) === 'webhook');
}

/** How an error names the form: `form "Contact" (id 42)`, or `form 42` when its title is unknown. */
export type FormNamer = (formId: number) => Promise<string>;

/**
 * One webhook integration; the service has no single-get route, so it is found in the list. Every verb
 * that writes, deletes or reads the events of an integration by id goes through here first: the
 * deployed service acts on any integration kind by id (docs/webhooks-and-members.md, "Integrations of other kinds"), so an
 * id of an e-mail or Slack integration is refused (exit 6) before anything is sent.
 */
export async function getWebhook(c: ApiClient, formId: number, id: number, nameForm?: FormNamer): Promise<WebhookIntegration> {
  const all = await listIntegrations(c, formId);
  const found = all.find((i) => Number(i.id) === id);
  const form = async () => (nameForm ? nameForm(formId).catch(() => `form ${formId}`) : `form ${formId}`);
  if (!found) {
    throw new CliError(`${capitalise(await form())} has no webhook ${id}.`, ExitCode.notFound, `See its webhooks with \`formctl webhook list ${formId}\`.`);
  }
  const kind = integrationKind(found);
  if (kind !== 'webhook') {
    throw new CliError(
      `Integration ${id} of ${await form()} is ${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind} integration, not a webhook; formctl only manages webhooks.`,
      ExitCode.notFound,
      `See its webhooks with \`formctl webhook list ${formId}\`; other integrations are managed in the service's dashboard.`,
    );
  }
  return found;
}

/** Creates a webhook integration (200 `{message, form_integration}`). */
export async function createWebhook(c: ApiClient, formId: number, body: WebhookIntegrationBody): Promise<WebhookIntegration> {
  const res = await c.request({ method: 'POST', path: apiPath`/open/forms/${formId}/integrations`, body, ability: ABILITY });
  return unwrapIntegration<WebhookIntegration>(res.data, res);
}

/** Replaces a webhook integration's settings; callers send the full merged data so no service drops a field. */
export async function updateWebhook(c: ApiClient, formId: number, id: number, body: WebhookIntegrationBody): Promise<WebhookIntegration> {
  const res = await c.request({ method: 'PUT', path: apiPath`/open/forms/${formId}/integrations/${id}`, body, ability: ABILITY });
  return unwrapIntegration<WebhookIntegration>(res.data, res);
}

/** Deletes a webhook integration. */
export async function deleteWebhook(c: ApiClient, formId: number, id: number): Promise<string> {
  const res = await c.request({ method: 'DELETE', path: apiPath`/open/forms/${formId}/integrations/${id}`, ability: ABILITY });
  return messageOf(res.data, 'Form Integration was deleted.');
}

/** Dispatch event records, newest first, in the spec's shape whatever the service sent. */
export async function listWebhookEvents(c: ApiClient, formId: number, id: number): Promise<DispatchEvent[]> {
  const res = await c.request({ path: apiPath`/open/forms/${formId}/integrations/${id}/events`, ability: ABILITY });
  return unwrapList<Record<string, unknown>>(res.data, res).items.map((e) => normalizeEvent(e) as DispatchEvent);
}
