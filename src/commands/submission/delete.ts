import { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { resolveForm } from '../../api/forms.js';
import { deleteSubmission } from '../../api/submissions.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { success } from '../../io/output.js';
import { type Prompter, confirmDestructive } from '../../io/prompter.js';
import { formLabel } from '../form/common.js';
import { addYesOption, examples } from '../shared.js';

export interface SubmissionDeleteOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  prompter: () => Prompter;
  form: string;
  submissionId: string;
  yes?: boolean;
}

/** `formctl submission delete <form> <submission-id>`. */
export function newSubmissionDeleteCommand(f: Factory, runF = submissionDeleteRun): Command {
  const cmd = new Command('delete')
    .alias('rm')
    .description('Delete one submission for good')
    .argument('<form>', 'Form id or slug')
    .argument('<submission-id>', 'Submission id (see `formctl submission list`)');
  addYesOption(cmd);
  examples(cmd, ['formctl submission delete contact-us 118', 'formctl submission delete 42 118 --yes   # in scripts']);
  return cmd.action((form: string, submissionId: string, flags: { yes?: boolean }) =>
    runF({ io: f.io, api: f.api, prompter: f.prompter, form, submissionId, yes: flags.yes }),
  );
}

/** Resolves the form (a slug works too), confirms, then deletes. */
export async function submissionDeleteRun(o: SubmissionDeleteOptions): Promise<void> {
  if (!/^[\w-]+$/.test(o.submissionId)) throw new UsageError(`Invalid submission id "${o.submissionId}".`);
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Delete submission ${o.submissionId} of form ${formLabel(form)} for good?` });
  await deleteSubmission(client, form.id, o.submissionId);
  await success(o.io, `Deleted submission ${o.submissionId} of form ${formLabel(form)}.`);
}
