import { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { deleteWebhook } from '../../api/webhooks.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { success } from '../../io/output.js';
import { type Prompter, confirmDestructive } from '../../io/prompter.js';
import { addYesOption, examples } from '../shared.js';
import { formIdOf, parseWebhookId } from './common.js';

export interface WebhookDeleteOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  prompter: () => Prompter;
  form: string;
  id: number;
  yes?: boolean;
}

/** `formctl webhook delete <form> <id>`. */
export function newWebhookDeleteCommand(f: Factory, runF = webhookDeleteRun): Command {
  const cmd = new Command('delete')
    .alias('rm')
    .description('Delete a webhook integration (deliveries stop at once)')
    .argument('<form>', 'Form id or slug')
    .argument('<id>', 'Webhook integration id', parseWebhookId);
  addYesOption(cmd);
  examples(cmd, ['formctl webhook delete contact 7', 'formctl webhook delete 42 7 --yes   # in scripts']);
  return cmd.action((form: string, id: number, flags: { yes?: boolean }) => runF({ io: f.io, api: f.api, prompter: f.prompter, form, id, yes: flags.yes }));
}

/** Confirms, then deletes. */
export async function webhookDeleteRun(o: WebhookDeleteOptions): Promise<void> {
  await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Delete webhook ${o.id} of form ${o.form}?` });
  const client = await o.api();
  await deleteWebhook(client, await formIdOf(client, o.form), o.id);
  await success(o.io, `Deleted webhook ${o.id} of form ${o.form}.`);
}
