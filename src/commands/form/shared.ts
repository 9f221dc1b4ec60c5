// Pieces shared by the form verbs: columns, input files, the backup directory and safe-update flags.
import { join } from 'node:path';
import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { type Form, type FormSummary, getForm, resolveForm } from '../../api/forms.js';
import type { Factory } from '../../factory.js';
import { backupDir, legacyBackupDir, parseFormJson, readFormFile } from '../../forms/backups.js';
import { isObject } from '../../forms/document.js';
import { withoutSecrets } from '../../forms/secrets.js';
import { type FormLocker, type Release, formLocker } from '../../forms/lock.js';
import { safeId } from '../../io/ids.js';
import { type IOStreams, readAll } from '../../io/iostreams.js';
import { type Column, type OutputFlags, type OutputFormat, checkJsonFields, notice, resolveFormat, writeObject } from '../../io/output.js';
import { UsageError } from '../../errors.js';

/** A form's counts, timestamps and limits: in its summary and, after its own attributes, in the full form. */
const FORM_STATS_FIELDS = [
  'views_count',
  'submissions_count',
  'created_at',
  'updated_at',
  'last_edited_human',
  'closes_at',
  'is_closed',
  'max_submissions_count',
  'max_number_of_submissions_reached',
  'is_pro',
  'plan_tier',
] as const;

/** Fields of a form summary (spec "Form (summary)", plus the deployed `plan_tier`). */
export const FORM_SUMMARY_FIELDS = ['id', 'slug', 'title', 'visibility', 'tags', ...FORM_STATS_FIELDS, 'workspace_id', 'share_url'] as const;

/**
 * Keys of a full form that `--json` offers by name: the spec's Form fields, then what the deployed
 * FormResource adds (docs/service-details.md, Forms), then the summary's timestamps and limits. The service adds
 * attributes over time, so commands also accept any other key the form really has (`resolveFormFormat`).
 */
export const FORM_FIELDS = [
  'id',
  'slug',
  'workspace_id',
  'title',
  'visibility',
  'language',
  'theme',
  'presentation_style',
  'width',
  'size',
  'border_radius',
  'dark_mode',
  'color',
  'uppercase_labels',
  'no_branding',
  'transparent_background',
  'description',
  'closed_text',
  'logo_picture',
  'properties',
  'settings',
  'tags',
  'password',
  'redirect_url',
  'submissions_url',
  'database_fields_update',
  'clear_empty_fields_on_update',
  'cleanings',
  'can_be_indexed',
  'removed_properties',
  'seo_meta',
  'submission_retention_value',
  'submission_retention_unit',
  'auto_save',
  'cover_settings',
  'translations',
  'computed_variables',
  ...FORM_STATS_FIELDS,
  'is_trialing',
  'workspace',
  'is_password_protected',
  'has_password',
  'form_pending_submission_key',
  'max_file_size',
  'share_url',
] as const;

/** Keys of a form property that `--json` offers by name: the spec's four, then the core keys of every block (docs/service-details.md). */
export const PROPERTY_FIELDS = ['id', 'type', 'name', 'required', 'hidden', 'help', 'placeholder', 'help_position', 'width', 'align', 'logic'] as const;

/** Keys of the `--dry-run --json` answer of update, edit, restore and apply. */
export const DRY_RUN_FIELDS = ['dry_run', 'form_id', 'diff', 'removed_fields'] as const;

/**
 * Help text for commands using `resolveFormFormat`. Checking after the fetch costs a request on a
 * typo, but a fixed list alone would refuse attributes the service has added since formctl was built.
 */
export function otherKeysNote<C extends CommandUnknownOpts>(cmd: C, o: { what?: string; when?: string; dryRun?: readonly string[] } = {}): C {
  const dry = o.dryRun ? `\nWith --dry-run, --json describes the change instead: ${o.dryRun.join(', ')}.` : '';
  cmd.addHelpText(
    'after',
    `\n--json also accepts any other key ${o.what ?? 'the form has on the service'} (${o.when ?? 'checked once fetched'}): the list\nabove is what formctl knows, not a limit. Other names are refused with exit 2.${dry}`,
  );
  return cmd;
}

/**
 * Resolves `--json [fields]` against the declared fields plus every key of `objects` (the form or
 * fields as fetched), so a key the service sends but formctl does not declare yet can still be picked.
 */
export function resolveFormFormat(io: IOStreams, flags: OutputFlags, declared: readonly string[], objects: readonly unknown[]): OutputFormat {
  const keys = new Set<string>(declared);
  for (const o of objects) if (isObject(o)) for (const k of Object.keys(o)) keys.add(k);
  if (Array.isArray(flags.json)) checkJsonFields(flags.json, [...keys]);
  return resolveFormat(io, flags);
}

/** Table columns for form lists: what a person scans for, the rest is in --json. */
export const FORM_SUMMARY_COLUMNS: Column<FormSummary>[] = [
  { header: 'ID', value: (r) => r.id, style: 'cyan' },
  { header: 'Slug', value: (r) => r.slug, keep: true },
  { header: 'Title', value: (r) => r.title },
  { header: 'Visibility', value: (r) => r.visibility },
  { header: 'Submissions', value: (r) => r.submissions_count },
  { header: 'Updated', value: (r) => r.updated_at, time: true },
];

