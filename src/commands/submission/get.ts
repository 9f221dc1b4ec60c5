import { Command } from '@commander-js/extra-typings';
import { type Form, resolveForm } from '../../api/forms.js';
import type { NormalizedSubmission } from '../../api/normalize.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { type Column, escapeControls, resolveFormat, writeObject } from '../../io/output.js';
import { removedProperties } from '../../service/export.js';
import { currentAnswers } from '../../submissions/answers.js';
import { inputProperties } from '../../submissions/fields.js';
import { findSubmission } from '../../submissions/lookup.js';
import { submissionRefArg, uuidOf } from '../../submissions/ref.js';
import { resolveFormArg } from '../pickers.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples } from '../shared.js';
import { SUBMISSION_FIELDS, submissionRecord } from './shared.js';

/** `formctl submission get [form] [submission-id]`: the command and its flags, declared once. */
function submissionGetCommand() {
  const base = new Command('get').description('Show one submission: its answers by field, found through the submission list');
  // After [form]: Commander fills positionals in the order they were added.
  return examples(
    addOutputOptions(addFormArgument(base).argument('[submission-id]', 'Submission id, or its UUID (see `formctl submission list`)'), {
      fields: SUBMISSION_FIELDS,
    }),
    [
      'formctl submission get contact-us 118',
      'formctl submission get 42 118 --json data | jq .data',
      "formctl submission get 42 8cf39a23-0b3e-4952-af45-a152cff8f53f --jq '.data.email'",
    ],
  );
}

export type SubmissionGetOptions = FlagsOf<typeof submissionGetCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> & {
    form: string;
    submissionId: string;
  };

/** `formctl submission get [form] [submission-id]`. */
export function newSubmissionGetCommand(f: Factory, runF = submissionGetRun) {
  return submissionGetCommand().action(async (formArg, submissionId, flags) => {
    if (submissionId === undefined) {
      // The form alone is not enough, so picking it on a terminal would only lead to this error.
      const missing = formArg === undefined ? '<form> and <submission-id> arguments' : '<submission-id> argument';
      throw new UsageError(`Missing ${missing}.`, 'Pass a submission id: see `formctl submission list <form>`.');
    }
    return runF({ ...flags, io: f.io, api: f.api, now: f.now, form: await resolveFormArg(f, formArg), submissionId });
  });
}

/**
 * Finds the submission in the list, as update and delete do (findSubmission: a halving search over
 * the pages for a numeric id, the list read until it turns up for a UUID): the deployed service has
 * a single-submission route, but it is closed to tokens, and the spec has none (docs/service.md,
 * Submissions). Prints it as the list's JSON record, or one row per answer for people.
 */
export async function submissionGetRun(o: SubmissionGetOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const ref = submissionRefArg(o.submissionId);
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  const item = await findSubmission(client, form.id, ref);
  await writeObject(o.io, format, submissionRecord(item), columnsFor(form, item), { now: o.now() });
}

/**
 * The rows a person reads: the ids, the time, the status and completion time when the service lists
 * them (the deployed one), every current field by name, then answers the submission still holds to
 * fields the form no longer has (named from its `removed_properties` when it lists them). The field
 * names come from the service: their control characters, tab and newline included, are escaped, so
 * a name holding a line break cannot start a row (or a forged `error:` line) of its own, in the
 * table or in TSV.
 */
function columnsFor(form: Form, item: NormalizedSubmission): Column<Record<string, unknown>>[] {
  const data = (r: Record<string, unknown>) => r.data as Record<string, unknown>;
  const uuid = uuidOf(item);
  const status = item.data.status;
  const gone = new Map(removedProperties(form).map((p) => [p.id, p.name]));
  const label = (name: string) => escapeControls(name, { all: true });
  return [
    { header: 'ID', value: () => item.pathId, style: 'cyan' },
    ...(uuid !== undefined ? [{ header: 'UUID', value: () => uuid }] : []),
    { header: 'Submitted', value: (r) => r.submitted_at, time: true },
    ...(typeof status === 'string' ? [{ header: 'Status', value: () => status }] : []),
    ...(item.completion_time !== undefined && item.completion_time !== null ? [{ header: 'Seconds taken', value: () => item.completion_time }] : []),
    ...inputProperties(form).map((p): Column<Record<string, unknown>> => ({ header: label(p.name || p.id), value: (r) => data(r)[p.id] })),
    ...currentAnswers(form, item).removed.map((id): Column<Record<string, unknown>> => ({
      header: `${label(gone.get(id) || id)} (removed field)`,
      value: (r) => data(r)[id],
    })),
  ];
}
