import { Command } from '@commander-js/extra-typings';
import { type Form, type FormProperty, resolveForm } from '../../api/forms.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type Column, type OutputFormat, resolveFormat, writeList } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { withSpinner } from '../../io/spinner.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples } from '../shared.js';
import { PROPERTY_FIELDS, otherKeysNote, resolveFormFormat } from './shared.js';

/** `formctl form fields [form]`: the command and its flags, declared once. */
function formFieldsCommand() {
  const cmd = addOutputOptions(
    addFormArgument(new Command('fields').description("List a form's fields with the ids that exports and submission patches use")),
    {
      list: true,
      fields: PROPERTY_FIELDS,
      open: true,
    },
  );
  otherKeysNote(cmd, { what: 'a field has on the service' });
  return examples(cmd, ['formctl form fields 42', 'formctl form fields contact-us --json id,name | jq -r \'.[] | "\\(.id)=\\(.name)"\'']);
}

export type FormFieldsOptions = FlagsOf<typeof formFieldsCommand> &
  Pick<Factory, 'io' | 'api'> & {
    /** The form's id or slug (the resolved [form] argument). */
    form: string;
  };

/** `formctl form fields <id|slug>`. */
export function newFormFieldsCommand(f: Factory, runF = formFieldsRun) {
  return formFieldsCommand().action(async (form, flags) => runF({ ...flags, io: f.io, api: f.api, form: await resolveFormArg(f, form) }));
}

const COLUMNS: Column<FormProperty>[] = [
  { header: 'ID', value: (p) => p.id, style: 'cyan' },
  { header: 'Type', value: (p) => p.type },
  { header: 'Name', value: (p) => p.name },
  { header: 'Required', value: (p) => (p.required === true ? 'yes' : 'no') },
];

/** Writes a form's properties in the chosen format. */
export async function writeFieldTable(io: IOStreams, format: OutputFormat, form: Form): Promise<void> {
  await writeList(io, format, Array.isArray(form.properties) ? form.properties : [], COLUMNS, { empty: 'This form has no fields.' });
}

/** Lists the form's properties (id, type, name, required; --json gives every key). */
export async function formFieldsRun(o: FormFieldsOptions): Promise<void> {
  resolveFormat(o.io, o);
  const client = await o.api();
  const form = await withSpinner(o.io, 'Loading form…', () => resolveForm(client, o.form));
  const format = resolveFormFormat(o.io, o, PROPERTY_FIELDS, Array.isArray(form.properties) ? form.properties : []);
  await writeFieldTable(o.io, format, form);
}
