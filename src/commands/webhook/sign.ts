import { Command } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { readAll, write } from '../../io/iostreams.js';
import { signBody } from '../../webhooks/signature.js';
import { type FlagsOf, examples, fileOption } from '../shared.js';
import { readLocalFile, readSecretFile } from './files.js';

/** `formctl webhook sign`: the command and its flags, declared once. */
function webhookSignCommand() {
  const cmd = new Command('sign')
    .description('Print the X-Webhook-Signature value for a body, for testing receivers')
    .addOption(fileOption('--secret-file <file>', 'File holding the signing secret (required)'))
    .addOption(fileOption('--body-file <file>', 'The exact body bytes to sign (default: stdin)'));
  return examples(cmd, [
    'formctl webhook sign --secret-file secret.txt --body-file delivery.json',
    'printf \'{"form_id":1}\' | formctl webhook sign --secret-file secret.txt',
    'curl -X POST http://127.0.0.1:3000/hook -H "Content-Type: application/json" \\\n      -H "X-Webhook-Signature: $(formctl webhook sign --secret-file secret.txt --body-file body.json)" --data-binary @body.json',
  ]);
}

export type WebhookSignOptions = FlagsOf<typeof webhookSignCommand> & Pick<Factory, 'io'>;

/** `formctl webhook sign`. */
export function newWebhookSignCommand(f: Factory, runF = webhookSignRun) {
  return webhookSignCommand().action((flags) => runF({ ...flags, io: f.io }));
}

/** The body for sign/verify: a file, or stdin when it is piped. */
export async function bodyFrom(io: IOStreams, bodyFile: string | undefined): Promise<Buffer> {
  if (bodyFile !== undefined) return readLocalFile(bodyFile, '--body-file');
  if (io.stdinIsTTY) throw new UsageError('Missing the body.', 'Pass --body-file <file>, or pipe the body into stdin.');
  return readAll(io.stdin);
}

/** Prints `sha256=<hex>` for the body. */
export async function webhookSignRun(o: WebhookSignOptions): Promise<void> {
  if (o.secretFile === undefined)
    throw new UsageError('Missing --secret-file.', "Pass --secret-file <file> (the webhook's signing secret; there is no flag for the value itself).");
  const secret = await readSecretFile(o.secretFile);
  const body = await bodyFrom(o.io, o.bodyFile);
  await write(o.io.stdout, `${signBody(secret, body)}\n`);
}
