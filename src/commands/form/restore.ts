import { Command } from '@commander-js/extra-typings';
import { getForm } from '../../api/forms.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { listBackupsIn, readFormFile } from '../../forms/backups.js';
import type { FormLocker } from '../../forms/lock.js';
import { safeUpdate, safeUpdateSettings } from '../../forms/safe-update.js';
import { write } from '../../io/iostreams.js';
import { shellWord } from '../../io/shell-word.js';
import { resolveFormat } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { addFormArgument, addOutputOptions, addYesOption, examples, fileOption, type FlagsOf } from '../shared.js';
import { formIdOf } from './backups.js';
import {
  DRY_RUN_FIELDS,
  FORM_FIELDS,
  addSafeUpdateOptions,
  backupDirFor,
  formLockFor,
  legacyBackupDirFor,
  otherKeysNote,
  resolveFormFormat,
} from './shared.js';
import { reportSafeUpdate } from './update.js';

/** `formctl form restore [form]`: the command and its flags, declared once. */
function formRestoreCommand() {
  const base = new Command('restore')
    .description('Put a saved version of a form back (through the same safe update)')
    .addOption(fileOption('--backup <file|latest>', 'Backup file to restore (see `formctl form backups`)').default('latest'));
  const cmd = addOutputOptions(addYesOption(addSafeUpdateOptions(addFormArgument(base))), { fields: FORM_FIELDS, open: true });
  otherKeysNote(cmd, { when: 'checked before anything is sent', dryRun: DRY_RUN_FIELDS });
  return examples(cmd, [
    'formctl form restore 42 --dry-run',
    'formctl form restore 42 --yes',
    'formctl form restore 42 --backup ~/.local/state/formctl/backups/default/42/2025-01-31T09-12-00.000Z.json',
  ]);
}

export type FormRestoreOptions = FlagsOf<typeof formRestoreCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter' | 'now'> & {
    backupDir: (formId: number) => Promise<string>;
    /** The form's backups from before they were keyed by service, when they belong to this service. */
    legacyBackupDir?: (formId: number) => Promise<string | undefined>;
    /** The form's id or slug (the resolved [form] argument). */
    form: string;
    /** The per-form lock (src/forms/lock.ts), taken after the confirmation. */
    lock?: FormLocker;
    /** The resolved context, for the profile a printed command names. */
    context?: Factory['context'];
  };

/** `formctl form restore <id|slug>`. */
export function newFormRestoreCommand(f: Factory, runF = formRestoreRun) {
  return formRestoreCommand().action(async (form, flags) =>
    runF({
      ...flags,
      io: f.io,
      api: f.api,
      backupDir: (id) => backupDirFor(f, id),
      legacyBackupDir: (id) => legacyBackupDirFor(f, id),
      lock: formLockFor(f),
      context: f.context,
      prompter: f.prompter,
      now: f.now,
      form: await resolveFormArg(f, form),
    }),
  );
}

/** Restores a backup; the version it replaces is itself backed up first, so a restore can be undone. */
export async function formRestoreRun(o: FormRestoreOptions): Promise<void> {
  resolveFormat(o.io, o);
  const id = await formIdOf(o.api, o.form);
  const dir = await o.backupDir(id);
  let path = o.backup ?? 'latest';
  if (path === 'latest') {
    const [newest] = await listBackupsIn([dir, await o.legacyBackupDir?.(id)]);
    if (!newest) throw new UsageError(`No backups of form ${id} for this profile.`, 'Backups are saved before every update; see `formctl form backups <id>`.');
    path = newest.path;
  }
  const saved = await readFormFile(path);
  if (saved.id !== undefined && Number(saved.id) !== id) {
    throw new UsageError(
      `${path} is a backup of form ${String(saved.id)}, not form ${id}.`,
      `Restore it with \`formctl form restore ${String(saved.id)} --backup ${shellWord(path)}\`.`,
    );
  }
  const client = await o.api();
  const current = await getForm(client, id);
  // Same id, other slug: a backup of another service's or profile's form 42 (slugs never change).
  if (typeof saved.slug === 'string' && saved.slug !== '' && saved.slug !== current.slug && o.force !== true) {
    throw new UsageError(
      `${path} is a backup of form "${saved.slug}", not of form ${id} ("${current.slug}"); nothing was sent.`,
      'Check the profile (formctl auth status); pass --force to restore it anyway.',
    );
  }
  resolveFormFormat(o.io, o, [...FORM_FIELDS, ...DRY_RUN_FIELDS], [current, saved]);
  const result = await safeUpdate({
    ...safeUpdateSettings(o.io, o),
    client,
    current,
    change: saved,
    backupDir: dir,
    // Taken once confirmed, not during the question; the re-read under it catches a change made meanwhile.
    lock: o.lock ? () => o.lock!(id) : undefined,
    confirm: async (diff) => {
      if (o.yes) return true;
      if (!o.io.canPrompt)
        throw new UsageError(
          `Restoring form ${id} replaces its current version: refusing without confirmation.`,
          'Pass --yes to confirm, or --dry-run to see the change first (prompts are off: not a terminal, CI, or --no-input).',
        );
      await write(o.io.stdout, diff);
      return o.prompter().confirm({ message: `Restore form ${id} from ${path}?`, flag: '--yes', default: false });
    },
  });
  await reportSafeUpdate(o.io, o, result, { formctl: `formctl${await profileWords(o.context)}` });
}
