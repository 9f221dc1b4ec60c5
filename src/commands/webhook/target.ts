// Which integration a webhook verb acts on: the form id of a <form> argument, and the integration
// checked to belong to that form.
import type { ApiClient } from '../../api/client.js';
import { getForm, resolveForm } from '../../api/forms.js';
import { type FormNamer, type WebhookIntegration, getWebhook } from '../../api/webhooks.js';
import { looksNumeric, parseFormRef } from '../../io/ids.js';

/** The numeric form id for a `<form>` argument: digits are used as-is (no request), a slug is looked up. */
export async function formIdOf(client: ApiClient, ref: string): Promise<number> {
  const t = parseFormRef(ref);
  if (looksNumeric(t)) return Number(t);
  return (await resolveForm(client, t)).id;
}

/** Names a form in messages as `form "Contact" (id 42)`; one GET, made only where a message needs it. */
export function formNamer(client: ApiClient): FormNamer {
  return async (formId) => {
    const form = await getForm(client, formId);
    return typeof form.title === 'string' && form.title !== '' ? `form ${JSON.stringify(form.title)} (id ${formId})` : `form ${formId}`;
  };
}

/**
 * The form id and the webhook integration an id names, checked to be a webhook of that form before
 * any write, delete or events read (src/api/webhooks.ts `getWebhook`).
 */
export async function webhookTarget(client: ApiClient, ref: string, id: number): Promise<{ formId: number; webhook: WebhookIntegration; nameForm: FormNamer }> {
  const formId = await formIdOf(client, ref);
  const nameForm = formNamer(client);
  return { formId, webhook: await getWebhook(client, formId, id, nameForm), nameForm };
}
