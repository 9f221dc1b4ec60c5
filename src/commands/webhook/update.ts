import { Command } from '@commander-js/extra-typings';
import { updateWebhook } from '../../api/webhooks.js';
import { CliError, UsageError } from '../../errors.js';
import { ValidationError } from '../../api/errors.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { escapeControls, notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { type Resolver, throwIfInvalid, validateWebhookData } from '../../webhooks/rules.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples, fileOption } from '../shared.js';
import { ALLOW_PRIVATE_WARNING, addAllowPrivateOption, addShowSecretOption, addWebhookIdArgument, unsignedWarning, resolveWebhookArgs } from './shared.js';
import { webhookTarget } from './target.js';
import { WEBHOOK_FIELDS, headersOf, maskedHeadersNote, maskedUrlNote, printsData, webhookView } from './view.js';
import { fullBody } from './body.js';
import { collectHeader, headerObject } from './headers.js';
import { readLogicFile, readSecretFile } from './files.js';

/** `formctl webhook update [form] [id]`: the command and its flags, declared once. */
function webhookUpdateCommand() {
  const base = new Command('update')
    .description("Change a webhook's URL, headers, status or logic, keeping everything else")
    .option('--url <url>', 'New receiver URL')
    .option('--header <name:value>', 'Add or replace a custom header (repeatable); others are kept', collectHeader)
    .option('--clear-headers', 'Remove every custom header (then add those given with --header)')
    .option('--activate', 'Switch deliveries on')
    .option('--deactivate', 'Switch deliveries off')
    .addOption(fileOption('--logic-file <file>', 'Replace the condition with this JSON (a file holding null removes it)'))
    .addOption(fileOption('--secret-file <file>', 'Sign deliveries from now on with the secret in this file (at least 12 characters)'))
    // `secret` is false with --no-secret: stop signing deliveries.
    .option('--no-secret', 'Stop signing deliveries (receivers can no longer tell them from forgeries)');
  return examples(addOutputOptions(addShowSecretOption(addAllowPrivateOption(addWebhookIdArgument(addFormArgument(base)))), { fields: WEBHOOK_FIELDS }), [
    'formctl webhook update contact 7 --deactivate',
    'formctl webhook update 42 7 --url https://hooks.example.com/v2 --header "X-Api-Key: new-key"',
    'formctl webhook update 42 7 --clear-headers',
    'formctl webhook update 42 7 --secret-file ./secret.txt   # a secret you chose',
    'formctl webhook update 42 7 --no-secret                  # deliveries unsigned',
    '# a new random secret: formctl webhook rotate-secret 42 7',
  ]);
}

export type WebhookUpdateOptions = FlagsOf<typeof webhookUpdateCommand> &
  Pick<Factory, 'io' | 'api'> &
  Partial<Pick<Factory, 'context'>> & {
    resolve?: Resolver;
    form: string;
    id: number;
  };

/** `formctl webhook update [form] [id]`. */
export function newWebhookUpdateCommand(f: Factory, runF = webhookUpdateRun) {
  return webhookUpdateCommand().action(async (formArg, idArg, flags) => {
    const { form, id } = await resolveWebhookArgs(f, formArg, idArg);
    return runF({ ...flags, io: f.io, api: f.api, context: f.context, form, id });
  });
}

/** Fetches the webhook, merges the change into its full data, validates the result and PUTs it all. */
export async function webhookUpdateRun(o: WebhookUpdateOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  if (o.activate && o.deactivate) throw new UsageError('Use either --activate or --deactivate, not both.');
  const noSecret = !o.secret;
  const header = o.header ?? [];
  if (o.secretFile !== undefined && noSecret) throw new UsageError('Use either --secret-file or --no-secret, not both.');
  const touched =
    o.url !== undefined ||
    header.length > 0 ||
    o.clearHeaders ||
    o.activate ||
    o.deactivate ||
    o.logicFile !== undefined ||
    o.secretFile !== undefined ||
    noSecret;
  if (!touched) {
    throw new UsageError('Nothing to update.', 'Pass --url, --header, --clear-headers, --activate, --deactivate, --logic-file, --secret-file or --no-secret.');
  }
  const logic = o.logicFile !== undefined ? await readLogicFile(o.logicFile) : undefined;
  const secret = o.secretFile !== undefined ? await readSecretFile(o.secretFile) : noSecret ? null : undefined;
  if (o.allowPrivate) await notice(o.io, ALLOW_PRIVATE_WARNING, 'warning');

  const client = await o.api();
  const { formId, webhook: current } = await webhookTarget(client, o.form, o.id);
  const headers = header.length > 0 || o.clearHeaders ? headerObject(header, o.clearHeaders ? {} : headersOf(current)) : undefined;
  const body = fullBody(current, {
    url: o.url,
    headers,
    status: o.activate ? 'active' : o.deactivate ? 'inactive' : undefined,
    logic,
    secret,
  });
  // The stored URL was accepted when it was saved (perhaps with --allow-private against a sandbox), so
  // only a new URL is checked here; secret and headers are re-checked as the service re-checks them.
  const { webhook_url: _stored, ...kept } = body.data;
  const toCheck = o.url !== undefined ? body.data : kept;
  const warnings: string[] = [];
  throwIfInvalid(await validateWebhookData(toCheck, { allowPrivate: o.allowPrivate, resolve: o.resolve, warnings, storedHeaders: headers === undefined }), {
    allowPrivate: o.allowPrivate,
  });
  for (const w of warnings) await notice(o.io, w, 'warning');
  const updated = await updateWebhook(client, formId, o.id, body).catch((err: unknown) => {
    // Every update sends the stored URL back, and the service checks it again: a host it cannot resolve
    // (a placeholder host, offline) blocks any change until --url replaces it.
    if (o.url === undefined && err instanceof ValidationError && /could not be resolved/i.test(err.message)) {
      throw new CliError(err.message, err.exitCode, 'Every update sends the stored URL again; pass --url with one the service can resolve.');
    }
    throw err;
  });
  if (noSecret) await notice(o.io, unsignedWarning(o.form, o.id, `formctl${await profileWords(o.context)}`), 'warning');
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, webhookView(updated, o.showSecret), []);
    const masked = printsData(format) ? maskedHeadersNote([updated], o.showSecret) : undefined;
    if (masked) await notice(o.io, masked);
    const urls = printsData(format) ? maskedUrlNote([updated], o.showSecret) : undefined;
    if (urls) await notice(o.io, urls);
  } else await success(o.io, `Updated webhook ${o.id} on form ${o.form} (${escapeControls(String(updated.status ?? body.status), { all: true })}).`);
}
