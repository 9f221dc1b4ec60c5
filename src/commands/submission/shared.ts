import { Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { join } from 'node:path';
import { cacheDir } from '../../config/paths.js';
import type { NormalizedSubmission } from '../../api/normalize.js';
import type { ResolvedContext } from '../../config/resolve.js';
import { UsageError } from '../../errors.js';
import type { IOStreams } from '../../io/iostreams.js';
import { notice } from '../../io/output.js';
import { describeRetention, retentionOf } from '../../service/retention.js';
import type { Factory } from '../../factory.js';
import { MAX_SECONDS, MAX_SECONDS_WORDS, abortableSleep } from '../../sleep.js';
import { parsePositiveInt } from '../../io/limit.js';
import { addFormArgument, addYesOption, collectKeyValue, examples, fileOption, jqOption, jsonOption } from '../shared.js';
import { parseTimeFlag } from '../../io/time-range.js';

// Pieces shared by the submission verbs: flag parsers, the download flags of export and
// export-status, and the declaration of `submission update` (both of its run functions, the single
// update and the bulk one, take their options from it).

/** Parser for durations in seconds (fractions allowed) → ms. */
export function parseSeconds(name: string, o: { min?: number } = {}): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < (o.min ?? 0))
      throw new UsageError(`${name} must be a number of seconds${o.min ? ` of at least ${o.min}` : ''}, got "${v}".`);
    if (n > MAX_SECONDS) throw new UsageError(`${name} must be a number of seconds ${MAX_SECONDS_WORDS}, got "${v}".`);
    return Math.round(n * 1000);
  };
}

/** Requests in flight at once in a bulk update when --concurrency is not given (the help states it). */
export const DEFAULT_CONCURRENCY = 4;

export const DEFAULT_POLL_MS = 2_000;
/** The deployed export job may run for 900 s before the server gives up on it. */
export const DEFAULT_WAIT_TIMEOUT_MS = 900_000;

/**
 * What export and export-status take from the Factory, the same for both: the client, the clock and
 * sleep of their waits, Ctrl-C, and where the profile came from, so that resume commands name it
 * when it is not the shell's default.
 */
export type ExportDeps = Pick<Factory, 'io' | 'api'> & {
  signal?: AbortSignal;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  context?: () => Promise<Pick<ResolvedContext, 'profileName' | 'profileSource'>>;
  /** Where facts learnt about a service are kept (`<cache dir>/service`): whether it lets tokens read export jobs. */
  serviceCacheDir?: string;
  /** Where an export of more than one chunk to stdout is collected until every chunk passed (`<cache dir>/export`). */
  spoolDir?: string;
};

/** The Factory's dependencies as export and export-status hand them to their run functions. */
export function exportDeps(f: Factory): ExportDeps {
  return {
    io: f.io,
    api: f.api,
    signal: f.signal,
    now: () => f.now().getTime(),
    sleep: abortableSleep,
    context: () => f.context(),
    serviceCacheDir: join(cacheDir(f.env), 'service'),
    spoolDir: join(cacheDir(f.env), 'export'),
  };
}

/**
 * Adds the flags shared by `export` and `export-status --download`. `--poll-interval` and
 * `--wait-timeout` are given in seconds and parsed to milliseconds (`pollInterval`, `waitTimeout`).
 * Each command declares its own `--json`: `export-status` also takes a field list.
 */
export function addDownloadOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd
    .addOption(fileOption('-o, --output <file>', 'Write the CSV here ("-" for stdout; default: the name the service gives, in the current directory)'))
    .option('--clobber', 'Replace the output file if it exists')
    .addOption(
      new Option('--poll-interval <seconds>', 'Seconds between job status checks')
        .default(DEFAULT_POLL_MS, '2')
        .argParser(parseSeconds('--poll-interval', { min: 0.1 })),
    )
    .addOption(
      new Option('--wait-timeout <seconds>', 'Longest wait for an async export job to finish (the root --timeout is per request)')
        .default(DEFAULT_WAIT_TIMEOUT_MS, '900')
        .argParser(parseSeconds('--wait-timeout', { min: 1 })),
    );
}

