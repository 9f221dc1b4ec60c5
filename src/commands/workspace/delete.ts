import { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { deleteWorkspace } from '../../api/workspaces.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { notice, success } from '../../io/output.js';
import { type Prompter, confirmDestructive } from '../../io/prompter.js';
import { addYesOption, examples, parseId } from '../shared.js';
import { forgetDefaultWorkspace } from './default.js';

export interface WorkspaceDeleteOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  /** Forgets the workspace as the profile's default; returns the profile name when it was. */
  forgetDefault?: (id: number) => Promise<string | undefined>;
  prompter: () => Prompter;
  id: number;
  yes?: boolean;
}

/** `formctl workspace delete <id>`. */
export function newWorkspaceDeleteCommand(f: Factory, runF = workspaceDeleteRun): Command {
  const cmd = new Command('delete')
    .alias('rm')
    .description('Delete a workspace and everything in it (admins only)')
    .argument('<id>', 'Workspace id', parseId('workspace id'));
  addYesOption(cmd);
  examples(cmd, ['formctl workspace delete 12', 'formctl workspace delete 12 --yes   # in scripts']);
  return cmd.action((id: number, flags: { yes?: boolean }) => runF({ io: f.io, api: f.api, prompter: f.prompter, forgetDefault: forgetDefaultWorkspace(f), id, yes: flags.yes }));
}

/** Confirms, then deletes. */
export async function workspaceDeleteRun(o: WorkspaceDeleteOptions): Promise<void> {
  await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Delete workspace ${o.id} with all its forms and submissions?` });
  await deleteWorkspace(await o.api(), o.id);
  await success(o.io, `Deleted workspace ${o.id}.`);
  const profile = await o.forgetDefault?.(o.id);
  if (profile) await notice(o.io, `workspace ${o.id} was the default of profile ${profile}; it has none now (pick one with \`formctl workspace use <id>\`).`);
}
