// Pieces shared by the form verbs: columns, input files, the backup directory and safe-update flags.
import type { Command } from 'commander';
import type { Form, FormSummary } from '../../api/forms.js';
import type { Factory } from '../../factory.js';
import { backupDir, parseFormJson, readFormFile } from '../../forms/backups.js';
import type { IOStreams } from '../../io/iostreams.js';
import type { Column } from '../../io/output.js';

/** Fields of a form summary (spec "Form (summary)", plus the deployed `plan_tier`). */
export const FORM_SUMMARY_FIELDS = [
  'id', 'slug', 'title', 'visibility', 'tags', 'views_count', 'submissions_count', 'created_at', 'updated_at',
  'last_edited_human', 'closes_at', 'is_closed', 'max_submissions_count', 'max_number_of_submissions_reached',
  'is_pro', 'plan_tier', 'workspace_id', 'share_url',
] as const;

/** Table columns for form lists: what a person scans for, the rest is in --json. */
export const FORM_SUMMARY_COLUMNS: Column<FormSummary>[] = [
  { header: 'ID', value: (r) => r.id, style: 'cyan' },
  { header: 'Slug', value: (r) => r.slug },
  { header: 'Title', value: (r) => r.title },
  { header: 'Visibility', value: (r) => r.visibility },
  { header: 'Submissions', value: (r) => r.submissions_count },
  { header: 'Updated', value: (r) => r.updated_at, time: true },
];

/** Where this form's backups live for the active profile. */
export async function backupDirFor(f: Factory, formId: number): Promise<string> {
  const ctx = await f.context();
  return backupDir(f.stateDir(), ctx.profileName, formId);
}

/** Reads all of stdin as text. */
export async function readStdin(io: IOStreams): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of io.stdin) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON form document from a file, or from stdin for `-`. */
export async function readDocument(io: IOStreams, file: string): Promise<Record<string, unknown>> {
  if (file === '-') return parseFormJson(await readStdin(io), 'stdin');
  return readFormFile(file);
}

/** Flags shared by every verb that goes through the safe update. */
export interface SafeUpdateFlags {
  dryRun?: boolean;
  force?: boolean;
  /** Commander's `--no-validate` gives `validate: false`. */
  validate?: boolean;
}

/** Adds `--dry-run`, `--force` and `--no-validate`. */
export function addSafeUpdateOptions(cmd: Command): Command {
  return cmd
    .option('--dry-run', 'Show the diff and send nothing')
    .option('--force', 'Overwrite even if someone changed the form since it was read')
    .option('--no-validate', 'Skip local checks (title length, enums, required fields); an empty field list is still refused');
}

/** `Title (id 5)` for messages. */
export function formLabel(form: Pick<Form, 'id' | 'title'>): string {
  return `"${form.title}" (id ${form.id})`;
}