/** `--json` fields of `submission list` and `get`: what the list prints on either service; the deployed one adds completion_time and form_id (docs/service.md, Submissions). */
export const SUBMISSION_FIELDS = ['id', 'submission_id', 'submitted_at', 'data', 'completion_time', 'form_id'] as const;

/** A submission's JSON record (list and get): the service's object with `submitted_at` filled in; the internal path id is not a field. */
export function submissionRecord(s: NormalizedSubmission): Record<string, unknown> {
  const { pathId, ...rest } = s;
  return { ...rest, id: rest.id ?? pathId };
}

/** Fields of a single `submission update --json` (a contract with scripts; see UpdateResult). */
export const UPDATE_FIELDS = ['submission_id', 'id', 'form_id', 'updated', 'message'] as const;

/** `formctl submission update [form] [submission-id]`: the command and its flags, declared once. */
export function submissionUpdateCommand() {
  const base = new Command('update')
    .description('Change answers of one submission, or of many from an NDJSON file')
    .option('--set <field=value>', 'Set a field, by name or id (repeatable)', collectKeyValue)
    .addOption(fileOption('--file <file>', 'JSON object of field values (names or ids); "-" reads stdin'))
    .addOption(
      fileOption('--from <file>', 'Bulk: NDJSON, one {"submission_id": …, "<field>": value} per line, or lines of `submission list --ndjson`; "-" reads stdin'),
    )
    .option('--concurrency <n>', `Bulk: requests in flight at once (default ${DEFAULT_CONCURRENCY})`, parsePositiveInt('--concurrency'))
    .option(
      '--rate-limit <n>',
      "Bulk: requests per minute to stay under (default: the service's X-RateLimit-Limit, else 100)",
      parsePositiveInt('--rate-limit'),
    )
    .addOption(fileOption('--results <file>', 'Bulk: write per-line results (NDJSON) here instead of stdout; needed for --resume'))
    .option('--resume', 'Bulk: skip lines the --results file already records as ok, and append to it')
    .option(
      '--dry-run',
      'Print the exact body that would be sent (current answers plus the patch under "data") and send nothing; with --from, check every line',
    )
    .option(
      '-y, --yes',
      'Go ahead without asking when an update has side effects on the deployed service (partial submissions completed, answers to removed fields dropped; bulk: integrations firing again)',
    )
    .addOption(
      jsonOption(UPDATE_FIELDS, {
        description: `Print the single update's result as JSON (updated: the field ids sent); optionally only these comma-separated fields (fields: ${UPDATE_FIELDS.join(', ')})`,
      }),
    )
    .addOption(jqOption());
  // After [form]: Commander fills positionals in the order they were added.
  return examples(addFormArgument(base).argument('[submission-id]', 'Submission id (not with --from)'), [
    'formctl submission update contact-us 118 --set Name="Ada Lovelace" --set Email=ada@example.com',
    'formctl submission update 42 118 --file answers.json',
    'formctl submission update 42 118 --set rating=5 --dry-run   # print the body, send nothing',
    'formctl submission update 42 --from fixes.ndjson --results fixes.results.ndjson',
    'formctl submission update 42 --from fixes.ndjson --results fixes.results.ndjson --resume   # after Ctrl-C or failures',
    'formctl submission update 42 --from fixes.ndjson --dry-run',
  ]);
}

/**
 * One note on stderr when the form has a submission retention (docs/forms.md, "Retention"): what a
 * list or an export shows now may be gone within the hour.
 */
export async function retentionNote(io: IOStreams, form: { id: number } & Record<string, unknown>): Promise<void> {
  const r = retentionOf(form);
  if (!r) return;
  const span = describeRetention(r);
  await notice(
    io,
    `form ${form.id} keeps submissions for ${span}: the service deletes those not updated for ${span} every hour, for good (\`formctl form get ${form.id}\`).`,
  );
}

/** Fields of a bulk `submission delete --json`: the summary when done, and what `--dry-run` adds (a contract with scripts). */
export const BULK_DELETE_FIELDS = ['form_id', 'selected', 'deleted', 'gone', 'failed', 'backup', 'results', 'dry_run', 'ids'] as const;

