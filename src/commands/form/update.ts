import { isDeepStrictEqual } from 'node:util';
import { Command } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { CREATE_DEFAULTS, IDENTITY_KEYS, READ_ONLY_KEYS, VISIBILITIES } from '../../forms/document.js';
import type { FormLocker } from '../../forms/lock.js';
import { mergePatch, parseSetValue, setPath } from '../../forms/merge.js';
import { type SafeUpdateResult, safeUpdate, safeUpdateSettings } from '../../forms/safe-update.js';
import { isSlug, parseIdValue, safeId } from '../../io/ids.js';
import { type IOStreams, write } from '../../io/iostreams.js';
import { type OutputFlags, notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { addFormArgument, addOutputOptions, addYesOption, choiceOption, collectKeyValue, examples, fileOption, type FlagsOf } from '../shared.js';
import { formLabel } from '../../forms/label.js';
import { assertKnownAttributes } from '../../forms/attributes.js';
import { droppedFieldAttributes, warnDroppedAttributes } from '../../forms/dropped-attributes.js';
import type { Form } from '../../api/forms.js';
import { confirmSideEffects } from '../side-effects.js';
import {
  DRY_RUN_FIELDS,
  FORM_FIELDS,
  addSafeUpdateOptions,
  backupDirFor,
  formLockFor,
  otherKeysNote,
  readDocument,
  readLocked,
  assertTextStaysText,
  resolveFormFormat,
  writeForm,
} from './shared.js';

/** `formctl form update [form]`: the command and its flags, declared once. */
function formUpdateCommand() {
  const base = new Command('update')
    .description('Change a form safely: fields you do not mention keep their values')
    .option('--title <title>', 'New title (at most 60 characters)')
    .addOption(choiceOption('--visibility <v>', 'New visibility', VISIBILITIES))
    .option(
      '--set <key=value>',
      'Set an attribute; JSON when it parses, dotted keys for nested, e.g. settings.navigation_arrows=true (repeatable)',
      collectKeyValue,
    )
    .addOption(fileOption('-f, --file <file>', 'Merge a JSON patch from a file, or - for stdin'));
  const cmd = addOutputOptions(addYesOption(addSafeUpdateOptions(addFormArgument(base))), { fields: FORM_FIELDS, open: true });
  otherKeysNote(cmd, { when: 'checked before anything is sent', dryRun: DRY_RUN_FIELDS });
  return examples(cmd, [
    'formctl form update 42 --visibility public',
    'formctl form update 42 --title "Contact us" --dry-run',
    'formctl form update 42 --set submission_retention_value=30 --set submission_retention_unit=day --yes   # deletes older submissions: says how many',
    "formctl form update contact-us --set properties.0.required=true --set 'closed_text=See you next year'",
    'formctl form update 42 --set slug=contact   # a new slug: self-hosted servers only; formctl says what happened',
    'echo \'{"description":"Say hi"}\' | formctl form update 42 --file -',
  ]);
}

export type FormUpdateOptions = FlagsOf<typeof formUpdateCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> &
  Partial<Pick<Factory, 'prompter'>> & {
    backupDir: (formId: number) => Promise<string>;
    /** The form's id or slug (the resolved [form] argument). */
    form: string;
    /** The per-form lock (src/forms/lock.ts); held from the read to the end of the update. */
    lock?: FormLocker;
    /** The resolved context, for the profile a printed command names. */
    context?: Factory['context'];
  };

/** `formctl form update <id|slug>`. */
export function newFormUpdateCommand(f: Factory, runF = formUpdateRun) {
  return formUpdateCommand().action(async (form, flags) =>
    runF({
      ...flags,
      io: f.io,
      api: f.api,
      prompter: f.prompter,
      backupDir: (id) => backupDirFor(f, id),
      lock: formLockFor(f),
      context: f.context,
      now: f.now,
      form: await resolveFormArg(f, form),
    }),
  );
}

/** The note naming required attributes the service did not return (sent with their create defaults). */
function filledNote(r: SafeUpdateResult, sent: boolean): string | undefined {
  if (r.filled.length === 0) return undefined;
  const list = r.filled.map((k) => `${k} ${JSON.stringify(CREATE_DEFAULTS[k])}`).join(', ');
  return `the service did not return ${r.filled.length === 1 ? 'a required attribute' : `${r.filled.length} required attributes`} of form ${r.form.id}; ${sent ? 'sent' : 'would send'} the create default${r.filled.length === 1 ? '' : 's'}: ${list}.`;
}

/**
 * The note naming what a --file changes that the service computes (`views_count`, `share_url`…: the
 * output of `form get --json`, edited and given back): no update body carries them (READ_ONLY_KEYS,
 * docs/forms.md "Attributes an update cannot change"), so they are left out; refusing them would
 * break get → edit → update, and leaving them out unsaid hid a changed count that was never sent.
 * With `current` (the form as read before the update) only the keys whose value differs from it are
 * named, so a file passed back as it was read gets no note; `last_edited_human` ("5 seconds ago",
 * computed at each read) moves between two reads by itself and is never named then. Without
 * `current` (a create) every one is named: the new form has values of its own.
 */
export async function computedKeysNote(io: IOStreams, file: string | undefined, doc: Record<string, unknown>, current?: Form): Promise<void> {
  if (file === undefined) return;
  const held = current as Record<string, unknown> | undefined;
  const keys = Object.keys(doc).filter(
    (k) => READ_ONLY_KEYS.has(k) && (held === undefined || (k !== 'last_edited_human' && !isDeepStrictEqual(doc[k], held[k]))),
  );
  if (keys.length === 0) return;
  const src = file === '-' ? 'stdin' : file;
  const n = keys.length === 1 ? 'an attribute' : `${keys.length} attributes`;
  await notice(
    io,
    current === undefined
      ? `${src} holds ${n} the service computes (read-only), not sent: ${keys.join(', ')}.`
      : `${src} gives ${n} the service computes (read-only) ${keys.length === 1 ? 'another value' : 'other values'} than form ${current.id} has, not sent: ${keys.join(', ')}.`,
  );
}

/**
 * Field attributes the change drops without naming them (a field of a `properties` list that leaves
 * out `required`, `rating_max_value`…; docs/forms.md, "Attributes a field leaves out"): said
 * on stderr, then confirmed like other changes beyond what was asked (src/commands/side-effects.ts):
 * --yes, a question at a terminal, else exit 2, all before the backup and the PUT. Shared by
 * update and apply.
 */
export async function confirmDroppedAttributes(
  o: Pick<FormUpdateOptions, 'io' | 'prompter' | 'yes' | 'dryRun' | 'context'>,
  current: Form,
  next: Record<string, unknown>,
): Promise<void> {
  const dropped = droppedFieldAttributes(current, next);
  if (dropped.length === 0) return;
  const when = o.dryRun === true ? 'dry-run' : o.yes ? 'yes' : 'ask';
  await warnDroppedAttributes(o.io, current.id, dropped, when, `formctl${await profileWords(o.context)}`);
  await confirmSideEffects(o.io, o.prompter, {
    what: `Updating form ${formLabel(current)}`,
    question: `Update form ${formLabel(current)} anyway?`,
    needsYes: true,
    dryRun: o.dryRun,
    yes: o.yes,
  });
}

/** Reports a safe-update result the same way for update, restore and apply. */
export async function reportSafeUpdate(
  io: IOStreams,
  output: OutputFlags,
  r: SafeUpdateResult,
  o: { showDiff?: boolean; /** How a command in a note starts (`formctl --profile P` when one was given). */ formctl?: string } = {},
): Promise<void> {
  const formctl = o.formctl ?? 'formctl';
  const format = resolveFormat(io, output);
  const json = format.kind === 'json' || format.kind === 'ndjson';
  if (r.outcome === 'unchanged') {
    if (json) await writeForm(io, format, r.form);
    await notice(io, `no changes: form ${formLabel(r.form)} already matches; nothing was sent.`);
    return;
  }
  const filled = filledNote(r, r.outcome === 'updated');
  if (filled) await notice(io, filled);
  if (r.outcome === 'dry-run') {
    if (json) await writeObject(io, format, { dry_run: true, form_id: r.form.id, diff: stripAnsi(r.diff), removed_fields: r.removedFields }, []);
    else await write(io.stdout, r.diff);
    if (r.removedFields.length) await notice(io, `this would remove ${fieldList(r.removedFields)} from the form.`, 'warning');
    if (r.slug)
      await notice(
        io,
        `the slug would be sent as "${r.slug.sent}"; the deployed service changes a slug only on a self-hosted server, and the spec's service keeps it.`,
      );
    await notice(io, 'dry run: nothing was sent.');
    return;
  }
  if (r.slug) {
    if (r.slug.now === r.slug.sent) {
      await notice(
        io,
        `form ${r.form.id} is now "${r.slug.sent}": links and documents that name the old slug need the new one (\`${formctl} form pull ${r.form.id}\` refreshes a pulled file).`,
        'warning',
      );
    } else {
      await notice(
        io,
        `the service kept the slug "${r.slug.now}" (it changes a slug only on a self-hosted server); the rest of the change was applied.`,
        'warning',
      );
    }
  }
  if (r.brandingNotApplied) {
    await notice(
      io,
      `the service reports no_branding false for form ${r.form.id}: the workspace's plan does not include removing the branding (true is stored and applies after an upgrade).`,
      'warning',
    );
  }
  if (r.removedFields.length) {
    // A `properties` list replaces the whole list: say so, since answers to those fields stop showing.
    await notice(
      io,
      `removed ${fieldList(r.removedFields)} from form ${r.form.id}; the previous version is in ${r.backup} (\`${formctl} form restore ${r.form.id}\` puts it back).`,
      'warning',
    );
  }
  if (r.ignored?.length) {
    await notice(io, `the service did not keep ${r.ignored.map((k) => `"${k}"`).join(', ')} (not an attribute it stores).`, 'warning');
  }
  if (json) {
    await writeForm(io, format, r.form);
    return;
  }
  if (o.showDiff && io.stdoutIsTTY) await write(io.stdout, r.diff);
  await success(io, `Updated form ${formLabel(r.form)}. Previous version saved to ${r.backup}`);
}

function fieldList(ids: string[]): string {
  return `${ids.length === 1 ? 'field' : `${ids.length} fields`} ${ids.map((id) => `"${id}"`).join(', ')}`;
}

/** A diff without its colours, for JSON. */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;]*m/g, '');
}

