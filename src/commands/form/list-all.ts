import { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { listAllFormsDeprecated } from '../../api/forms.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
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
}

/** `formctl form list-all`. */
export function newFormListAllCommand(f: Factory, runF = formListAllRun): Command {
  const cmd = new Command('list-all').description('List forms across all your workspaces (deprecated endpoint, for old automations)');
  addOutputOptions(cmd, { list: true, fields: LIST_ALL_FIELDS });
  otherKeysNote(cmd, { what: 'a listed form has' });
  examples(cmd, ['formctl form list-all', 'formctl form list-all --json id,title,workspace_id']);
  return cmd.action((flags: OutputFlags) => runF({ io: f.io, api: f.api, now: f.now, output: flags }));
}

/** Calls the deprecated `GET /open/forms` (not paginated; full forms on the deployed service). */
export async function formListAllRun(o: FormListAllOptions): Promise<void> {
  resolveFormat(o.io, o.output);
  await notice(o.io, 'GET /open/forms is deprecated by the service; prefer `formctl form list -w <workspace> --all`.');
  const client = await o.api();
  const forms = await withSpinner(o.io, 'Loading forms…', () => listAllFormsDeprecated(client));
  const format = resolveFormFormat(o.io, o.output, LIST_ALL_FIELDS, forms);
  await writeList(o.io, format, forms, FORM_SUMMARY_COLUMNS, { now: o.now(), empty: 'No forms.' });
}
