import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { resolveForm } from '../../api/forms.js';
import { deleteSubmission, parseSubmissionRef, resolveSubmissionRef, submissionRefArg } from '../../api/submissions.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { success } from '../../io/output.js';
import { type Prompter, confirmDestructive, promptsOffHint } from '../../io/prompter.js';
import { formLabel } from '../../forms/label.js';
import { resolveFormArg } from '../pickers.js';
import { addFormArgument, addYesOption, examples, type UntypedCommand, untypedAction } from '../shared.js';

export interface SubmissionDeleteOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  prompter: () => Prompter;
  form: string;
  submissionId: string;
  yes?: boolean;
}

/** `formctl submission delete <form> <submission-id>`. */
export function newSubmissionDeleteCommand(f: Factory, runF = submissionDeleteRun) {
  const cmd: UntypedCommand = new Command('delete')
    .alias('rm')
    .description('Delete one submission for good');
  addFormArgument(cmd);
  cmd.argument('[submission-id]', 'Submission id, see `formctl submission list` (asked on a terminal when omitted)');
  addYesOption(cmd);
  examples(cmd, ['formctl submission delete contact-us 118', 'formctl submission delete 42 118 --yes   # in scripts', 'formctl submission delete   # on a terminal: pick the form, then type the id']);
  return untypedAction(cmd, async (form: string | undefined, submissionId: string | undefined, flags: { yes?: boolean }) => {
    const ref = await resolveFormArg(f, form);
    if (submissionId === undefined && !f.io.canPrompt) {
      throw new UsageError('Missing <submission-id> argument.', promptsOffHint('the submission id as <submission-id>', `See \`formctl submission list ${ref}\`.`));
    }
    const id =
      submissionId ??
      (await f.prompter().input({
        message: 'Submission id to delete',
        flag: '<submission-id> argument',
        validate: (v) => (parseSubmissionRef(v) ? true : 'A submission id: the number in the ID column of `formctl submission list`'),
      })).trim();
    return runF({ io: f.io, api: f.api, prompter: f.prompter, form: ref, submissionId: id, yes: flags.yes });
  });
}

/**
 * Resolves the form (a slug works too) and a UUID to its numeric id (the deployed service reads a UUID
 * path id as its leading digits, i.e. as another submission), confirms, then deletes.
 */
export async function submissionDeleteRun(o: SubmissionDeleteOptions): Promise<void> {
  const ref = submissionRefArg(o.submissionId);
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  const id = await resolveSubmissionRef(client, form.id, ref);
  const label = ref.kind === 'id' ? `submission ${id}` : `submission ${id} (${ref.uuid})`;
  await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Delete ${label} of form ${formLabel(form)} for good?` });
  await deleteSubmission(client, form.id, id);
  await success(o.io, `Deleted ${label} of form ${formLabel(form)}.`);
}