/** Where this form's backups live for the active profile and its service. */
export async function backupDirFor(f: Factory, formId: number): Promise<string> {
  const ctx = await f.context();
  return backupDir(f.stateDir(), ctx.profileName, formId, ctx.baseUrl);
}

/**
 * The form's backups from before they were keyed by service, read beside the current ones when the
 * command talks to the profile's own service (they were written for it); undefined when
 * FORMCTL_BASE_URL points elsewhere.
 */
export async function legacyBackupDirFor(f: Factory, formId: number): Promise<string | undefined> {
  const ctx = await f.context();
  return ctx.baseUrlSource === 'env' ? undefined : legacyBackupDir(f.stateDir(), ctx.profileName, formId);
}

/**
 * The per-form lock of the active profile's service (src/forms/lock.ts), kept under the state
 * directory; says on stderr when it waits for another process.
 */
export function formLockFor(f: Factory): FormLocker {
  return async (formId) => {
    const ctx = await f.context();
    const locker = formLocker(join(f.stateDir(), 'locks'), ctx.baseUrl, (id) =>
      notice(f.io, `waiting for another formctl process that is changing form ${id}…`),
    );
    return locker(formId);
  };
}

/**
 * Reads the form to change under its lock, so that no other formctl process on this machine changes
 * it between this read and the PUT. A numeric reference is locked before the read; a slug is read
 * once to learn the id, then locked and read again. Without `lock` (dry runs), a plain read.
 */
export async function readLocked(client: ApiClient, ref: string, lock?: FormLocker): Promise<{ current: Form; release?: Release }> {
  if (!lock) return { current: await resolveForm(client, ref) };
  const id = safeId(ref) ?? (await resolveForm(client, ref)).id;
  const release = await lock(id);
  try {
    return { current: await getForm(client, id), release };
  } catch (err) {
    await release();
    throw err;
  }
}

/** A JSON form document from a file, or from stdin for `-`. */
export async function readDocument(io: IOStreams, file: string): Promise<Record<string, unknown>> {
  if (file === '-') return parseFormJson((await readAll(io.stdin)).toString('utf8'), 'stdin');
  return readFormFile(file);
}

/** Adds `--dry-run`, `--force` and `--no-validate` (`validate` is true unless `--no-validate`). */
export function addSafeUpdateOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd
    .option('--dry-run', 'Show the diff and send nothing')
    .option('--force', 'Overwrite even if someone changed the form since it was read; send attributes the form does not have')
    .option('--no-validate', 'Skip local checks (title length, enums, required fields); an empty field list is still refused');
}

/**
 * The forms as a command prints them: a secret attribute (the form's password) stays out of the
 * output unless `--json` names it (`--json password`); a bare `--json`, `--ndjson` or `--jq` (every
 * field, often saved or logged) leaves it out (docs/forms.md, "Secrets"). An empty one (null, '')
 * is no secret and stays. `left` names the secrets left out, for `secretsLeftNote`.
 */
export function hideSecrets<T extends object>(format: OutputFormat, forms: readonly T[]): { forms: T[]; left: string[] } {
  // A field list picks what is printed: the secret only when it names it, and then no note is due.
  if ((format.kind === 'json' || format.kind === 'ndjson') && format.fields !== undefined) return { forms: [...forms], left: [] };
  const left = new Set<string>();
  const out = forms.map((f) => {
    const stripped = withoutSecrets(f as Record<string, unknown>);
    for (const k of stripped.left) left.add(k);
    return (stripped.left.length > 0 ? stripped.doc : f) as T;
  });
  return { forms: out, left: [...left] };
}

/** The note after JSON output that left secrets out: how to ask for them. */
export async function secretsLeftNote(io: IOStreams, format: OutputFormat, left: readonly string[], whose = "the form's"): Promise<void> {
  if (left.length === 0 || (format.kind !== 'json' && format.kind !== 'ndjson')) return;
  await notice(io, `${whose} ${left.join(', ')} is left out; name it to print it: --json ${left.join(',')}`);
}

/** The form as JSON, its password left out unless `--json` names it (docs/forms.md, "Secrets"). */
export async function writeForm(io: IOStreams, format: OutputFormat, form: Form): Promise<void> {
  const { forms, left } = hideSecrets(format, [form]);
  await writeObject(io, format, forms[0]!, []);
  await secretsLeftNote(io, format, left);
}

/**
 * `--set` reads its value as JSON when it parses, so `--set title=2024` sends the number 2024. Where
 * the form holds text at that key, a number or true/false is refused (exit 2) saying how it was
 * read and how to pass the text, instead of the bare "must be a non-empty string" of the checks.
 * null stays allowed (it clears a value); --no-validate skips this like the other local checks.
 */
export function assertTextStaysText(current: Record<string, unknown>, key: string, raw: string, value: unknown): void {
  if (typeof value !== 'number' && typeof value !== 'boolean') return;
  let held: unknown = current;
  for (const part of key.split('.')) held = isObject(held) || Array.isArray(held) ? (held as Record<string, unknown>)[part] : undefined;
  if (typeof held !== 'string') return;
  const flag = key === 'title' ? ` (or --title ${raw})` : '';
  throw new UsageError(
    `--set ${key}=${raw} reads ${raw} as ${typeof value === 'number' ? 'a number' : 'true/false'} (a --set value is JSON when it parses), but ${key} is text; nothing was sent.`,
    `Quote it as a JSON string: --set '${key}="${raw}"'${flag}.`,
  );
}
