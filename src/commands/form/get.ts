import { Command, Option } from '@commander-js/extra-typings';
import { completes } from '../../completion/kinds.js';
import { type Form, resolveForm } from '../../api/forms.js';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { describeRetention, retentionOf } from '../../service/retention.js';
import { type Column, resolveFormat, writeObject } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { withSpinner } from '../../io/spinner.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples, parseId } from '../shared.js';
import { FORM_FIELDS, hideSecrets, otherKeysNote, resolveFormFormat, secretsLeftNote } from './shared.js';
import { writeFieldTable } from './fields.js';

/** `formctl form get [form]`: the command and its flags, declared once. */
function formGetCommand() {
  const base = addFormArgument(new Command('get').alias('view').description('Show a form with its settings and fields'))
    // -w only chooses the workspace whose forms the picker offers when <form> is left out.
    .addOption(
      completes(
        new Option('-w, --workspace <id>', 'Workspace to pick the form from when <form> is left out (on a terminal)').argParser(parseId('--workspace')),
        'workspace',
      ),
    );
  const cmd = addOutputOptions(base, { fields: FORM_FIELDS, open: true });
  otherKeysNote(cmd);
  return examples(cmd, ['formctl form get 42', 'formctl form get contact-us --json', "formctl form get 42 --json properties | jq '.properties[].id'"]);
}

export type FormGetOptions = Omit<FlagsOf<typeof formGetCommand>, 'workspace'> &
  Pick<Factory, 'io' | 'api' | 'now'> & {
    /** The form's id or slug (the resolved [form] argument). */
    form: string;
  };

/** `formctl form get <id|slug>`. */
export function newFormGetCommand(f: Factory, runF = formGetRun) {
  // --workspace is used up here, by the picker; the run function gets the chosen form.
  return formGetCommand().action(async (form, { workspace, ...flags }) =>
    runF({ ...flags, io: f.io, api: f.api, now: f.now, form: await resolveFormArg(f, form, workspace) }),
  );
}

const COLUMNS: Column<Form>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Slug', value: (r) => r.slug },
  { header: 'Title', value: (r) => r.title },
  { header: 'Visibility', value: (r) => r.visibility },
  { header: 'Language', value: (r) => r.language },
  { header: 'Workspace', value: (r) => r.workspace_id },
  { header: 'Fields', value: (r) => (Array.isArray(r.properties) ? r.properties.length : 0) },
  { header: 'Submissions', value: (r) => r.submissions_count },
  // The service deletes older submissions for good every hour (docs/forms.md, "Retention").
  { header: 'Retention', value: (r) => retentionLabel(r) },
  { header: 'Updated', value: (r) => r.updated_at, time: true },
  { header: 'URL', value: (r) => r.share_url },
];

/** "30 days (older submissions, by last update, are deleted every hour)", or "none (submissions are kept)". */
function retentionLabel(form: Form): string {
  const r = retentionOf(form);
  return r ? `${describeRetention(r)} (older submissions, by last update, are deleted every hour)` : 'none (submissions are kept)';
}

/** Prints the full form: every field with --json; a summary and the field table for people. */
export async function formGetRun(o: FormGetOptions): Promise<void> {
  resolveFormat(o.io, o);
  const client = await o.api();
  const form = await withSpinner(o.io, 'Loading form…', () => resolveForm(client, o.form));
  const format = resolveFormFormat(o.io, o, FORM_FIELDS, [form]);
  // The form's password is printed only when `--json` names it (docs/forms.md, "Secrets").
  const { forms, left } = hideSecrets(format, [form]);
  await writeObject(o.io, format, forms[0]!, COLUMNS, { now: o.now() });
  await secretsLeftNote(o.io, format, left);
  if (format.kind === 'table' && Array.isArray(form.properties) && form.properties.length > 0) {
    await write(o.io.stdout, '\n');
    await writeFieldTable(o.io, format, form);
  }
}