/**
 * Refuses --set keys an update cannot change: the form's identity (`id`, `workspace_id`: the PUT
 * names the form by its path and never carries them) and what the service computes (`views_count`,
 * `share_url`…). They were left out of the body, so the command said "no changes" or dropped them
 * silently; the deployed service would drop them too: its update rules name none of them (OpnForm
 * api/app/Http/Requests/UserFormRequest.php:76-107) and moving a form is another route
 * (api/routes/api.php:244). `slug` stays settable (a new slug, docs/forms.md).
 */
function assertWritable(keys: string[]): void {
  const fixed = [...new Set(keys.filter((k) => (k !== 'slug' && (IDENTITY_KEYS as readonly string[]).includes(k)) || READ_ONLY_KEYS.has(k)))];
  if (fixed.length === 0) return;
  const list = fixed.map((k) => `"${k}"`).join(', ');
  const identity = fixed.filter((k) => k === 'id' || k === 'workspace_id');
  throw new UsageError(
    `--set cannot change ${list}: ${fixed.length === 1 ? 'it is' : 'they are'} ${identity.length === fixed.length ? "the form's identity" : identity.length > 0 ? "the form's identity or computed by the service" : 'computed by the service'}, never sent in an update. Nothing was sent.`,
    identity.includes('workspace_id')
      ? 'A form cannot be moved to another workspace with formctl; `formctl form copy --to-workspace` makes a copy there.'
      : '`formctl form update --help` lists what can be set; `formctl form get --json` shows every attribute.',
  );
}

