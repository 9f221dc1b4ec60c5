import { UsageError } from '../errors.js';
import type { IOStreams } from '../io/iostreams.js';
import { type Prompter, confirmDestructive } from '../io/prompter.js';

/**
 * The one rule for an update that changes more than the user asked for (a submission update on the
 * deployed service, single or bulk: docs/submission-update.md; a form update whose fields leave out
 * attributes: docs/forms.md): once the warnings are said, a real run goes ahead with --yes, asks on
 * a terminal, and is refused (exit 2) elsewhere, before anything is sent; a "no" at the prompt is
 * exit 3. `what` names the update ("Updating submission 2 of form …"), `question` is asked on a
 * terminal.
 *
 * Why a yes for submissions: OpnForm's update (api/app/Http/Controllers/Forms/FormSubmissionController.php:82-92) runs
 * StoreFormSubmissionJob, which keeps only answers to the form's current fields (getFormData,
 * api/app/Jobs/Form/StoreFormSubmissionJob.php:295-298), stores them in place of every answer
 * (:249) and marks the submission completed (:251-253): answers to removed fields are gone for good.
 */
export async function confirmSideEffects(
  io: IOStreams,
  prompter: (() => Prompter) | undefined,
  o: { what: string; question: string; needsYes: boolean; dryRun?: boolean; yes?: boolean },
): Promise<void> {
  if (!o.needsYes || o.dryRun || o.yes) return;
  if (!prompter) throw sideEffectsRefusal(o.what);
  // Off a terminal this refuses too (exit 2, a hint naming --yes).
  await confirmDestructive(io, prompter(), { message: o.question });
}

/** A real run off a terminal, without --yes, that has side effects to confirm. */
export function sideEffectsRefusal(what: string): UsageError {
  return new UsageError(`${what} has the side effects above: refusing without --yes.`, 'Pass --yes to go ahead.');
}
