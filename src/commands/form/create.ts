import { randomUUID } from 'node:crypto';
import { Command } from '@commander-js/extra-typings';
import { type Form, createForm } from '../../api/forms.js';
import { listWorkspaces } from '../../api/workspaces.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { ValidationError, notFoundHint } from '../../api/errors.js';
import type { Factory } from '../../factory.js';
import { CREATE_DEFAULTS, VISIBILITIES, toUpdateBody } from '../../forms/document.js';
import { parseSetValue, setPath } from '../../forms/merge.js';
import { WITH_OPTIONS, newField, parseField, splitOptions, withSelectOptions } from '../../forms/field-spec.js';
import { PROPERTY_TYPES } from '../../forms/properties.js';
import { assertBodySize, assertPropertiesKept, assertValidForm } from '../../forms/validate.js';
import { retentionWarning } from '../../forms/retention.js';
import { confirmRetention } from '../../forms/safe-update.js';
import { retentionOf } from '../../service/retention.js';
import { write } from '../../io/iostreams.js';
import { checkJsonFields, resolveFormat, success } from '../../io/output.js';
import { addOutputOptions, addWorkspaceOption, addYesOption, choiceOption, collect, collectKeyValue, examples, fileOption, type FlagsOf } from '../shared.js';
import { FORM_FIELDS, assertTextStaysText, otherKeysNote, readDocument, resolveFormFormat, writeForm } from './shared.js';

/** Field types offered by the interactive prompt (docs/service-details.md, Form blocks; the service accepts any non-empty type). */
export const FIELD_TYPES = ['text', 'email', 'number', 'date', 'select', 'checkbox', 'url', 'phone_number', 'rating', 'files'] as const;

/** `formctl form create`: the command and its flags, declared once. */
function formCreateCommand() {
  const base = new Command('create')
    .description('Create a form from flags, a JSON file, or prompts')
    .option('--title <title>', 'Form title (at most 60 characters)')
    .addOption(choiceOption('--visibility <v>', 'Visibility (default: draft, so nobody sees it before you publish)', VISIBILITIES))
    .option('--language <code>', 'Two-letter language code (default: en)')
    .addOption(fileOption('-f, --file <file>', 'Read the form (title, properties, settings…) from a JSON file, or - for stdin'))
    .option('--field <name[:type]>', 'Add a field, e.g. "Email:email" or "Plan:select=Free,Pro" (repeatable; default type text)', collect)
    .option('--set <key=value>', 'Set any attribute; value is JSON when it parses, dotted keys for nested (repeatable)', collectKeyValue)
    .option('--no-validate', 'Skip local checks and let the service decide');
  const cmd = addOutputOptions(addYesOption(addWorkspaceOption(base)), { fields: FORM_FIELDS, open: true });
  otherKeysNote(cmd, { what: 'the form document sent has', when: 'checked before the form is created' });
  cmd.addHelpText(
    'after',
    `\nField types for --field "Name:type":\n  ${PROPERTY_TYPES.join(', ')
      .replace(/(.{1,90})(, |$)/g, '$1,\n  ')
      .replace(/,\n {2}$/, '')}`,
  );
  return examples(cmd, [
    'formctl form create --title "Contact us" --field Name --field Email:email',
    'formctl form create -w 3 --file examples/contact-form.json --visibility public',
    'formctl form create --title Feedback --set color=#10B981 --set uppercase_labels=true',
    'formctl form create            # prompts on a terminal',
  ]);
}

export type FormCreateOptions = FlagsOf<typeof formCreateCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    /** The workspace of the form: `workspace` (the -w value), else the environment's or the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
    /** Ids for new fields; tests make them predictable. */
    newId?: () => string;
  };

/** `formctl form create`. */
export function newFormCreateCommand(f: Factory, runF = formCreateRun) {
  return formCreateCommand().action((flags) => runF({ ...flags, io: f.io, api: f.api, resolveWorkspace: f.workspace, prompter: f.prompter }));
}

/** Chooses the workspace: flag or default, else (on a terminal) a pick from the user's workspaces. */
async function chooseWorkspace(o: FormCreateOptions, fromFile: unknown): Promise<number> {
  if (o.workspace !== undefined) return o.workspace;
  if (typeof fromFile === 'number') return fromFile;
  try {
    return await o.resolveWorkspace(undefined);
  } catch (err) {
    if (!(err instanceof UsageError) || !o.io.canPrompt) throw err;
  }
  const workspaces = await listWorkspaces(await o.api());
  if (workspaces.length === 0) throw new UsageError('You have no workspace.', 'Create one with `formctl workspace create --name <name>`.');
  return o.prompter().select({
    message: 'Workspace',
    flag: '--workspace',
    choices: workspaces.map((w) => ({ name: `${w.icon ? `${w.icon} ` : ''}${w.name}`, value: w.id, description: `id ${w.id}` })),
  });
}

/**
 * Builds the create body: file, then flags, then --set, then the create defaults (docs/service-details.md) for every
 * attribute the deployed service requires, so one request works against both services.
 */
