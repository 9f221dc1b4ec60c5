import { Command } from '@commander-js/extra-typings';
import { deleteForm, resolveForm } from '../../api/forms.js';
import type { Factory } from '../../factory.js';
import { writeBackup } from '../../forms/backups.js';
import { resolveFormat, writeDone } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { confirmByTyping, confirmDestructive } from '../../io/prompter.js';
import { type FlagsOf, addFormArgument, addOutputOptions, addYesOption, examples } from '../shared.js';
import { formLabel } from '../../forms/label.js';
import { backupDirFor } from './shared.js';

/** `formctl form delete [form]`: the command and its flags, declared once. */
function formDeleteCommand() {
  const base = new Command('delete').alias('rm').description('Delete a form and its submissions');
  return examples(addOutputOptions(addYesOption(addFormArgument(base)), { fields: DELETE_FIELDS }), [
    'formctl form delete 42',
    'formctl form delete contact-us --yes   # in scripts',
    'formctl form delete 42 --yes --json backup | jq -r .backup',
  ]);
}

export type FormDeleteOptions = FlagsOf<typeof formDeleteCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter' | 'now'> & {
    backupDir: (formId: number) => Promise<string>;
    /** The form's id or slug (the resolved [form] argument). */
    form: string;
  };

/** `formctl form delete <id|slug>`. */
export function newFormDeleteCommand(f: Factory, runF = formDeleteRun) {
  return formDeleteCommand().action(async (form, flags) =>
    runF({ ...flags, io: f.io, api: f.api, backupDir: (id) => backupDirFor(f, id), prompter: f.prompter, now: f.now, form: await resolveFormArg(f, form) }),
  );
}

/** Keys of `form delete --json`. */
export const DELETE_FIELDS = ['id', 'deleted', 'backup'] as const;

/** Looks the form up (so the prompt names it), confirms, saves a last copy of its definition, deletes. */
export async function formDeleteRun(o: FormDeleteOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  const n = typeof form.submissions_count === 'number' ? form.submissions_count : undefined;
  const message = `Delete form ${formLabel(form)}${submissionsPhrase(n)}?`;
  // Submissions are gone for good (the backup keeps only the definition): unless the form is known
  // to be empty, the person types its slug, as `gh repo delete` asks for the repository's name.
  if (n === 0) await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message });
  else await confirmByTyping(o.io, o.prompter(), { yes: o.yes, message, what: 'its slug', expected: form.slug });
  // The definition can be recreated from this copy (`form create --file`); submissions cannot.
  const saved = await writeBackup(await o.backupDir(form.id), form, o.now());
  await deleteForm(client, form.id);
  await writeDone(o.io, format, { id: form.id, deleted: true, backup: saved }, `Deleted form ${formLabel(form)}. Its definition was saved to ${saved}`);
}

/** What the prompt says the form takes with it: nothing when the count is unknown. */
export function submissionsPhrase(n: number | undefined): string {
  if (n === undefined) return '';
  if (n === 0) return ', which has no submissions';
  if (n === 1) return ' and its one submission';
  return ` and its ${n.toLocaleString('en-US')} submissions`;
}