/**
 * Fields of a single `submission delete --json`: `id` and `deleted` as `form delete` and `workspace
 * delete` print them, the form, and the submission as given (the UUID when it was named by one).
 */
export const DELETE_FIELDS = ['id', 'deleted', 'form_id', 'submission_id'] as const;

/** What `--json` of `submission delete` takes, the single run's fields first; each run checks its own. */
const ALL_DELETE_FIELDS = [...new Set([...DELETE_FIELDS, ...BULK_DELETE_FIELDS])];

/** `formctl submission delete [form] [submission-id]`: the command and its flags, declared once. */
export function submissionDeleteCommand() {
  const base = addFormArgument(new Command('delete').alias('rm').description('Delete one submission, or many (--from, --before, --where) after a CSV backup'))
    .argument('[submission-id]', 'Submission id, see `formctl submission list` (asked on a terminal when omitted)')
    .addOption(
      fileOption(
        '--from <file>',
        'Bulk: delete the submissions whose ids this file lists (one per line, or `submission list --ndjson` lines); "-" reads stdin and then needs --yes (or --dry-run)',
      ),
    )
    .addOption(
      new Option('--before <when>', 'Bulk: delete the submissions created before this (ISO date/time, or a duration back from now: 90d)').argParser(
        parseTimeFlag('--before'),
      ),
    )
    .option('--where <field=value>', 'Bulk: delete the submissions whose answer to this field (id or name) is this value', parseWhere)
    .addOption(fileOption('--backup <file>', 'Bulk: the CSV backup of the rows to delete, written before any DELETE (default: <slug>-deleted-<time>.csv here)'))
    .option('--no-backup', 'Bulk: delete without a CSV backup first')
    .addOption(
      fileOption(
        '--results <file>',
        'Bulk: the run log (NDJSON: the plan, then one line per DELETE; default: the backup name + .log.ndjson, or <slug>-deleted-<time>.log.ndjson with --no-backup); needed for --resume',
      ),
    )
    .option('--resume', 'Bulk: continue the run the --results log records (its plan, without asking again); done ids are not sent again')
    .option(
      '--rate-limit <n>',
      "Bulk: requests per minute to stay under (default: the service's X-RateLimit-Limit, else 100)",
      parsePositiveInt('--rate-limit'),
    )
    .option('--dry-run', 'Bulk: show the count and a sample, delete nothing')
    .addOption(
      jsonOption(ALL_DELETE_FIELDS, {
        description: `Print JSON when done: one submission {${DELETE_FIELDS.join(', ')}} (deleted: true); bulk {form_id, selected, deleted, gone, failed, backup, results} (with --dry-run: {dry_run, form_id, selected, ids}); optionally only these comma-separated fields (fields: ${ALL_DELETE_FIELDS.join(', ')}; one submission has the first four, a bulk run form_id, deleted and the rest)`,
      }),
    )
    .addOption(jqOption());
  return examples(addYesOption(base), [
    'formctl submission delete contact-us 118',
    'formctl submission delete 42 118 --yes   # in scripts',
    'formctl submission delete 42 118 --yes --json   # {"id":118,"deleted":true,"form_id":42,"submission_id":"118"}',
    'formctl submission delete   # on a terminal: pick the form, then type the id',
    'formctl submission delete 42 --before 365d --dry-run',
    'formctl submission delete 42 --from - --yes < ids.txt   # ids on stdin: no question can be asked there, so --yes',
    'formctl submission delete 42 --where email=test@example.com --backup test-rows.csv',
    'formctl submission delete 42 --resume --results test-rows.csv.log.ndjson   # after Ctrl-C',
  ]);
}

/** `--where FIELD=VALUE`: split at the first `=`. */
export function parseWhere(v: string): [string, string] {
  const i = v.indexOf('=');
  if (i <= 0) throw new UsageError(`--where: expected FIELD=VALUE, got "${v}".`, 'Example: --where email=test@example.com (a field id or name).');
  return [v.slice(0, i), v.slice(i + 1)];
}
