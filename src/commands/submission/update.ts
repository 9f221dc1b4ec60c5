import { readFile } from 'node:fs/promises';
import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { resolveForm } from '../../api/forms.js';
import { countActiveIntegrations, findSubmission, numericIdOf, submissionRefArg, updateSubmission } from '../../api/submissions.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { readAll, write } from '../../io/iostreams.js';
import { notice, success } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { parsePositiveInt } from '../../io/limit.js';
import { addFormArgument, collectKeyValue, examples, fileOption, untypedAction, type UntypedCommand } from '../shared.js';
import { type BulkUpdateRunOptions, bulkUpdateRun } from './bulk.js';
import { formLabel } from '../../forms/label.js';
import { resolveData } from '../../submissions/fields.js';
import { cannotRead } from '../../io/files.js';
import { assertUpdatable, buildUpdateBody, listRecordAnswers, sideEffectWarnings } from '../../submissions/answers.js';

export interface SubmissionUpdateOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  form: string;
  submissionId: string;
  set?: Array<[string, string]>;
  file?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** `--json` output of a single update: a contract with scripts. */
export interface UpdateResult {
  /** As given on the command line (the numeric id, or the UUID it was looked up by). */
  submission_id: string;
  /** The numeric id the update was sent to. */
  id: number;
  form_id: number;
  /** Field ids sent, in order. */
  updated: string[];
  /** The service's message. */
  message: string;
}

interface UpdateFlags {
  set?: Array<[string, string]>;
  file?: string;
  from?: string;
  concurrency?: number;
  dryRun?: boolean;
  results?: string;
  resume?: boolean;
  rateLimit?: number;
  json?: boolean;
  yes?: boolean;
}

/** `formctl submission update [form] [submission-id]`: one submission with --set/--file, or many with --from. */
export function newSubmissionUpdateCommand(f: Factory, runF = submissionUpdateRun, bulkF = bulkUpdateRun) {
  const cmd: UntypedCommand = new Command('update')
    .description('Change answers of one submission, or of many from an NDJSON file')
    .option('--set <field=value>', 'Set a field, by name or id (repeatable)', collectKeyValue)
    .addOption(fileOption('--file <file>', 'JSON object of field values (names or ids); "-" reads stdin'))
    .addOption(fileOption('--from <file>', 'Bulk: NDJSON, one {"submission_id": …, "<field>": value} per line; "-" reads stdin'))
    .option('--concurrency <n>', 'Bulk: requests in flight at once (default 4)', parsePositiveInt('--concurrency'))
    .option('--rate-limit <n>', 'Bulk: requests per minute to stay under (default: the service\'s X-RateLimit-Limit, else 100)', parsePositiveInt('--rate-limit'))
    .addOption(fileOption('--results <file>', 'Bulk: write per-line results (NDJSON) here instead of stdout; needed for --resume'))
    .option('--resume', 'Bulk: skip lines the --results file already records as ok, and append to it')
    .option('--dry-run', 'Print the exact body that would be sent (current answers plus the patch under "data") and send nothing; with --from, check every line')
    .option('-y, --yes', 'Bulk: go ahead without asking when updates have side effects on the deployed service (integrations firing again, partial submissions completed, answers to removed fields dropped)')
    .option('--json', 'Print {submission_id, form_id, updated, message} as JSON (single update; updated: the field ids sent)');
  addFormArgument(cmd);
  // After [form]: Commander fills positionals in the order they were added.
  cmd.argument('[submission-id]', 'Submission id (not with --from)');
  examples(cmd, [
    'formctl submission update contact-us 118 --set Name="Ada Lovelace" --set Email=ada@example.com',
    'formctl submission update 42 118 --file answers.json',
    'formctl submission update 42 118 --set rating=5 --dry-run   # print the body, send nothing',
    'formctl submission update 42 --from fixes.ndjson --results fixes.results.ndjson',
    'formctl submission update 42 --from fixes.ndjson --results fixes.results.ndjson --resume   # after Ctrl-C or failures',
    'formctl submission update 42 --from fixes.ndjson --dry-run',
  ]);
  return untypedAction(cmd, async (formArg: string | undefined, submissionId: string | undefined, flags: UpdateFlags) => {
    const bulkOnly = (['concurrency', 'rateLimit', 'results', 'resume', 'yes'] as const).filter((k) => flags[k] !== undefined);
    if (flags.from !== undefined) {
      if (submissionId !== undefined) throw new UsageError('Pass either a submission id or --from, not both.');
      if (flags.set || flags.file !== undefined) throw new UsageError('--set and --file update one submission; --from carries the fields per line.');
      if (flags.json) throw new UsageError('--json is for a single update; bulk results are NDJSON already.');
      const o: BulkUpdateRunOptions = {
        io: f.io,
        api: f.api,
        signal: f.signal,
        now: () => f.now().getTime(),
        form: await resolveFormArg(f, formArg),
        from: flags.from,
        concurrency: flags.concurrency ?? 4,
        rateLimit: flags.rateLimit,
        results: flags.results,
        resume: flags.resume,
        dryRun: flags.dryRun,
        yes: flags.yes,
        prompter: f.prompter,
      };
      return bulkF(o);
    }
    if (bulkOnly.length > 0) {
      const names = bulkOnly.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
      throw new UsageError(`${names.join(', ')} ${names.length > 1 ? 'apply' : 'applies'} only to bulk updates with --from.`);
    }
    if (submissionId === undefined) {
      // Without --from the form alone is not enough, so picking it on a terminal would only lead to this error.
      const missing = formArg === undefined ? '<form> and <submission-id> arguments' : '<submission-id> argument';
      throw new UsageError(`Missing ${missing}.`, 'Pass a submission id (see `formctl submission list <form>`), or --from FILE for a bulk update.');
    }
    return runF({ io: f.io, api: f.api, form: await resolveFormArg(f, formArg), submissionId, set: flags.set, file: flags.file, dryRun: flags.dryRun, json: flags.json });
  });
}

