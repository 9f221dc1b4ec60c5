import { Command } from '@commander-js/extra-typings';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { resolveFormat, writeObject } from '../../io/output.js';
import { signatureFromHeaderText, verifySignature } from '../../webhooks/signature.js';
import { type FlagsOf, addOutputOptions, examples, fileOption } from '../shared.js';
import { afterColon } from './shared.js';
import { readLocalFile, readSecretFile } from './files.js';
import { bodyFrom } from './sign.js';

/** Fields of `verify --json` (a contract with scripts). */
export const VERIFY_FIELDS = ['valid', 'reason', 'message'] as const;

/** `formctl webhook verify`: the command and its flags, declared once. */
function webhookVerifyCommand() {
  const base = new Command('verify')
    .description("Check a delivery's signature against its raw body: exit 0 valid, 1 invalid")
    .addOption(fileOption('--secret-file <file>', 'File holding the signing secret (required)'))
    .option('--signature <value>', 'The X-Webhook-Signature value, e.g. sha256=…')
    .addOption(fileOption('--header-file <file>', 'Raw "Name: value" header lines holding X-Webhook-Signature (as `webhook listen --save-dir` writes)'))
    .addOption(fileOption('--body-file <file>', 'The exact body bytes as received (default: stdin)'));
  return examples(addOutputOptions(base, { fields: VERIFY_FIELDS }), [
    'formctl webhook verify --secret-file secret.txt --header-file deliveries/delivery-0001.headers --body-file deliveries/delivery-0001.body',
    'formctl webhook verify --secret-file secret.txt --signature "sha256=5d41…" < body.json',
  ]);
}

export type WebhookVerifyOptions = FlagsOf<typeof webhookVerifyCommand> & Pick<Factory, 'io'>;

/** `formctl webhook verify`. */
export function newWebhookVerifyCommand(f: Factory, runF = webhookVerifyRun) {
  return webhookVerifyCommand().action((flags) => runF({ ...flags, io: f.io }));
}

/** Explains a mismatch: the usual cause is a body that is no longer the bytes that were signed. */
function mismatchHint(secret: string, body: Buffer, header: string): string {
  const trimmed = body.toString('utf8').replace(/\r?\n$/, '');
  if (trimmed.length !== body.toString('utf8').length && verifySignature(secret, trimmed, header).valid) {
    return 'The body file ends with a line break the delivery did not have; verify the bytes exactly as received.';
  }
  try {
    if (verifySignature(secret, JSON.stringify(JSON.parse(body.toString('utf8'))), header).valid) {
      return 'The body was re-serialised (pretty-printed or re-encoded); the signature covers the raw bytes as received.';
    }
  } catch {
    // not JSON: nothing more to learn
  }
  return "Check that this is the webhook's current secret (after rotate-secret the old one fails) and that the body is the raw bytes as received.";
}

/** Verifies exactly as the spec's receiver steps say; an invalid signature exits 1 with the reason. */
export async function webhookVerifyRun(o: WebhookVerifyOptions): Promise<void> {
  if (o.secretFile === undefined)
    throw new UsageError('Missing --secret-file.', 'Pass --secret-file <file> (there is no flag for the secret itself: it would end up in shell history).');
  if (o.signature !== undefined && o.headerFile !== undefined) throw new UsageError('Use either --signature or --header-file, not both.');
  if (o.signature === undefined && o.headerFile === undefined)
    throw new UsageError('Missing the signature.', 'Pass --signature "sha256=…" or --header-file <file>.');
  const format = resolveFormat(o.io, { json: o.json, jq: o.jq });
  const json = format.kind === 'json' ? format : undefined;
  const secret = await readSecretFile(o.secretFile);
  const header = o.signature ?? signatureFromHeaderText((await readLocalFile(o.headerFile!, '--header-file')).toString('utf8'));
  const body = await bodyFrom(o.io, o.bodyFile);
  const result = verifySignature(secret, body, header);
  if (result.valid) {
    if (json) await writeObject(o.io, json, { valid: true, reason: null, message: 'The signature matches.' }, []);
    else await write(o.io.stdout, `Signature is valid (${body.length} bytes).\n`);
    return;
  }
  if (json) await writeObject(o.io, json, { valid: false, reason: result.reason, message: result.message }, []);
  const hint =
    result.reason === 'mismatch'
      ? mismatchHint(secret, body, header!)
      : result.reason === 'missing' && o.headerFile
        ? `No X-Webhook-Signature line in ${o.headerFile}.`
        : undefined;
  throw new CliError(`Invalid signature: ${afterColon(result.message)}`, ExitCode.error, hint);
}
