import { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { leaveWorkspace } from '../../api/workspaces.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { notice, success } from '../../io/output.js';
import { type Prompter, confirmDestructive } from '../../io/prompter.js';
import { addYesOption, examples, parseId } from '../shared.js';
import { forgetDefaultWorkspace } from './default.js';

export interface WorkspaceLeaveOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  /** Forgets the workspace as the profile's default; returns the profile name when it was. */
  forgetDefault?: (id: number) => Promise<string | undefined>;
  prompter: () => Prompter;
  id: number;
  yes?: boolean;
}

/** `formctl workspace leave <id>`. */
export function newWorkspaceLeaveCommand(f: Factory, runF = workspaceLeaveRun): Command {
  const cmd = new Command('leave').description('Leave a workspace (you lose access to its forms)').argument('<id>', 'Workspace id', parseId('workspace id'));
  addYesOption(cmd);
  examples(cmd, ['formctl workspace leave 12 --yes']);
  return cmd.action((id: number, flags: { yes?: boolean }) => runF({ io: f.io, api: f.api, prompter: f.prompter, forgetDefault: forgetDefaultWorkspace(f), id, yes: flags.yes }));
}

/** Confirms, then leaves. */
export async function workspaceLeaveRun(o: WorkspaceLeaveOptions): Promise<void> {
  await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Leave workspace ${o.id}?` });
  await leaveWorkspace(await o.api(), o.id);
  await success(o.io, `You left workspace ${o.id}.`);
  const profile = await o.forgetDefault?.(o.id);
  if (profile) await notice(o.io, `workspace ${o.id} was the default of profile ${profile}; it has none now (pick one with \`formctl workspace use <id>\`).`);
}
