import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { resolveForm } from '../../api/forms.js';
import type { Factory } from '../../factory.js';
import { looksNumeric, parseFormRef } from '../../io/ids.js';
import { type BackupEntry, listBackupsIn } from '../../forms/backups.js';
import { type Column, resolveFormat, writeList } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples } from '../shared.js';
import { backupDirFor, legacyBackupDirFor } from './shared.js';

export const BACKUP_FIELDS = ['file', 'path', 'saved_at', 'size', 'title', 'updated_at'] as const;

/** One backup as `form backups` prints it: snake_case keys, as every other field formctl prints (`saved_at` was once `savedAt`). */
type BackupRow = Omit<BackupEntry, 'savedAt'> & { saved_at: string };

/** `formctl form backups [form]`: the command and its flags, declared once. */
function formBackupsCommand() {
  const base = new Command('backups').description('List the copies saved before each update of a form, newest first');
  return examples(addOutputOptions(addFormArgument(base), { list: true, fields: BACKUP_FIELDS }), [
    'formctl form backups 42',
    "formctl form backups 42 --json path | jq -r '.[0].path'",
  ]);
}

export type FormBackupsOptions = FlagsOf<typeof formBackupsCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> & {
    backupDir: (formId: number) => Promise<string>;
    /** The form's backups from before they were keyed by service, when they belong to this service. */
    legacyBackupDir?: (formId: number) => Promise<string | undefined>;
    /** The form's id or slug (the resolved [form] argument). */
    form: string;
  };

/** `formctl form backups <id>`. */
export function newFormBackupsCommand(f: Factory, runF = formBackupsRun) {
  return formBackupsCommand().action(async (form, flags) =>
    runF({
      ...flags,
      io: f.io,
      api: f.api,
      backupDir: (id) => backupDirFor(f, id),
      legacyBackupDir: (id) => legacyBackupDirFor(f, id),
      now: f.now,
      form: await resolveFormArg(f, form),
    }),
  );
}

/** A numeric id needs no request, so backups can be listed while the service is down. */
export async function formIdOf(api: () => Promise<ApiClient>, ref: string): Promise<number> {
  const t = parseFormRef(ref);
  if (looksNumeric(t)) return Number(t);
  return (await resolveForm(await api(), t)).id;
}

/** Lists backup files of the form for the active profile. */
export async function formBackupsRun(o: FormBackupsOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const id = await formIdOf(o.api, o.form);
  const entries = await listBackupsIn([await o.backupDir(id), await o.legacyBackupDir?.(id)]);
  const rows: BackupRow[] = entries.map(({ file, path, savedAt, size, ...rest }) => ({ file, path, saved_at: savedAt, size, ...rest }));
  const columns: Column<BackupRow>[] = [
    { header: 'Saved', value: (b) => b.saved_at, time: true },
    { header: 'Title', value: (b) => b.title },
    { header: 'Form updated', value: (b) => b.updated_at, time: true },
    { header: 'Path', value: (b) => b.path },
  ];
  await writeList(o.io, format, rows, columns, { now: o.now(), empty: `No backups of form ${id} yet; one is saved before every update.` });
}
