import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { listWebhooks } from '../../api/webhooks.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type LimitFlags, addLimitOptions, applyLimit, listLimit, moreNote } from '../../io/limit.js';
import { type OutputFlags, notice, resolveFormat, writeList } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { withSpinner } from '../../io/spinner.js';
import { addFormArgument, addOutputOptions, examples, type UntypedCommand, untypedAction } from '../shared.js';
import { addShowSecretOption } from './shared.js';
import { formIdOf } from './target.js';
import { LIST_COLUMNS, WEBHOOK_FIELDS, webhookView } from './view.js';

export interface WebhookListOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  now: () => Date;
  form: string;
  showSecret?: boolean;
  output: OutputFlags;
  all?: boolean;
  limit?: number;
}

/** `formctl webhook list [form]`. */
export function newWebhookListCommand(f: Factory, runF = webhookListRun) {
  const cmd: UntypedCommand = new Command('list').alias('ls').description("List a form's webhook integrations");
  addLimitOptions(cmd, 'webhooks');
  addFormArgument(cmd);
  addShowSecretOption(cmd);
  addOutputOptions(cmd, { list: true, fields: WEBHOOK_FIELDS });
  examples(cmd, ['formctl webhook list contact', "formctl webhook list 42 --json id,status,data | jq -r '.[] | \"\\(.id) \\(.data.webhook_url)\"'"]);
  return untypedAction(cmd, async (form: string | undefined, flags: OutputFlags & LimitFlags & { showSecret?: boolean }) =>
    runF({ io: f.io, api: f.api, now: f.now, form: await resolveFormArg(f, form), showSecret: flags.showSecret, all: flags.all, limit: flags.limit, output: flags }),
  );
}

/** Lists webhooks with their secrets masked. */
export async function webhookListRun(o: WebhookListOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output, WEBHOOK_FIELDS);
  const limit = listLimit(format, o);
  const client = await o.api();
  const found = await withSpinner(o.io, 'Loading webhooks…', async () => listWebhooks(client, await formIdOf(client, o.form)));
  const hooks = found.map((i) => webhookView(i, o.showSecret));
  const { rows, cut } = applyLimit(hooks, limit);
  await writeList(o.io, format, rows, LIST_COLUMNS, {
    now: o.now(),
    empty: `Form ${o.form} has no webhooks. Add one with \`formctl webhook create ${o.form} --url https://…\`.`,
  });
  if (cut) await notice(o.io, moreNote(rows.length, 'webhooks'));
}
