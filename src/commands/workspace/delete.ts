import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { listWorkspaceForms } from '../../api/forms.js';
import { deleteWorkspace, listWorkspaces } from '../../api/workspaces.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { escapeControls, notice, resolveFormat, writeDone } from '../../io/output.js';
import { confirmByTyping, confirmDestructive } from '../../io/prompter.js';
import { addOutputOptions, addYesOption, examples, type FlagsOf, workspaceIdArgument } from '../shared.js';
import { forgetDefaultWorkspace } from './shared.js';

/** `formctl workspace delete <id>`: the command and its flags, declared once. */
function workspaceDeleteCommand() {
  const base = new Command('delete').alias('rm').description('Delete a workspace and everything in it (admins only)').addArgument(workspaceIdArgument());
  return examples(addOutputOptions(addYesOption(base), { fields: DELETE_FIELDS }), [
    'formctl workspace delete 12',
    'formctl workspace delete 12 --yes   # in scripts',
    'formctl workspace delete 12 --yes --json   # {"id":12,"deleted":true}',
  ]);
}

/** Keys of `workspace delete --json`, as `form delete --json` has them (without its backup). */
const DELETE_FIELDS = ['id', 'deleted'] as const;

export type WorkspaceDeleteOptions = FlagsOf<typeof workspaceDeleteCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    /** Forgets the workspace as the profile's default; returns the profile name when it was. */
    forgetDefault?: (id: number) => Promise<string | undefined>;
    /** The resolved context, for the profile a printed command names. */
    context?: Factory['context'];
    /** The <id> argument. */
    id: number;
  };

/** `formctl workspace delete <id>`. */
export function newWorkspaceDeleteCommand(f: Factory, runF = workspaceDeleteRun) {
  return workspaceDeleteCommand().action((id, flags) =>
    runF({ ...flags, io: f.io, api: f.api, prompter: f.prompter, forgetDefault: forgetDefaultWorkspace(f), context: f.context, id }),
  );
}

/**
 * Looks the workspace up (so the prompt names it and counts its forms), refuses to delete the last
 * one (the service forbids it, and a deployed server only says "unauthorized"), confirms, deletes.
 * A workspace with forms takes its name typed on a terminal, as `gh repo delete` does.
 */
export async function workspaceDeleteRun(o: WorkspaceDeleteOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  // Off a terminal without --yes nothing could be asked: refuse before any request.
  if (!o.yes && !o.io.canPrompt) {
    throw new UsageError(`Delete workspace ${o.id} with all its forms and submissions: refusing without confirmation.`, 'Pass --yes to confirm.');
  }
  const client = await o.api();
  // A token without workspaces-read / forms-read still deletes: the prompt then says less.
  const all = await listWorkspaces(client).catch(() => undefined);
  const ws = all?.find((w) => w.id === o.id);
  if (ws && all!.length === 1) {
    throw new CliError(
      `You cannot delete your last workspace, "${escapeControls(ws.name, { all: true })}" (id ${o.id}).`,
      ExitCode.forbidden,
      'Create another workspace first (`formctl workspace create --name <name>`); deleting the last one means deleting your account, in the web app.',
    );
  }
  const forms = ws && !o.yes ? await countForms(client, o.id) : undefined;
  const label = ws ? `"${escapeControls(ws.name, { all: true })}" (id ${o.id})` : String(o.id);
  const what =
    forms === undefined ? 'all its forms and submissions' : forms === 0 ? 'no forms' : `its ${forms} form${forms === 1 ? '' : 's'} and all their submissions`;
  const message = `Delete workspace ${label} with ${what}?`;
  if (forms === 0) await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message });
  else if (ws) await confirmByTyping(o.io, o.prompter(), { yes: o.yes, message, what: 'its name', expected: ws.name });
  else await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message });
  await deleteWorkspace(client, o.id);
  await writeDone(o.io, format, { id: o.id, deleted: true }, `Deleted workspace ${label}.`);
  const profile = await o.forgetDefault?.(o.id);
  if (profile)
    await notice(
      o.io,
      `workspace ${o.id} was the default of profile ${profile}; it has none now (pick one with \`formctl${await profileWords(o.context)} workspace use <id>\`).`,
    );
}

/** How many forms the workspace has (one small page: `meta.total`), or undefined when it cannot be read. */
async function countForms(client: ApiClient, workspaceId: number): Promise<number | undefined> {
  try {
    for await (const page of listWorkspaceForms(client, workspaceId, { perPage: 1, all: false })) {
      return page.info?.total ?? (page.items.length === 0 ? 0 : undefined);
    }
    return 0;
  } catch {
    return undefined;
  }
}
