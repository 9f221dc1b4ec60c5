import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { updateWebhook } from '../../api/webhooks.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { write } from '../../io/iostreams.js';
import { type OutputFlags, notice, resolveFormat, writeObject } from '../../io/output.js';
import { generateSecret } from '../../webhooks/secret.js';
import { addFormArgument, examples, type UntypedCommand, untypedAction } from '../shared.js';
import { addWebhookIdArgument, resolveWebhookArgs } from './shared.js';
import { webhookTarget } from './target.js';
import { fullBody } from './body.js';

export interface WebhookRotateSecretOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  form: string;
  id: number;
  output: OutputFlags;
}

/** `formctl webhook rotate-secret [form] [id]`. */
export function newWebhookRotateSecretCommand(f: Factory, runF = webhookRotateSecretRun) {
  const cmd: UntypedCommand = new Command('rotate-secret')
    .description('Replace the signing secret with a new random one and print it once')
    .option('--json', 'Output {"id", "form_id", "secret"} as JSON');
  addFormArgument(cmd);
  addWebhookIdArgument(cmd);
  examples(cmd, ['formctl webhook rotate-secret contact 7 > new-secret.txt', "formctl webhook rotate-secret 42 7 --json | jq -r .secret"]);
  return untypedAction(cmd, async (formArg: string | undefined, idArg: number | undefined, flags: OutputFlags) => {
    const { form, id } = await resolveWebhookArgs(f, formArg, idArg);
    return runF({ io: f.io, api: f.api, form, id, output: flags });
  });
}

/** Generates a secret, saves it with the rest of the webhook's data unchanged, prints it once. */
export async function webhookRotateSecretRun(o: WebhookRotateSecretOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output);
  const client = await o.api();
  const { formId, webhook: current } = await webhookTarget(client, o.form, o.id);
  const secret = generateSecret();
  const updated = await updateWebhook(client, formId, o.id, fullBody(current, { secret }));
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, { id: updated.id ?? o.id, form_id: formId, secret }, []);
  } else {
    if (o.io.stdoutIsTTY) await notice(o.io, `new signing secret for webhook ${o.id} follows; it is shown only now.`);
    await write(o.io.stdout, `${secret}\n`);
  }
  await notice(o.io, 'every delivery from now on is signed with the new secret: receivers still using the old one will fail verification until you update them.', 'warning');
}
