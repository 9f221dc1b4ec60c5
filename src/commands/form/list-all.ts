import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { listAllFormsDeprecated } from '../../api/forms.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type LimitFlags, addLimitOptions, applyLimit, listLimit, moreNote } from '../../io/limit.js';
import { type OutputFlags, notice, resolveFormat, writeList } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { addOutputOptions, examples } from '../shared.js';
import { FORM_FIELDS, FORM_SUMMARY_COLUMNS, FORM_SUMMARY_FIELDS, otherKeysNote, resolveFormFormat } from './common.js';

/** The deprecated list gives full forms on the deployed service and summaries on the spec's. */
const LIST_ALL_FIELDS = [...new Set<string>([...FORM_SUMMARY_FIELDS, ...FORM_FIELDS])];

export interface FormListAllOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  now: () => Date;
  output: OutputFlags;
  all?: boolean;
  limit?: number;
}

/** `formctl form list-all`. */
export function newFormListAllCommand(f: Factory, runF = formListAllRun) {
  const cmd = new Command('list-all').description('List forms across all your workspaces (deprecated endpoint, for old automations)');
  addLimitOptions(cmd, 'forms');
  addOutputOptions(cmd, { list: true, fields: LIST_ALL_FIELDS });
  otherKeysNote(cmd, { what: 'a listed form has' });
  examples(cmd, ['formctl form list-all', 'formctl form list-all --json id,title,workspace_id']);
  return cmd.action((flags: OutputFlags & LimitFlags) => runF({ io: f.io, api: f.api, now: f.now, all: flags.all, limit: flags.limit, output: flags }));
}

/** Calls the deprecated `GET /open/forms` (not paginated; full forms on the deployed service). */
export async function formListAllRun(o: FormListAllOptions): Promise<void> {
  listLimit(resolveFormat(o.io, o.output), o);
  await notice(o.io, 'GET /open/forms is deprecated by the service; prefer `formctl form list -w <workspace> --all`.');
  const client = await o.api();
  const forms = await withSpinner(o.io, 'Loading forms…', () => listAllFormsDeprecated(client));
  const format = resolveFormFormat(o.io, o.output, LIST_ALL_FIELDS, forms);
  const { rows, cut } = applyLimit(forms, listLimit(format, o));
  await writeList(o.io, format, rows, FORM_SUMMARY_COLUMNS, { now: o.now(), empty: 'No forms.' });
  if (cut) await notice(o.io, moreNote(rows.length, 'forms'));
}
