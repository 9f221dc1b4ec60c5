import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type OutputFlags, resolveFormat, writeObject } from '../../io/output.js';
import { addFormArgument, addOutputOptions, examples, type UntypedCommand, untypedAction } from '../shared.js';
import { addShowSecretOption, addWebhookIdArgument, resolveWebhookArgs } from './shared.js';
import { webhookTarget } from './target.js';
import { DETAIL_COLUMNS, WEBHOOK_FIELDS, webhookView } from './view.js';

export interface WebhookGetOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  now: () => Date;
  form: string;
  id: number;
  showSecret?: boolean;
  output: OutputFlags;
}

/** `formctl webhook get [form] [id]`. */
export function newWebhookGetCommand(f: Factory, runF = webhookGetRun) {
  const cmd: UntypedCommand = new Command('get')
    .alias('view')
    .description('Show one webhook integration: URL, status, masked secret, headers, logic');
  addFormArgument(cmd);
  addWebhookIdArgument(cmd);
  addShowSecretOption(cmd);
  addOutputOptions(cmd, { fields: WEBHOOK_FIELDS });
  examples(cmd, ['formctl webhook get contact 7', 'formctl webhook get 42 7 --json data | jq .data.webhook_headers']);
  return untypedAction(cmd, async (formArg: string | undefined, idArg: number | undefined, flags: OutputFlags & { showSecret?: boolean }) => {
    const { form, id } = await resolveWebhookArgs(f, formArg, idArg);
    return runF({ io: f.io, api: f.api, now: f.now, form, id, showSecret: flags.showSecret, output: flags });
  });
}

/** Shows one webhook. */
export async function webhookGetRun(o: WebhookGetOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output, WEBHOOK_FIELDS);
  const client = await o.api();
  const { webhook } = await webhookTarget(client, o.form, o.id);
  const hook = webhookView(webhook, o.showSecret);
  await writeObject(o.io, format, hook, DETAIL_COLUMNS, { now: o.now() });
}
