import { Command } from '@commander-js/extra-typings';
import { resolveForm } from '../../api/forms.js';
import { deleteSubmission } from '../../api/submissions.js';
import { resolveSubmissionRef } from '../../submissions/lookup.js';
import { parseSubmissionRef, submissionRefArg } from '../../submissions/ref.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { success } from '../../io/output.js';
import { confirmDestructive, promptsOffHint } from '../../io/prompter.js';
import { formLabel } from '../../forms/label.js';
import { resolveFormArg } from '../pickers.js';
import { type FlagsOf, addFormArgument, addYesOption, examples } from '../shared.js';

/** `formctl submission delete [form] [submission-id]`: the command and its flags, declared once. */
function submissionDeleteCommand() {
  const base = addFormArgument(new Command('delete').alias('rm').description('Delete one submission for good')).argument(
    '[submission-id]',
    'Submission id, see `formctl submission list` (asked on a terminal when omitted)',
  );
  return examples(addYesOption(base), [
    'formctl submission delete contact-us 118',
    'formctl submission delete 42 118 --yes   # in scripts',
    'formctl submission delete   # on a terminal: pick the form, then type the id',
  ]);
}

export type SubmissionDeleteOptions = FlagsOf<typeof submissionDeleteCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    form: string;
    submissionId: string;
  };

/** `formctl submission delete [form] [submission-id]`. */
export function newSubmissionDeleteCommand(f: Factory, runF = submissionDeleteRun) {
  return submissionDeleteCommand().action(async (form, submissionId, flags) => {
    const ref = await resolveFormArg(f, form);
    if (submissionId === undefined && !f.io.canPrompt) {
      throw new UsageError(
        'Missing <submission-id> argument.',
        promptsOffHint('the submission id as <submission-id>', `See \`formctl submission list ${ref}\`.`),
      );
    }
    const id =
      submissionId ??
      (
        await f.prompter().input({
          message: 'Submission id to delete',
          flag: '<submission-id> argument',
          validate: (v) => (parseSubmissionRef(v) ? true : 'A submission id: the number in the ID column of `formctl submission list`'),
        })
      ).trim();
    return runF({ ...flags, io: f.io, api: f.api, prompter: f.prompter, form: ref, submissionId: id });
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
