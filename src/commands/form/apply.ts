import { realpath } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { Command, Option } from '@commander-js/extra-typings';
import { completes } from '../../completion/kinds.js';
import type { ApiClient } from '../../api/client.js';
import { NotFoundError } from '../../api/errors.js';
import { type Form, createForm, getForm } from '../../api/forms.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { writeFileAtomic } from '../../atomic-file.js';
import { readFormFile } from '../../forms/backups.js';
import { formDiff } from '../../forms/diff.js';
import { CREATE_DEFAULTS, IDENTITY_KEYS, documentText, toDocument, toUpdateBody } from '../../forms/document.js';
import { safeUpdate, safeUpdateSettings } from '../../forms/safe-update.js';
import { maskedCopy } from '../../forms/secrets.js';
import type { FormLocker, Release } from '../../forms/lock.js';
import { assertBodySize, assertPropertiesKept, assertValidForm } from '../../forms/validate.js';
import { parseFormRef, parseIdValue, safeId } from '../../io/ids.js';
import { write } from '../../io/iostreams.js';
import { notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { retentionWarning } from '../../forms/retention.js';
import { confirmRetention } from '../../forms/safe-update.js';
import { retentionOf } from '../../service/retention.js';
import { addOutputOptions, addWorkspaceOption, addYesOption, examples, fileOption, type FlagsOf } from '../shared.js';
import { formLabel } from '../../forms/label.js';
import {
  DRY_RUN_FIELDS,
  FORM_FIELDS,
  addSafeUpdateOptions,
  backupDirFor,
  formLockFor,
  otherKeysNote,
  readDocument,
  resolveFormFormat,
  writeForm,
} from './shared.js';

/** Keys of the `--dry-run --json` answer when apply would create the form. */
const CREATE_DRY_RUN_FIELDS = ['dry_run', 'create', 'workspace_id', 'body'] as const;
import { computedKeysNote, confirmDroppedAttributes, reportSafeUpdate } from './update.js';

/** `formctl form apply`: the command and its flags, declared once. */
function formApplyCommand() {
  const base = new Command('apply')
    .description('Create or safely update a form from a JSON document; applying it again changes nothing')
    .addOption(fileOption('-f, --file <file>', 'Form document (from `form pull`, or hand-written), or - for stdin').makeOptionMandatory())
    .addOption(
      completes(
        new Option(
          '--onto <form>',
          "Update this form (id or slug) and ignore the document's id, slug and workspace (a file pulled from another profile or service)",
        ),
        'form',
      ),
    );
  const cmd = addOutputOptions(addYesOption(addSafeUpdateOptions(addWorkspaceOption(base))), { fields: FORM_FIELDS, open: true });
  otherKeysNote(cmd, {
    what: 'the form or the file has',
    when: 'checked before anything is sent',
    dryRun: [...new Set([...DRY_RUN_FIELDS, ...CREATE_DRY_RUN_FIELDS])],
  });
  return examples(cmd, [
    'formctl form apply -f forms/contact.json --dry-run',
    'formctl form apply -f forms/contact.json',
    'formctl form apply -w 3 -f examples/contact-form.json   # creates it, then records its id in the file',
    'formctl --profile production form apply -f forms/contact.json --onto contact-us   # a file pulled from staging',
  ]);
}

export type FormApplyOptions = FlagsOf<typeof formApplyCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> &
  Partial<Pick<Factory, 'prompter'>> & {
    /** The workspace of a new form: `workspace` (the -w value), else the environment's or the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
    backupDir: (formId: number) => Promise<string>;
    /** The per-form lock (src/forms/lock.ts); held from the read to the end of the update. */
    lock?: FormLocker;
    /** The resolved context, for the profile a printed command names. */
    context?: Factory['context'];
  };

/** `formctl form apply -f <file>`. */
export function newFormApplyCommand(f: Factory, runF = formApplyRun) {
  return formApplyCommand().action((flags) =>
    runF({
      ...flags,
      io: f.io,
      api: f.api,
      prompter: f.prompter,
      resolveWorkspace: f.workspace,
      backupDir: (id) => backupDirFor(f, id),
      lock: formLockFor(f),
      context: f.context,
      now: f.now,
    }),
  );
}

/**
 * The references the document names (id first, then slug), checked before any request: an id past
 * 2^53 or a numeric slug would name another form (src/io/ids.ts).
 */
function documentRefs(doc: Record<string, unknown>, file: string): string[] {
  const refs: string[] = [];
  if (doc.id !== undefined && doc.id !== null) refs.push(String(parseIdValue(`"id" in ${file}`, doc.id)));
  if (typeof doc.slug === 'string' && doc.slug.trim() !== '') refs.push(parseFormRef(doc.slug, `"slug" in ${file}`));
  return refs;
}

/** The existing form the document names (id first, then slug), or undefined when there is none. */
async function findExisting(client: ApiClient, refs: string[]): Promise<Form | undefined> {
  for (const ref of refs) {
    try {
      return await getForm(client, ref);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
  return undefined;
}

/**
 * Updates the form the document names through the safe update (no PUT when nothing differs), or
 * creates it. After a create, the new id and slug are written into the file so the next apply
 * updates that form instead of creating another one.
 */
export async function formApplyRun(o: FormApplyOptions): Promise<void> {
  resolveFormat(o.io, o);
  const doc = await readDocument(o.io, o.file);
  if (Array.isArray(doc.properties) && doc.properties.length === 0) {
    throw new UsageError(`${o.file} has an empty "properties" list; formctl never sends one (it would delete every field).`);
  }
  // With --onto, the document's identity names a form of wherever it was pulled from: it is neither
  // looked up nor sent, and the named form must exist (nothing is created).
  const onto = o.onto === undefined ? undefined : parseFormRef(o.onto, '--onto');
  if (onto !== undefined) for (const k of IDENTITY_KEYS) delete doc[k];
  const refs = onto !== undefined ? [onto] : documentRefs(doc, o.file);
  const client = await o.api();
  // The form's lock is held from the read to the end of the update (src/forms/lock.ts): taken
  // before the read when the file names an id, else once the slug has given one (then read again).
  const lock = o.dryRun ? undefined : o.lock;
  const held: { id?: number; release?: Release } = {};
  const take = async (id: number) => {
    await held.release?.();
    held.release = undefined;
    held.release = await lock!(id);
    held.id = id;
  };
  try {
    const first = refs.length > 0 ? safeId(refs[0]!) : undefined;
    if (lock && first !== undefined) await take(first);
    let existing = await findExisting(client, refs);
    if (!existing && onto !== undefined) {
      throw new CliError(
        `--onto: no form ${onto}; nothing was sent.`,
        ExitCode.notFound,
        'See the forms with `formctl form list`; without --onto, apply creates the form.',
      );
    }
    if (existing && lock && existing.id !== held.id) {
      await take(existing.id);
      existing = await getForm(client, existing.id);
    }
    await applyTo(o, doc, client, existing);
  } finally {
    await held.release?.();
  }
}

/** Updates `existing` from the document, or creates the form when there is none. */
async function applyTo(o: FormApplyOptions, doc: Record<string, unknown>, client: ApiClient, existing: Form | undefined): Promise<void> {
  // Checked before anything is sent: a typo in --json must not follow a create or an update.
  const format = existing
    ? resolveFormFormat(o.io, o, [...FORM_FIELDS, ...DRY_RUN_FIELDS], [existing, doc])
    : resolveFormFormat(o.io, o, [...FORM_FIELDS, ...CREATE_DRY_RUN_FIELDS], [doc]);
  await computedKeysNote(o.io, o.file, doc, existing);

  if (existing) {
    // Slugs never change, so a file whose id finds a form with another slug describes another form
    // (pulled from another profile or service, or a copied file): updating would overwrite an unrelated form.
    if (typeof doc.slug === 'string' && doc.slug.trim() !== '' && existing.id === Number(doc.id) && existing.slug !== doc.slug.trim() && o.force !== true) {
      throw new UsageError(
        `${o.file} names form ${existing.id} with slug "${doc.slug.trim()}", but form ${existing.id} is "${existing.slug}" (${existing.title}): a different form; nothing was sent.`,
        'If the file was pulled from another profile or service, name the form to update with --onto <form> (or remove its "id" so apply finds the form by slug, or creates it); pass --force to overwrite this form anyway.',
      );
    }
    if (typeof doc.workspace_id === 'number' && typeof existing.workspace_id === 'number' && doc.workspace_id !== existing.workspace_id) {
      await notice(
        o.io,
        `form ${existing.id} is in workspace ${existing.workspace_id}, not ${doc.workspace_id} as the file says; moving forms is not possible, updating it in place.`,
        'warning',
      );
    }
    await confirmDroppedAttributes(o, existing, doc);
    const result = await safeUpdate({
      ...safeUpdateSettings(o.io, o),
      client,
      current: existing,
      change: doc,
      backupDir: await o.backupDir(existing.id),
    });
    await reportSafeUpdate(o.io, o, result, { showDiff: true, formctl: `formctl${await profileWords(o.context)}` });
    return;
  }

  const workspaceId = o.workspace ?? (typeof doc.workspace_id === 'number' ? doc.workspace_id : await o.resolveWorkspace(undefined));
  const draft: Record<string, unknown> = { ...doc };
  for (const [k, v] of Object.entries(CREATE_DEFAULTS)) if (draft[k] === undefined) draft[k] = v;
  const body = { workspace_id: workspaceId, ...toUpdateBody(draft) };
  assertPropertiesKept(body, 'create');
  if (o.validate) assertValidForm(body, 'update');
  assertBodySize(body, o.file === '-' ? 'The form from stdin' : `The form in ${o.file}`);
  const named = doc.id ?? doc.slug;
  // A new form with a retention deletes submissions from the start (docs/forms.md, "Retention").
  const retention = retentionOf(body);
  const retentionNote = retention ? retentionWarning({ title: draft.title }, { before: null, after: retention }, { count: 0, byUpdate: true }) : undefined;

  if (o.dryRun) {
    if (retentionNote) await notice(o.io, `${retentionNote}.`, 'warning');
    const diff = await formDiff({}, toUpdateBody(draft), { from: '(no form)', to: `new form in workspace ${workspaceId}`, color: o.io.colorStdout });
    if (format.kind === 'json' || format.kind === 'ndjson')
      await writeObject(o.io, format, { dry_run: true, create: true, workspace_id: workspaceId, body: maskedCopy(body) }, []);
    else await write(o.io.stdout, diff);
    await notice(o.io, `dry run: would create this form${named !== undefined ? ` (no form ${named} exists)` : ''}; nothing was sent.`);
    return;
  }

  if (retentionNote) await confirmRetention(o.io, o, retentionNote, String(draft.title));
  const form = await createForm(client, body);
  if (typeof form?.id !== 'number') throw new CliError('The service accepted the form but did not return it; check `formctl form list`.');
  if (o.file !== '-') {
    const recorded = toDocument({ ...doc, id: form.id, slug: form.slug, workspace_id: form.workspace_id ?? workspaceId });
    try {
      // Through a symlink to its target (replacing the link would detach the file it points to).
      const path = await realpath(resolvePath(o.file));
      // The file may have been edited while the form was being created: those edits are not overwritten.
      const now = await readFormFile(path).catch(() => undefined);
      if (!now || JSON.stringify(now) !== JSON.stringify(doc)) throw new Error('it changed while the form was being created');
      await writeFileAtomic(path, documentText(recorded));
    } catch (err) {
      await notice(
        o.io,
        `created form ${form.id} but could not record its id in ${o.file} (${(err as Error).message}); add "id": ${form.id} to the file before the next apply.`,
        'warning',
      );
    }
  }
  if (format.kind === 'json' || format.kind === 'ndjson') await writeForm(o.io, format, form);
  else if (o.io.stdoutIsTTY) {
    await success(o.io, `Created form ${formLabel(form)}${o.file !== '-' ? `; recorded its id in ${o.file}` : ''}.`);
    if (form.share_url) await write(o.io.stdout, `  ${form.share_url}\n`);
  } else await write(o.io.stdout, `${form.id}\t${form.share_url ?? ''}\n`);
}
