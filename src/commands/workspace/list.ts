import { Command } from '@commander-js/extra-typings';
import { type Workspace, listWorkspaces } from '../../api/workspaces.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { applyLimit, listLimit, moreNote } from '../../io/limit.js';
import { type Column, notice, resolveFormat, writeList } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { type FlagsOf, addOutputOptions, examples, addLimitOptions } from '../shared.js';
import { WORKSPACE_FIELDS } from './shared.js';

/** A listed workspace: the service's object, and whether it is the profile's default (the table's DEFAULT column). */
type ListedWorkspace = Workspace & { default: boolean };

/** `workspace list --json` fields: every column of the table can be asked for, DEFAULT as `default`. */
const LIST_FIELDS = [...WORKSPACE_FIELDS, 'default'] as const;

/** `formctl workspace list`: the command and its flags, declared once. */
function workspaceListCommand() {
  const cmd = addOutputOptions(addLimitOptions(new Command('list').alias('ls').description('List the workspaces you belong to'), 'workspaces'), {
    list: true,
    fields: LIST_FIELDS,
  });
  examples(cmd, ['formctl workspace list', 'formctl workspace list --json id,name | jq -r \'.[] | "\\(.id) \\(.name)"\'']);
  return cmd.addHelpText(
    'after',
    "\nColumns (table and TSV): ID, NAME, ICON, READ-ONLY, DEFAULT (* marks the profile's default; --json default is true or false).\n",
  );
}

export type WorkspaceListOptions = FlagsOf<typeof workspaceListCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> &
  Partial<Pick<Factory, 'context'>> & {
    defaultWorkspace: () => Promise<number | undefined>;
  };

/** `formctl workspace list`. */
export function newWorkspaceListCommand(f: Factory, runF = workspaceListRun) {
  return workspaceListCommand().action((flags) =>
    runF({ ...flags, io: f.io, api: f.api, defaultWorkspace: async () => (await f.context()).workspace, now: f.now, context: f.context }),
  );
}

/** Lists workspaces; marks the profile's default one in the table. */
export async function workspaceListRun(o: WorkspaceListOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const limit = listLimit(format, o);
  const client = await o.api();
  const [workspaces, current] = await withSpinner(o.io, 'Loading workspaces…', () => Promise.all([listWorkspaces(client), o.defaultWorkspace()]));
  const listed: ListedWorkspace[] = workspaces.map((w) => ({ ...w, default: w.id === current }));
  const columns: Column<ListedWorkspace>[] = [
    { header: 'ID', value: (w) => w.id, style: 'cyan' },
    // The icon has its own column so that `cut -f2` gives the bare name.
    { header: 'Name', value: (w) => w.name },
    { header: 'Icon', value: (w) => w.icon },
    { header: 'Read-only', value: (w) => (w.is_readonly ? 'yes' : 'no') },
    { header: 'Default', value: (w) => (w.default ? '*' : '') },
  ];
  const { rows, cut } = applyLimit(listed, limit);
  await writeList(o.io, format, rows, columns, {
    now: o.now(),
    empty: `No workspaces. Create one with \`formctl${await profileWords(o.context)} workspace create --name <name>\`.`,
  });
  if (cut) await notice(o.io, moreNote(rows.length, 'workspaces'));
}
