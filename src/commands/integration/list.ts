import { Command } from '@commander-js/extra-typings';
import { resolveForm } from '../../api/forms.js';
import { type WebhookIntegration, listIntegrations } from '../../api/webhooks.js';
import type { Factory } from '../../factory.js';
import { profileWords, shellWord } from '../hint-words.js';
import { applyLimit, listLimit, moreNote } from '../../io/limit.js';
import { type Column, notice, resolveFormat, writeList } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { integrationSummary, integrationView, kindOf } from '../../webhooks/integrations.js';
import { resolveFormArg } from '../pickers.js';
import { type FlagsOf, addFormArgument, addLimitOptions, addOutputOptions, examples } from '../shared.js';

/** `integration list --json` fields: the service's record (its `data` masked) plus `kind` and `summary`. */
export const INTEGRATION_FIELDS = ['id', 'form_id', 'kind', 'integration_id', 'status', 'summary', 'data', 'logic', 'created_at', 'updated_at'] as const;

type Row = WebhookIntegration & { kind: string; summary: string };

const COLUMNS: Column<Row>[] = [
  { header: 'ID', value: (r) => r.id, style: 'cyan' },
  { header: 'Kind', value: (r) => r.kind },
  { header: 'Status', value: (r) => r.status },
  { header: 'Summary', value: (r) => r.summary },
  { header: 'Updated', value: (r) => r.updated_at, time: true },
];

/** `formctl integration list [form]`: the command and its flags, declared once. */
function integrationListCommand() {
  const base = addFormArgument(
    addLimitOptions(new Command('list').alias('ls').description("List a form's integrations of every kind (webhooks, Slack, e-mail, …)"), 'integrations'),
  );
  return examples(addOutputOptions(base, { list: true, fields: INTEGRATION_FIELDS }), [
    'formctl integration list contact',
    'formctl integration list 42 --json kind,status,summary | jq -r \'.[] | select(.status == "active") | .kind\'',
  ]);
}

export type IntegrationListOptions = FlagsOf<typeof integrationListCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> &
  Partial<Pick<Factory, 'context'>> & {
    form: string;
  };

/** `formctl integration list [form]`. */
export function newIntegrationListCommand(f: Factory, runF = integrationListRun) {
  return integrationListCommand().action(async (form, flags) =>
    runF({ ...flags, io: f.io, api: f.api, now: f.now, context: f.context, form: await resolveFormArg(f, form) }),
  );
}

/**
 * Every integration of the form, whatever its kind, with a one-line summary of where it sends
 * (URLs with their secret parts masked, as `webhook list` shows them; `data` masked the same way).
 * Each active one runs again on every submission update on the deployed service.
 */
export async function integrationListRun(o: IntegrationListOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const limit = listLimit(format, o);
  const client = await o.api();
  const found = await withSpinner(o.io, 'Loading integrations…', async () => listIntegrations(client, (await resolveForm(client, o.form)).id));
  const rows: Row[] = found.map((i) => ({ ...integrationView(i), kind: kindOf(i), summary: integrationSummary(i) }));
  const { rows: shown, cut } = applyLimit(rows, limit);
  await writeList(o.io, format, shown, COLUMNS, {
    now: o.now(),
    empty: `Form ${o.form} has no integrations. Add a webhook with \`formctl${await profileWords(o.context)} webhook create ${shellWord(o.form)} --url https://…\`.`,
  });
  if (cut) await notice(o.io, moreNote(shown.length, 'integrations'));
}
