import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { notice, resolveFormat, writeObject } from '../../io/output.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples } from '../shared.js';
import { addShowSecretOption, addWebhookIdArgument, resolveWebhookArgs } from './shared.js';
import { webhookTarget } from './target.js';
import { DETAIL_COLUMNS, WEBHOOK_FIELDS, maskedHeadersNote, maskedUrlNote, printsData, printsUrl, webhookView } from './view.js';

/** `formctl webhook get [form] [id]`: the command and its flags, declared once. */
function webhookGetCommand() {
  const base = new Command('get')
    .alias('view')
    .description('Show one webhook integration: URL (secret parts masked), status, masked secret, headers (values masked), logic');
  return examples(addOutputOptions(addShowSecretOption(addWebhookIdArgument(addFormArgument(base))), { fields: WEBHOOK_FIELDS }), [
    'formctl webhook get contact 7',
    "formctl webhook get 42 7 --json data | jq '.data.webhook_headers | keys'   # values only with --show-secret",
  ]);
}

export type WebhookGetOptions = FlagsOf<typeof webhookGetCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> & {
    form: string;
    id: number;
  };

/** `formctl webhook get [form] [id]`. */
export function newWebhookGetCommand(f: Factory, runF = webhookGetRun) {
  return webhookGetCommand().action(async (formArg, idArg, flags) => {
    const { form, id } = await resolveWebhookArgs(f, formArg, idArg);
    return runF({ ...flags, io: f.io, api: f.api, now: f.now, form, id });
  });
}

/** Shows one webhook, its secret, header values and the secret parts of its URL masked (unless --show-secret). */
export async function webhookGetRun(o: WebhookGetOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const client = await o.api();
  const { webhook } = await webhookTarget(client, o.form, o.id);
  const hook = webhookView(webhook, o.showSecret);
  await writeObject(o.io, format, hook, DETAIL_COLUMNS, { now: o.now() });
  // The detail view shows every header with its value masked, as JSON does when it holds `data`.
  const masked = format.kind === 'table' || format.kind === 'tsv' || printsData(format) ? maskedHeadersNote([webhook], o.showSecret) : undefined;
  if (masked) await notice(o.io, masked);
  const urls = printsUrl(format) ? maskedUrlNote([webhook], o.showSecret) : undefined;
  if (urls) await notice(o.io, urls);
}
