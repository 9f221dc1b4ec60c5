import { resolveForm } from '../../api/forms.js';
import { deleteSubmission } from '../../api/submissions.js';
import { resolveSubmissionRef } from '../../submissions/lookup.js';
import { parseSubmissionRef, submissionRefArg } from '../../submissions/ref.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { checkJsonFields, resolveFormat, writeDone } from '../../io/output.js';
import { confirmDestructive, promptsOffHint } from '../../io/prompter.js';
import { formLabel } from '../../forms/label.js';
import { resolveFormArg } from '../pickers.js';
import type { FlagsOf } from '../shared.js';
import { abortableSleep } from '../../sleep.js';
import { isBulk, submissionBulkDeleteRun } from './delete-bulk.js';
import { BULK_DELETE_FIELDS, DELETE_FIELDS, submissionDeleteCommand } from './shared.js';

export type SubmissionDeleteOptions = FlagsOf<typeof submissionDeleteCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    form: string;
    submissionId: string;
  };

/** `formctl submission delete [form] [submission-id]`. */
export function newSubmissionDeleteCommand(f: Factory, runF = submissionDeleteRun, bulkF = submissionBulkDeleteRun) {
  return submissionDeleteCommand().action(async (form, submissionId, flags) => {
    // One --json serves both runs; each takes only its own fields.
    if (Array.isArray(flags.json)) checkJsonFields(flags.json, isBulk(flags) ? BULK_DELETE_FIELDS : DELETE_FIELDS);
    if (isBulk(flags)) {
      if (submissionId !== undefined) throw new UsageError('Give a submission id or --from/--before/--where/--resume, not both.');
      return bulkF({
        ...flags,
        io: f.io,
        api: f.api,
        prompter: f.prompter,
        context: () => f.context(),
        now: () => f.now().getTime(),
        sleep: abortableSleep,
        signal: f.signal,
        form: await resolveFormArg(f, form),
      });
    }
    const flag = {
      backup: flags.backup === false ? '--no-backup' : '--backup',
      results: '--results',
      rateLimit: '--rate-limit',
      dryRun: '--dry-run',
    } as const;
    const bulkOnly = (['backup', 'results', 'rateLimit', 'dryRun'] as const).filter((k) => flags[k] !== undefined);
    if (bulkOnly.length > 0) throw new UsageError(`${flag[bulkOnly[0]!]} is for bulk deletes: add --from, --before or --where.`);
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
  const format = resolveFormat(o.io, o);
  const ref = submissionRefArg(o.submissionId);
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  const id = await resolveSubmissionRef(client, form.id, ref);
  const label = ref.kind === 'id' ? `submission ${id}` : `submission ${id} (${ref.uuid})`;
  await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Delete ${label} of form ${formLabel(form)} for good?` });
  await deleteSubmission(client, form.id, id);
  await writeDone(o.io, format, { id, deleted: true, form_id: form.id, submission_id: o.submissionId }, `Deleted ${label} of form ${formLabel(form)}.`);
}
