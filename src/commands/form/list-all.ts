import { Command } from '@commander-js/extra-typings';
import { listAllFormsDeprecated } from '../../api/forms.js';
import type { Factory } from '../../factory.js';
import { applyLimit, listLimit, moreNote } from '../../io/limit.js';
import { notice, resolveFormat, writeList } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { type FlagsOf, addOutputOptions, examples, addLimitOptions } from '../shared.js';
import { FORM_FIELDS, FORM_SUMMARY_COLUMNS, FORM_SUMMARY_FIELDS, hideSecrets, otherKeysNote, resolveFormFormat, secretsLeftNote } from './shared.js';

/** The deprecated list gives full forms on the deployed service and summaries on the spec's. */
const LIST_ALL_FIELDS = [...new Set<string>([...FORM_SUMMARY_FIELDS, ...FORM_FIELDS])];

/** `formctl form list-all`: the command and its flags, declared once. */
function formListAllCommand() {
  const base = new Command('list-all').description('List forms across all your workspaces (deprecated endpoint, for old automations)');
  const cmd = addOutputOptions(addLimitOptions(base, 'forms'), { list: true, fields: LIST_ALL_FIELDS, open: true });
  otherKeysNote(cmd, { what: 'a listed form has' });
  return examples(cmd, ['formctl form list-all', 'formctl form list-all --json id,title,workspace_id']);
}

export type FormListAllOptions = FlagsOf<typeof formListAllCommand> & Pick<Factory, 'io' | 'api' | 'now'>;

/** `formctl form list-all`. */
export function newFormListAllCommand(f: Factory, runF = formListAllRun) {
  return formListAllCommand().action((flags) => runF({ ...flags, io: f.io, api: f.api, now: f.now }));
}

/** Calls the deprecated `GET /open/forms` (not paginated; full forms on the deployed service). */
export async function formListAllRun(o: FormListAllOptions): Promise<void> {
  listLimit(resolveFormat(o.io, o), o);
  await notice(o.io, 'GET /open/forms is deprecated by the service; prefer `formctl form list -w <workspace> --all`.');
  const client = await o.api();
  const forms = await withSpinner(o.io, 'Loading forms…', () => listAllFormsDeprecated(client));
  const format = resolveFormFormat(o.io, o, LIST_ALL_FIELDS, forms);
  const { rows, cut } = applyLimit(forms, listLimit(format, o));
  // The deployed service lists full forms, password included: left out unless named (docs/forms.md, "Secrets").
  const shown = hideSecrets(format, rows);
  await writeList(o.io, format, shown.forms, FORM_SUMMARY_COLUMNS, { now: o.now(), empty: 'No forms.' });
  await secretsLeftNote(o.io, format, shown.left, "the forms'");
  if (cut) await notice(o.io, moreNote(rows.length, 'forms'));
}
