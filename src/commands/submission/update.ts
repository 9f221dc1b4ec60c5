import { readFile } from 'node:fs/promises';
import { resolveForm } from '../../api/forms.js';
import { activeIntegrations, updateSubmission } from '../../api/submissions.js';
import { findSubmission } from '../../submissions/lookup.js';
import { type SubmissionRef, numericIdOf, parseSubmissionRef, submissionRefArg, uuidOf } from '../../submissions/ref.js';
import type { NormalizedSubmission } from '../../api/normalize.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { cannotRead, parseJsonObject } from '../../io/files.js';
import type { IOStreams } from '../../io/iostreams.js';
import { readAll, write } from '../../io/iostreams.js';
import { jsonFormat, notice, success, writeObject } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import type { FlagsOf } from '../shared.js';
import { bulkUpdateRun } from './bulk.js';
import { DEFAULT_CONCURRENCY, submissionUpdateCommand } from './shared.js';
import { formLabel } from '../../forms/label.js';
import { assertRequiredKept, resolveData } from '../../submissions/fields.js';
import { assertUpdatable, buildUpdateBody, listRecordAnswers, changesBeyondPatch, sideEffectWarnings } from '../../submissions/answers.js';
import { confirmSideEffects } from '../side-effects.js';

/** The single update's options: its flags of the declaration (the others are bulk-only), and what it needs. */
export type SubmissionUpdateOptions = Pick<FlagsOf<typeof submissionUpdateCommand>, 'set' | 'file' | 'dryRun' | 'json' | 'yes'> &
  Pick<Factory, 'io' | 'api'> & {
    form: string;
    submissionId: string;
    /** Asks on a terminal before side effects (confirmSideEffects); without it they need --yes. */
    prompter?: Factory['prompter'];
  };

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