/**
 * Refuses a --file that names another form by its "id" (a file pulled from form 2 given to
 * `form update 41` would replace form 41 with form 2's content), as `form apply` does (exit 2).
 */
function assertSameForm(o: { file?: string }, fileId: number | undefined, formId: number | undefined, ref?: string): void {
  if (fileId === undefined || formId === undefined || fileId === formId) return;
  const src = o.file === '-' ? 'stdin' : o.file!;
  const named = ref !== undefined && ref !== String(formId) ? `form ${ref} (id ${formId})` : `form ${formId}`;
  throw new UsageError(
    `${src === 'stdin' ? 'The document on stdin' : src} names form ${fileId} ("id": ${fileId}), not ${named}; nothing was sent.`,
    `To update form ${fileId}, run \`formctl form update ${fileId} --file ${src === 'stdin' ? '-' : src}\` (or \`formctl form apply ${src === 'stdin' ? '-' : src}\`); to use it on ${named}, remove "id" from the document.`,
  );
}

/** Fetches the form, merges --file, --title, --visibility and --set over it, and runs the safe update. */
export async function formUpdateRun(o: FormUpdateOptions): Promise<void> {
  resolveFormat(o.io, o);
  const hasChange = o.title !== undefined || o.visibility !== undefined || (o.set?.length ?? 0) > 0 || o.file !== undefined;
  if (!hasChange) throw new UsageError('Nothing to update.', 'Pass --title, --visibility, --set key=value or --file patch.json.');
  const patch = o.file !== undefined ? await readDocument(o.io, o.file) : {};
  if (Array.isArray(patch.properties) && patch.properties.length === 0) {
    throw new UsageError(
      'The patch has an empty "properties" list, which would delete every field of the form; nothing was sent.',
      'Leave "properties" out to keep the fields as they are.',
    );
  }
  assertWritable((o.set ?? []).map(([k]) => k.split('.')[0]!));
  // --title and --visibility are shorthands for --set: naming one attribute both ways is refused
  // rather than one value winning silently.
  for (const [flag, key, value] of [
    ['--title', 'title', o.title],
    ['--visibility', 'visibility', o.visibility],
  ] as const) {
    const set = (o.set ?? []).find(([k]) => k === key);
    if (value !== undefined && set) {
      throw new UsageError(
        `${flag} and --set ${key}=… both set the ${key}; nothing was sent.`,
        `Pass one of them: ${flag} ${JSON.stringify(value)} or --set ${key}=${set[1]}.`,
      );
    }
  }
  const fileId = patch.id !== undefined && patch.id !== null ? parseIdValue(`"id" in ${o.file === '-' ? 'stdin' : o.file}`, patch.id) : undefined;
  // A file names its form by id (as `form apply` reads it): one that names another form is refused
  // before any request when the argument is an id, else once the slug gave the form's id.
  assertSameForm(o, fileId, safeId(o.form));
  // A new slug is the user's explicit wish (from --set or the patch): checked here, sent by safeUpdate.
  const slugs = [...(typeof patch.slug === 'string' ? [patch.slug] : []), ...(o.set ?? []).filter(([k]) => k === 'slug').map(([, v]) => v)];
  const slug = slugs.length > 0 ? slugs[slugs.length - 1]!.trim() : undefined;
  if (slug !== undefined && !isSlug(slug)) {
    throw new UsageError(`Invalid slug "${slug}": use letters, digits, "-" and "_", not only digits.`);
  }
  // Read before any request: a number --set cannot send exactly is refused here (exit 2).
  const sets = (o.set ?? []).map(([k, v]) => [k, v, parseSetValue(v, k)] as const);
  const client = await o.api();
  const { current, release } = await readLocked(client, o.form, o.dryRun ? undefined : o.lock);
  try {
    assertSameForm(o, fileId, current.id, o.form);
    if (patch.workspace_id !== undefined && String(patch.workspace_id) !== String(current.workspace_id)) {
      throw new UsageError(
        `${o.file === '-' ? 'The document on stdin' : o.file} says workspace ${JSON.stringify(patch.workspace_id)}, but form ${formLabel(current)} is in workspace ${String(current.workspace_id)}; an update cannot move a form. Nothing was sent.`,
        'Remove "workspace_id" from the document (or set it to the form\'s workspace).',
      );
    }
    let doc = mergePatch(current, patch);
    if (o.title !== undefined) doc.title = o.title;
    if (o.visibility !== undefined) doc.visibility = o.visibility;
    for (const [k, v, value] of sets) {
      if (o.validate !== false) assertTextStaysText(current, k, v, value);
      doc = setPath(doc, k, value);
    }
    // An attribute the form does not have would be dropped by the service: refused before the backup and the PUT.
    if (!o.force) await assertKnownAttributes(current, [...Object.keys(patch), ...(o.set ?? []).map(([k]) => k.split('.')[0]!)], formLabel(current));
    resolveFormFormat(o.io, o, [...FORM_FIELDS, ...DRY_RUN_FIELDS], [current, doc]);
    await computedKeysNote(o.io, o.file, patch, current);
    await confirmDroppedAttributes(o, current, doc);
    const result = await safeUpdate({
      ...safeUpdateSettings(o.io, o),
      client,
      current,
      change: doc,
      backupDir: await o.backupDir(current.id),
      slug: slug !== undefined && slug !== current.slug ? slug : undefined,
    });
    await reportSafeUpdate(o.io, o, result, { formctl: `formctl${await profileWords(o.context)}` });
  } finally {
    await release?.();
  }
}
