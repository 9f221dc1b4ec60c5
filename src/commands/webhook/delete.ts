import { Command } from '@commander-js/extra-typings';
import { deleteWebhook } from '../../api/webhooks.js';
import type { Factory } from '../../factory.js';
import { escapeControls, resolveFormat, writeDone } from '../../io/output.js';
import { confirmDestructive } from '../../io/prompter.js';
import { type FlagsOf, addFormArgument, addOutputOptions, addYesOption, examples } from '../shared.js';
import { addWebhookIdArgument, resolveWebhookArgs } from './shared.js';
import { webhookTarget } from './target.js';
import { maskWebhookUrl } from '../../webhooks/secret.js';

/** `formctl webhook delete [form] [id]`: the command and its flags, declared once. */
function webhookDeleteCommand() {
  const base = new Command('delete').alias('rm').description('Delete a webhook integration (deliveries stop at once)');
  return examples(addOutputOptions(addYesOption(addWebhookIdArgument(addFormArgument(base))), { fields: DELETE_FIELDS }), [
    'formctl webhook delete contact 7',
    'formctl webhook delete 42 7 --yes   # in scripts',
    'formctl webhook delete 42 7 --yes --json   # {"id":7,"form_id":42,"deleted":true}',
  ]);
}

/** Keys of `webhook delete --json`: those of `workspace delete --json`, and the form's id (as rotate-secret gives it). */
const DELETE_FIELDS = ['id', 'form_id', 'deleted'] as const;

export type WebhookDeleteOptions = FlagsOf<typeof webhookDeleteCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    form: string;
    id: number;
  };

/** `formctl webhook delete [form] [id]`. */
export function newWebhookDeleteCommand(f: Factory, runF = webhookDeleteRun) {
  return webhookDeleteCommand().action(async (formArg, idArg, flags) => {
    const { form, id } = await resolveWebhookArgs(f, formArg, idArg);
    return runF({ ...flags, io: f.io, api: f.api, prompter: f.prompter, form, id });
  });
}

/**
 * Checks that the id is a webhook of the form (the deployed service deletes any integration kind by
 * id), confirms naming the form and the receiver, then deletes.
 */
export async function webhookDeleteRun(o: WebhookDeleteOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  if (!o.yes && !o.io.canPrompt) await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Delete webhook ${o.id} of form ${o.form}?` });
  const client = await o.api();
  const { formId, webhook, nameForm } = await webhookTarget(client, o.form, o.id);
  // Masked as list and get show it: a token in the query must not reach the terminal or a log.
  // The stored URL comes from the service: its control characters are shown escaped, a line break too.
  const url = typeof webhook.data?.webhook_url === 'string' ? ` (→ ${escapeControls(maskWebhookUrl(webhook.data.webhook_url), { all: true })})` : '';
  if (!o.yes) {
    const form = await nameForm(formId).catch(() => `form ${o.form}`);
    await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Delete webhook ${o.id}${url} of ${form}?` });
  }
  await deleteWebhook(client, formId, o.id);
  await writeDone(o.io, format, { id: o.id, form_id: formId, deleted: true }, `Deleted webhook ${o.id}${url} of form ${o.form}.`);
}
