import { Command } from '@commander-js/extra-typings';
import { listWebhooks } from '../../api/webhooks.js';
import type { Factory } from '../../factory.js';
import { profileWords, shellWord } from '../hint-words.js';
import { applyLimit, listLimit, moreNote } from '../../io/limit.js';
import { notice, resolveFormat, writeList } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { withSpinner } from '../../io/spinner.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples, addLimitOptions } from '../shared.js';
import { addShowSecretOption } from './shared.js';
import { formIdOf } from './target.js';
import { LIST_COLUMNS, WEBHOOK_FIELDS, maskedHeadersNote, maskedUrlNote, printsData, printsUrl, webhookView } from './view.js';

/** `formctl webhook list [form]`: the command and its flags, declared once. */
function webhookListCommand() {
  const base = addFormArgument(addLimitOptions(new Command('list').alias('ls').description("List a form's webhook integrations"), 'webhooks'));
  return examples(addOutputOptions(addShowSecretOption(base), { list: true, fields: WEBHOOK_FIELDS }), [
    'formctl webhook list contact',
    'formctl webhook list 42 --json id,status,data | jq -r \'.[] | "\\(.id) \\(.data.webhook_url)"\'',
  ]);
}

export type WebhookListOptions = FlagsOf<typeof webhookListCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> &
  Partial<Pick<Factory, 'context'>> & {
    form: string;
  };

/** `formctl webhook list [form]`. */
export function newWebhookListCommand(f: Factory, runF = webhookListRun) {
  return webhookListCommand().action(async (form, flags) =>
    runF({ ...flags, io: f.io, api: f.api, now: f.now, context: f.context, form: await resolveFormArg(f, form) }),
  );
}

/** Lists webhooks with their secrets, header values and the secret parts of their URLs masked (unless --show-secret). */
export async function webhookListRun(o: WebhookListOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const limit = listLimit(format, o);
  const client = await o.api();
  const found = await withSpinner(o.io, 'Loading webhooks…', async () => listWebhooks(client, await formIdOf(client, o.form)));
  const hooks = found.map((i) => webhookView(i, o.showSecret));
  const { rows, cut } = applyLimit(hooks, limit);
  await writeList(o.io, format, rows, LIST_COLUMNS, {
    now: o.now(),
    empty: `Form ${o.form} has no webhooks. Add one with \`formctl${await profileWords(o.context)} webhook create ${shellWord(o.form)} --url https://…\`.`,
  });
  // The table and TSV show header names only; JSON shows each name with its value masked.
  const masked = printsData(format) ? maskedHeadersNote(found.slice(0, rows.length), o.showSecret) : undefined;
  if (masked) await notice(o.io, masked);
  const urls = printsUrl(format) ? maskedUrlNote(found.slice(0, rows.length), o.showSecret) : undefined;
  if (urls) await notice(o.io, urls);
  if (cut) await notice(o.io, moreNote(rows.length, 'webhooks'));
}