export async function formCreateRun(o: FormCreateOptions): Promise<void> {
  resolveFormat(o.io, o);
  const newId = o.newId ?? randomUUID;
  let doc: Record<string, unknown> = o.file !== undefined ? await readDocument(o.io, o.file) : {};
  const workspaceFromFile = doc.workspace_id;
  // A document pulled from another form carries its identity; a new form gets its own.
  for (const k of ['id', 'slug', 'workspace_id']) delete doc[k];
  if (o.title !== undefined) doc.title = o.title;
  if (o.visibility !== undefined) doc.visibility = o.visibility;
  if (o.language !== undefined) doc.language = o.language;
  if ((o.set ?? []).some(([k]) => k === 'slug')) {
    // Dropping it silently would leave the user with a slug they did not expect.
    throw new UsageError(
      "form create cannot choose the slug: the service makes a new form's slug from its title.",
      'Leave out --set slug; afterwards, `formctl form update <id> --set slug=…` changes it where the service allows (self-hosted servers).',
    );
  }
  // What a new form holds as text: the title and the string defaults (language, theme…).
  const texts = { title: '', ...CREATE_DEFAULTS, ...doc };
  for (const [k, v] of o.set ?? []) {
    const value = parseSetValue(v, k);
    if (o.validate !== false) assertTextStaysText(texts, k, v, value);
    doc = setPath(doc, k, value);
  }

  const extraFields = (o.field ?? []).map((s) => parseField(s, newId));
  // What --json may name is known here, from the document alone (the body is built from it, and the
  // workspace, title, fields and defaults added below): a typo is refused before the workspace list a
  // terminal may read, and before any prompt. Checked again against the body itself, just before the POST.
  if (Array.isArray(o.json))
    checkJsonFields(o.json, [...new Set([...FORM_FIELDS, ...Object.keys(doc), ...Object.keys(CREATE_DEFAULTS), 'workspace_id', 'title', 'properties'])]);
  const interactive = (doc.title === undefined || doc.title === '') && o.io.canPrompt;
  if (interactive) {
    const p = o.prompter();
    doc.title = await p.input({ message: 'Title', flag: '--title', validate: (v) => (v.trim() ? true : 'Required') });
  }
  if (typeof doc.title !== 'string' || doc.title.trim() === '') {
    throw new UsageError('Missing --title.', 'Pass --title "<title>" or a --file with a title (prompts are off: not a terminal, CI, or --no-input).');
  }
  const workspaceId = await chooseWorkspace(o, workspaceFromFile);

  if (extraFields.length > 0) doc.properties = [...(Array.isArray(doc.properties) ? (doc.properties as unknown[]) : []), ...extraFields];
  if (!Array.isArray(doc.properties) || doc.properties.length === 0) {
    if (interactive) {
      const p = o.prompter();
      const name = await p.input({ message: 'First field name', flag: '--field', default: 'Name' });
      const type = await p.select({ message: 'First field type', flag: '--field', choices: FIELD_TYPES.map((t) => ({ name: t, value: t })) });
      let field = newField(name, type, newId);
      if (WITH_OPTIONS.includes(type)) {
        const options = await p.input({
          message: 'Options (comma-separated)',
          flag: '--field',
          validate: (v) => (splitOptions(v).length > 0 ? true : 'Give at least one option, e.g. Free, Pro, Team'),
        });
        field = withSelectOptions(field, splitOptions(options));
      }
      doc.properties = [field];
    } else if (doc.properties === undefined) {
      // The service refuses a form without fields; one text field is the smallest useful form.
      doc.properties = [newField('Name', 'text', newId)];
    }
  }
  for (const [k, v] of Object.entries(CREATE_DEFAULTS)) if (doc[k] === undefined) doc[k] = v;

  const body = { workspace_id: workspaceId, ...toUpdateBody(doc) };
  assertPropertiesKept(body, 'create');
  if (o.validate) assertValidForm(body, 'update');
  assertBodySize(body, 'The form');
  // Checked before the form is created: a typo in --json must not cost a second, duplicate form.
  const format = resolveFormFormat(o.io, o, FORM_FIELDS, [body]);

  // A retention deletes submissions from the start (docs/forms.md, "Retention"): said and confirmed.
  const retention = retentionOf(body);
  if (retention) {
    const warning = retentionWarning({ title: doc.title }, { before: null, after: retention }, { count: 0, byUpdate: true });
    // `form create` has no --dry-run: the hint offers only --yes.
    await confirmRetention(o.io, o, warning, String(doc.title), false);
  }

  const form: Form = await createForm(await o.api(), body).catch((err: unknown) => {
    throw missingWorkspace(err, body.workspace_id) ?? err;
  });
  if (typeof form?.id !== 'number') throw new CliError('The service accepted the form but did not return it; check `formctl form list`.');
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeForm(o.io, format, form);
  } else if (o.io.stdoutIsTTY) {
    await success(o.io, `Created form "${form.title}" (id ${form.id}, ${form.visibility}).`);
    if (form.share_url) await write(o.io.stdout, `  ${form.share_url}\n`);
  } else {
    await write(o.io.stdout, `${form.id}\t${form.share_url ?? ''}\n`);
  }
}

/**
 * The service refuses a form for a workspace that does not exist (a default set with `workspace use`,
 * deleted since) as a validation error on `workspace_id` (422): said as `form list` says it, a
 * missing workspace (exit 6) with the same hint.
 */
function missingWorkspace(err: unknown, workspaceId: unknown): CliError | undefined {
  if (!(err instanceof ValidationError) || err.errors?.workspace_id === undefined) return undefined;
  const said = err.errors.workspace_id[0] ?? 'invalid';
  return new CliError(
    `Workspace ${String(workspaceId)} was not found: the service says "${said.replace(/\.$/, '')}" (HTTP ${err.status}, POST /open/forms).`,
    ExitCode.notFound,
    notFoundHint(`/open/workspaces/${String(workspaceId)}`),
  );
}
