import { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { deleteForm, resolveForm } from '../../api/forms.js';
import type { Factory } from '../../factory.js';
import { writeBackup } from '../../forms/backups.js';
import type { IOStreams } from '../../io/iostreams.js';
import { success } from '../../io/output.js';
import { resolveFormArg } from '../../io/pickers.js';
import { type Prompter, confirmDestructive } from '../../io/prompter.js';
import { addFormArgument, addYesOption, examples } from '../shared.js';
import { backupDirFor, formLabel } from './common.js';

export interface FormDeleteOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  backupDir: (formId: number) => Promise<string>;
  prompter: () => Prompter;
  now: () => Date;
  ref: string;
  yes?: boolean;
}

/** `formctl form delete <id|slug>`. */
export function newFormDeleteCommand(f: Factory, runF = formDeleteRun): Command {
  const cmd = new Command('delete')
    .alias('rm')
    .description('Delete a form and its submissions');
  addFormArgument(cmd);
  addYesOption(cmd);
  examples(cmd, ['formctl form delete 42', 'formctl form delete contact-us --yes   # in scripts']);
  return cmd.action(async (ref: string | undefined, flags: { yes?: boolean }) =>
    runF({ io: f.io, api: f.api, backupDir: (id) => backupDirFor(f, id), prompter: f.prompter, now: f.now, ref: await resolveFormArg(f, ref), yes: flags.yes }),
  );
}

/** Looks the form up (so the prompt names it), confirms, saves a last copy of its definition, deletes. */
export async function formDeleteRun(o: FormDeleteOptions): Promise<void> {
  const client = await o.api();
  const form = await resolveForm(client, o.ref);
  const count = typeof form.submissions_count === 'number' ? ` and its ${form.submissions_count} submission${form.submissions_count === 1 ? '' : 's'}` : '';
  await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Delete form ${formLabel(form)}${count}?` });
  // The definition can be recreated from this copy (`form create --file`); submissions cannot.
  const saved = await writeBackup(await o.backupDir(form.id), form, o.now());
  await deleteForm(client, form.id);
  await success(o.io, `Deleted form ${formLabel(form)}. Its definition was saved to ${saved}`);
}
