import { Command, Option } from '@commander-js/extra-typings';
import { resolveForm } from '../../api/forms.js';
import type { NormalizedSubmission } from '../../api/normalize.js';
import type { WholeListState } from '../../submissions/whole-list.js';
import { parseTimeFlag, resolveRange } from '../../io/time-range.js';
import { type RangeReading, readListInRange } from '../../submissions/range.js';
import { CliError, ExitCode } from '../../errors.js';
import { MAX_PER_PAGE } from '../../service/limits.js';
import type { Factory } from '../../factory.js';
import { type Column, notice, resolveFormat, writeList } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { SUBMISSION_FIELDS, retentionNote, submissionRecord } from './shared.js';
import { listLimit, moreNote } from '../../io/limit.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples, addLimitOptions } from '../shared.js';
import { formLabel } from '../../forms/label.js';
import { inputProperties } from '../../submissions/fields.js';

/** A table row shows this many answers; `--json` has them all. */
const TABLE_FIELDS = 3;

/** `formctl submission list [form]`: the command and its flags, declared once. */
function submissionListCommand() {
  const base = new Command('list')
    .alias('ls')
    .description("List a form's submissions, newest first")
    .addOption(new Option('--status <status>', 'Only submissions with this status').choices(['completed', 'partial', 'all']))
    .option('--search <text>', 'Only submissions with an answer matching this text')
    .addOption(
      new Option(
        '--since <when>',
        'Only submissions created at or after this: ISO date/time (UTC unless it names a zone) or a duration back from now (30m, 24h, 7d)',
      ).argParser(parseTimeFlag('--since')),
    )
    .addOption(new Option('--until <when>', 'Only submissions created before this (a date alone includes that day)').argParser(parseTimeFlag('--until')));
  return examples(addOutputOptions(addFormArgument(addLimitOptions(base, 'submissions')), { list: true, fields: SUBMISSION_FIELDS }), [
    'formctl submission list contact-us',
    'formctl submission list 42 --search alice@example.com',
    'formctl submission list 42 --since 24h',
    "formctl submission list 42 --ndjson | jq -r '.data | to_entries | map(.value) | @csv'",
    'formctl submission list 42 --all --json id,submitted_at | jq -r \'.[] | "\\(.id) \\(.submitted_at)"\'',
  ]);
}

export type SubmissionListOptions = FlagsOf<typeof submissionListCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> & {
    form: string;
  };

/** `formctl submission list [form]`. */
export function newSubmissionListCommand(f: Factory, runF = submissionListRun) {
  return submissionListCommand().action(async (form, flags) => runF({ ...flags, io: f.io, api: f.api, now: f.now, form: await resolveFormArg(f, form) }));
}

/** Streams submissions page by page; only the table (which must measure its columns) holds rows in memory. */
export async function submissionListRun(o: SubmissionListOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const machine = format.kind === 'json' || format.kind === 'ndjson';
  const limit = listLimit(format, o);
  const range = resolveRange(o, o.now());
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  await retentionNote(o.io, form);
  const shown = inputProperties(form).slice(0, TABLE_FIELDS);
  const columns: Column<NormalizedSubmission>[] = [
    { header: 'ID', value: (s) => s.pathId, style: 'cyan' },
    { header: 'Submitted', value: (s) => s.submitted_at, time: true },
    ...shown.map((p): Column<NormalizedSubmission> => ({ header: p.name || p.id, value: (s) => s.data[p.id] })),
  ];
  let truncated = false;
  const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
  const info: RangeReading = { stoppedEarly: false, outOfOrder: false, undated: 0 };
  async function* rows(): AsyncGenerator<NormalizedSubmission> {
    let shown = 0;
    // Newest first: with --since the reading stops at the range's start (src/submissions/range.ts).
    for await (const page of readListInRange(
      client,
      form.id,
      range,
      {
        query: { status: o.status, search: o.search },
        perPage: limit === undefined ? MAX_PER_PAGE : Math.min(limit, MAX_PER_PAGE),
        state,
      },
      info,
    )) {
      for (const s of page.items) {
        if (limit !== undefined && shown >= limit) {
          truncated = true;
          return;
        }
        shown++;
        yield s;
      }
      if (limit !== undefined && shown >= limit) {
        // The list holds more than the limit: the reading stops here.
        // With a range the list's total is not the range's: more is known only from the page itself (above).
        if (range.since === undefined && range.until === undefined)
          truncated = state.total === undefined ? page.page < (page.lastPage ?? page.page) : state.total > shown;
        return;
      }
    }
  }
  await writeList(o.io, format, machine ? toRecords(rows()) : rows(), columns as Column<unknown>[], {
    now: o.now(),
    loading: 'Loading submissions…',
    empty: `No submissions${o.search || o.status || o.since || o.until ? ' match' : ''} in form ${formLabel(form)}.`,
  });
  if (truncated) await notice(o.io, moreNote(limit ?? 0, 'submissions'));
  else if (state.complete === false && !info.stoppedEarly) throw incompleteList(form.id, state);
}

/**
 * The list ended with fewer distinct submissions than its total, read again and again (see
 * readWholeList): what was printed is all formctl could read, and the run fails so a script notices.
 */
function incompleteList(formId: number, state: WholeListState): CliError {
  const missing = state.missing ?? (state.total ?? 0) - state.distinct;
  return new CliError(
    `The submission list of form ${formId} is incomplete: the service counts ${state.total} submissions, but ${(state.total ?? 0) - missing} distinct ones could be read (${missing} missing, the list read ${state.rereads + 1} times, ${state.pages} pages); the output lacks ${missing === 1 ? 'it' : 'them'}.`,
    ExitCode.partial,
    'Submissions created in the same second come in no set order on the service, and answers deleted while it is read move the pages; run the command again.',
  );
}

/** The JSON records of the rows (submissionRecord). */
async function* toRecords(rows: AsyncIterable<NormalizedSubmission>): AsyncGenerator<Record<string, unknown>> {
  for await (const s of rows) yield submissionRecord(s);
}