/** `formctl submission update [form] [submission-id]`: one submission, or many with --from (bulk.ts). */
export function newSubmissionUpdateCommand(f: Factory, runF = submissionUpdateRun, bulkF = bulkUpdateRun) {
  return submissionUpdateCommand().action(async (formArg, submissionId, flags) => {
    const bulkOnly = (['concurrency', 'rateLimit', 'results', 'resume'] as const).filter((k) => flags[k] !== undefined);
    if (flags.from !== undefined) {
      if (submissionId !== undefined) throw new UsageError('Pass either a submission id or --from, not both.');
      if (flags.set || flags.file !== undefined) throw new UsageError('--set and --file update one submission; --from carries the fields per line.');
      if (flags.json || flags.jq !== undefined) throw new UsageError('--json and --jq are for a single update; bulk results are NDJSON already.');
      return bulkF({
        ...flags,
        io: f.io,
        api: f.api,
        signal: f.signal,
        now: () => f.now().getTime(),
        form: await resolveFormArg(f, formArg),
        from: flags.from,
        concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
        prompter: f.prompter,
        context: () => f.context(),
      });
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
    return runF({ ...flags, io: f.io, api: f.api, prompter: f.prompter, form: await resolveFormArg(f, formArg), submissionId });
  });
}

/** What `--file` holds: the field values, and the submission a saved list record names (its `id`, `submission_id`). */
interface FieldsFile {
  entries: Array<[string, unknown]>;
  names: Array<{ key: 'id' | 'submission_id'; ref: SubmissionRef }>;
}

/** Reads `--file`: a JSON object of field values, or a record saved from `submission list --json`. */
async function readFieldsFile(io: IOStreams, file: string): Promise<FieldsFile> {
  let text: string;
  try {
    text = file === '-' ? (await readAll(io.stdin)).toString('utf8') : await readFile(file, 'utf8');
  } catch (err) {
    throw cannotRead(file === '-' ? 'stdin' : file, err);
  }
  const o = parseJsonObject(text, file === '-' ? 'stdin' : file, { expected: 'a JSON object of field values, e.g. {"Email": "a@example.com"}' });
  const record = listRecordAnswers(o);
  if (!record) return { entries: Object.entries(o), names: [] };
  const names: FieldsFile['names'] = [];
  for (const key of ['id', 'submission_id'] as const) {
    const ref = o[key] === undefined || o[key] === null ? null : parseSubmissionRef(o[key]);
    if (ref) names.push({ key, ref });
  }
  return { entries: Object.entries(record), names };
}

/**
 * Refuses a saved record of another submission (`--file r40.json` for submission 37): its answers
 * would replace the other's, as `--from` refuses a line whose ids disagree. Checked before any request
 * when the record names the submission as the argument does (both ids, or both UUIDs), else once the
 * submission is found (`item`).
 */
function assertSameSubmission(file: string, names: FieldsFile['names'], arg: string, ref: SubmissionRef, item?: NormalizedSubmission): void {
  for (const { key, ref: named } of names) {
    let other: boolean | undefined;
    if (named.kind === ref.kind) other = named.kind === 'id' ? named.id !== (ref as { id: number }).id : named.uuid !== (ref as { uuid: string }).uuid;
    else if (item) other = named.kind === 'id' ? named.id !== numericIdOf(item) : uuidOf(item) !== undefined && named.uuid !== uuidOf(item);
    if (other) {
      const shown = named.kind === 'id' ? String(named.id) : named.uuid;
      throw new UsageError(
        `${file} is a record of submission ${shown} (its "${key}"), not of submission ${arg}: nothing was sent.`,
        `Pass ${shown} as the submission id, or remove "${key}" from the file to apply its answers to ${arg}.`,
      );
    }
  }
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
  const read = o.file !== undefined ? await readFieldsFile(o.io, o.file) : undefined;
  const fileName = o.file === '-' ? 'stdin' : (o.file ?? '');
  if (read) assertSameSubmission(fileName, read.names, o.submissionId, ref);
  const entries = read ? read.entries : o.set!;
  if (entries.length === 0) throw new UsageError('Nothing to update: the file has no fields.');
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  assertUpdatable(form);
  const patch = resolveData(form, entries, { coerce: o.file === undefined });
  assertRequiredKept(form, patch);
  const item = await findSubmission(client, form.id, ref);
  const id = numericIdOf(item);
  if (id === undefined) throw new UsageError(`The service lists submission ${o.submissionId} without a numeric id, so it cannot be updated safely.`);
  if (read) assertSameSubmission(fileName, read.names, o.submissionId, ref, item);
  const label = ref.kind === 'id' ? `submission ${id}` : `submission ${id} (${ref.uuid})`;
  const { body, effects } = buildUpdateBody(form, item, patch);
  const active = await activeIntegrations(client, form.id);
  for (const w of sideEffectWarnings(`${label[0]!.toUpperCase()}${label.slice(1)}`, effects, active)) await notice(o.io, w, 'warning');
  // The same rule as a bulk run for what the deployed service changes in the stored data besides the
  // patch (answers to removed fields dropped for good, a partial submission completed): asked on a
  // terminal, --yes elsewhere, before the PUT. Integrations running again once are only warned about.
  await confirmSideEffects(o.io, o.prompter, {
    what: `Updating ${label} of form ${formLabel(form)}`,
    question: `Update ${label} of form ${formLabel(form)} anyway?`,
    needsYes: changesBeyondPatch(effects),
    dryRun: o.dryRun,
    yes: o.yes,
  });
  if (o.dryRun) {
    // Exactly the body the update would PUT, so it can be piped to `formctl api` or compared.
    await write(o.io.stdout, JSON.stringify(body, null, 2) + '\n');
    await notice(o.io, `dry run: nothing was sent to ${label} of form ${formLabel(form)}.`);
    return;
  }
  const res = await updateSubmission(client, form.id, id, body);
  // A stable object rather than the service's envelope, whose shape differs between deployments.
  const result: UpdateResult = { submission_id: o.submissionId, id, form_id: form.id, updated: Object.keys(patch), message: res.message };
  const json = jsonFormat(o);
  if (json) await writeObject(o.io, json, result, []);
  else await success(o.io, `Updated ${Object.keys(patch).length} field${Object.keys(patch).length === 1 ? '' : 's'} of ${label} of form ${formLabel(form)}.`);
}
