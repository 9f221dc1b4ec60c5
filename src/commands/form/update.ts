import { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { type Form, resolveForm } from '../../api/forms.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { VISIBILITIES } from '../../forms/document.js';
import { mergePatch, parseSetValue, setPath } from '../../forms/merge.js';
import { type SafeUpdateResult, safeUpdate } from '../../forms/safe-update.js';
import { type IOStreams, write } from '../../io/iostreams.js';
import { type OutputFlags, notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { resolveFormArg } from '../../io/pickers.js';
import { addFormArgument, addOutputOptions, choiceOption, collectKeyValue, examples } from '../shared.js';
import {
  DRY_RUN_FIELDS,
  FORM_FIELDS,
  type SafeUpdateFlags,
  addSafeUpdateOptions,
  backupDirFor,
  formLabel,
  otherKeysNote,
  readDocument,
  resolveFormFormat,
} from './common.js';

export interface FormUpdateOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  backupDir: (formId: number) => Promise<string>;
  now: () => Date;
  ref: string;
  title?: string;
  visibility?: string;
  set?: Array<[string, string]>;
  file?: string;
  dryRun?: boolean;
  force?: boolean;
  validate?: boolean;
  output: OutputFlags;
}

/** `formctl form update <id|slug>`. */
export function newFormUpdateCommand(f: Factory, runF = formUpdateRun): Command {
  const cmd = new Command('update')
    .description('Change a form safely: fields you do not mention keep their values')
    .option('--title <title>', 'New title (at most 60 characters)')
    .addOption(choiceOption('--visibility <v>', 'New visibility', VISIBILITIES))
    .option('--set <key=value>', 'Set an attribute; JSON when it parses, dotted keys for nested, e.g. settings.navigation_arrows=true (repeatable)', collectKeyValue)
    .option('-f, --file <file>', 'Merge a JSON patch from a file, or - for stdin');
  addFormArgument(cmd);
  addSafeUpdateOptions(cmd);
  addOutputOptions(cmd, { fields: FORM_FIELDS });
  otherKeysNote(cmd, { when: 'checked before anything is sent', dryRun: DRY_RUN_FIELDS });
  examples(cmd, [
    'formctl form update 42 --visibility public',
    'formctl form update 42 --title "Contact us" --dry-run',
    'formctl form update contact-us --set properties.0.required=true --set \'closed_text=See you next year\'',
    'echo \'{"description":"Say hi"}\' | formctl form update 42 --file -',
  ]);
  return cmd.action(
    async (ref: string | undefined, flags: { title?: string; visibility?: string; set?: Array<[string, string]>; file?: string } & SafeUpdateFlags & OutputFlags) =>
      runF({
        io: f.io,
        api: f.api,
        backupDir: (id) => backupDirFor(f, id),
        now: f.now,
        ref: await resolveFormArg(f, ref),
        title: flags.title,
        visibility: flags.visibility,
        set: flags.set,
        file: flags.file,
        dryRun: flags.dryRun,
        force: flags.force,
        validate: flags.validate,
        output: flags,
      }),
  );
}

/** Reports a safe-update result the same way for update, restore and apply. */
export async function reportSafeUpdate(io: IOStreams, output: OutputFlags, r: SafeUpdateResult, o: { showDiff?: boolean } = {}): Promise<void> {
  const format = resolveFormat(io, output);
  const json = format.kind === 'json' || format.kind === 'ndjson';
  if (r.outcome === 'unchanged') {
    if (json) await writeObject(io, format, r.form, []);
    await notice(io, `no changes: form ${formLabel(r.form)} already matches; nothing was sent.`);
    return;
  }
  if (r.outcome === 'dry-run') {
    if (json) await writeObject(io, format, { dry_run: true, form_id: r.form.id, diff: stripAnsi(r.diff), removed_fields: r.removedFields }, []);
    else await write(io.stdout, r.diff);
    if (r.removedFields.length) await notice(io, `this would remove ${fieldList(r.removedFields)} from the form.`, 'warning');
    await notice(io, 'dry run: nothing was sent.');
    return;
  }
  if (r.removedFields.length) {
    // A `properties` list replaces the whole list: say so, since answers to those fields stop showing.
    await notice(
      io,
      `removed ${fieldList(r.removedFields)} from form ${r.form.id}; the previous version is in ${r.backup} (\`formctl form restore ${r.form.id}\` puts it back).`,
      'warning',
    );
  }
  if (r.ignored?.length) {
    await notice(io, `the service did not keep ${r.ignored.map((k) => `"${k}"`).join(', ')} (not an attribute it stores).`, 'warning');
  }
  if (json) {
    await writeObject(io, format, r.form, []);
    return;
  }
  if (o.showDiff && io.stdoutIsTTY) await write(io.stdout, r.diff);
  await success(io, `Updated form ${formLabel(r.form)}. Previous version saved to ${r.backup}`);
}

function fieldList(ids: string[]): string {
  return `${ids.length === 1 ? 'field' : `${ids.length} fields`} ${ids.map((id) => `"${id}"`).join(', ')}`;
}

function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;]*m/g, '');
}

/** Fetches the form, merges --file, --title, --visibility and --set over it, and runs the safe update. */
export async function formUpdateRun(o: FormUpdateOptions): Promise<void> {
  resolveFormat(o.io, o.output);
  const hasChange = o.title !== undefined || o.visibility !== undefined || (o.set?.length ?? 0) > 0 || o.file !== undefined;
  if (!hasChange) throw new UsageError('Nothing to update.', 'Pass --title, --visibility, --set key=value or --file patch.json.');
  const patch = o.file !== undefined ? await readDocument(o.io, o.file) : {};
  if (Array.isArray(patch.properties) && patch.properties.length === 0) {
    throw new UsageError('The patch has an empty "properties" list, which would delete every field of the form; nothing was sent.', 'Leave "properties" out to keep the fields as they are.');
  }
  const client = await o.api();
  const current: Form = await resolveForm(client, o.ref);
  let doc = mergePatch(current, patch);
  if (o.title !== undefined) doc.title = o.title;
  if (o.visibility !== undefined) doc.visibility = o.visibility;
  for (const [k, v] of o.set ?? []) doc = setPath(doc, k, parseSetValue(v));
  resolveFormFormat(o.io, o.output, [...FORM_FIELDS, ...DRY_RUN_FIELDS], [current, doc]);
  const result = await safeUpdate({
    client,
    current,
    change: doc,
    validate: o.validate !== false,
    dryRun: o.dryRun === true,
    force: o.force === true,
    backupDir: await o.backupDir(current.id),
    now: o.now,
    color: o.io.colorStdout,
  });
  await reportSafeUpdate(o.io, o.output, result);
}
