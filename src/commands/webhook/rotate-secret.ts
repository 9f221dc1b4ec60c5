import { Command } from '@commander-js/extra-typings';
import { updateWebhook } from '../../api/webhooks.js';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { notice, resolveFormat } from '../../io/output.js';
import { generateSecret } from '../../webhooks/secret.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples } from '../shared.js';
import { addWebhookIdArgument, resolveWebhookArgs, writeNewSecret } from './shared.js';
import { webhookTarget } from './target.js';
import { fullBody } from './body.js';

/** Fields of `rotate-secret --json` (a contract with scripts). */
const ROTATE_FIELDS = ['id', 'form_id', 'secret'] as const;

/** `formctl webhook rotate-secret [form] [id]`: the command and its flags, declared once. */
function webhookRotateSecretCommand() {
  const base = new Command('rotate-secret').description('Replace the signing secret with a new random one and print it');
  return examples(addOutputOptions(addWebhookIdArgument(addFormArgument(base)), { fields: ROTATE_FIELDS }), [
    'formctl webhook rotate-secret contact 7 > new-secret.txt',
    'formctl webhook rotate-secret 42 7 --json | jq -r .secret',
  ]);
}

export type WebhookRotateSecretOptions = FlagsOf<typeof webhookRotateSecretCommand> &
  Pick<Factory, 'io' | 'api'> &
  Partial<Pick<Factory, 'context'>> & {
    form: string;
    id: number;
  };

/** `formctl webhook rotate-secret [form] [id]`. */
export function newWebhookRotateSecretCommand(f: Factory, runF = webhookRotateSecretRun) {
  return webhookRotateSecretCommand().action(async (formArg, idArg, flags) => {
    const { form, id } = await resolveWebhookArgs(f, formArg, idArg);
    return runF({ ...flags, io: f.io, api: f.api, context: f.context, form, id });
  });
}

/**
 * Generates a secret, saves it with the rest of the webhook's data unchanged, prints it. The service
 * keeps it: `webhook get --show-secret` prints it again, which a warning names when --json / --jq
 * leave it out of the output.
 */
export async function webhookRotateSecretRun(o: WebhookRotateSecretOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const client = await o.api();
  const { formId, webhook: current } = await webhookTarget(client, o.form, o.id);
  const secret = generateSecret();
  const updated = await updateWebhook(client, formId, o.id, fullBody(current, { secret }));
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeNewSecret(o.io, format, { id: updated.id ?? o.id, form_id: formId, secret }, secret, { form: o.form, id: o.id, context: o.context });
  } else {
    if (o.io.stdoutIsTTY) await notice(o.io, `new signing secret for webhook ${o.id} follows; store it with your receiver.`);
    await write(o.io.stdout, `${secret}\n`);
  }
  await notice(
    o.io,
    'every delivery from now on is signed with the new secret: receivers still using the old one will fail verification until you update them.',
    'warning',
  );
}