/** Reads `--file`: a JSON object of field values. */
async function readFieldsFile(io: IOStreams, file: string): Promise<Array<[string, unknown]>> {
  let text: string;
  try {
    text = file === '-' ? (await readAll(io.stdin)).toString('utf8') : await readFile(file, 'utf8');
  } catch (err) {
    throw cannotRead(file === '-' ? 'stdin' : file, err);
  }
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new UsageError(`${file} must hold a JSON object of field values, e.g. {"Email": "a@example.com"}.`);
  const o = obj as Record<string, unknown>;
  return Object.entries(listRecordAnswers(o) ?? o);
}

/**
 * Reads the submission through the list, lays the patch over its current answers and sends one body
 * both services read as a patch (see buildUpdateBody); warns about what else the deployed service
 * changes on an update.
 */
export async function submissionUpdateRun(o: SubmissionUpdateOptions): Promise<void> {
  if (o.set && o.file !== undefined) throw new UsageError('Use either --set or --file, not both.');
  if (!o.set && o.file === undefined) throw new UsageError('Nothing to update.', 'Pass --set field=value (repeatable) or --file data.json.');
  const ref = submissionRefArg(o.submissionId);
  const entries = o.file !== undefined ? await readFieldsFile(o.io, o.file) : o.set!;
  if (entries.length === 0) throw new UsageError('Nothing to update: the file has no fields.');
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  assertUpdatable(form);
  const patch = resolveData(form, entries, { coerce: o.file === undefined });
  const item = await findSubmission(client, form.id, ref);
  const id = numericIdOf(item);
  if (id === undefined) throw new UsageError(`The service lists submission ${o.submissionId} without a numeric id, so it cannot be updated safely.`);
  const label = ref.kind === 'id' ? `submission ${id}` : `submission ${id} (${ref.uuid})`;
  const { body, effects } = buildUpdateBody(form, item, patch);
  const active = await countActiveIntegrations(client, form.id);
  for (const w of sideEffectWarnings(`${label[0]!.toUpperCase()}${label.slice(1)}`, effects, active)) await notice(o.io, w, 'warning');
  if (o.dryRun) {
    // Exactly the body the update would PUT, so it can be piped to `formctl api` or compared.
    await write(o.io.stdout, JSON.stringify(body, null, 2) + '\n');
    await notice(o.io, `dry run: nothing was sent to ${label} of form ${formLabel(form)}.`);
    return;
  }
  const res = await updateSubmission(client, form.id, id, body);
  // A stable object rather than the service's envelope, whose shape differs between deployments.
  const result: UpdateResult = { submission_id: o.submissionId, id, form_id: form.id, updated: Object.keys(patch), message: res.message };
  if (o.json) await write(o.io.stdout, JSON.stringify(result, null, 2) + '\n');
  else await success(o.io, `Updated ${Object.keys(patch).length} field${Object.keys(patch).length === 1 ? '' : 's'} of ${label} of form ${formLabel(form)}.`);
}
