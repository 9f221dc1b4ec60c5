import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { createWorkspace } from '../../api/workspaces.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type OutputFlags, resolveFormat, success, writeObject } from '../../io/output.js';
import type { Prompter } from '../../io/prompter.js';
import { addOutputOptions, examples } from '../shared.js';
import { WORKSPACE_FIELDS } from './list.js';

export interface WorkspaceCreateOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  prompter: () => Prompter;
  name?: string;
  emoji?: string;
  output: OutputFlags;
}

/** `formctl workspace create`. */
export function newWorkspaceCreateCommand(f: Factory, runF = workspaceCreateRun) {
  const cmd = new Command('create')
    .description('Create a workspace; you become its admin')
    .option('--name <name>', 'Workspace name')
    .option('--emoji <emoji>', 'Workspace icon');
  addOutputOptions(cmd, { fields: WORKSPACE_FIELDS });
  examples(cmd, ['formctl workspace create --name "Marketing" --emoji 📣', 'formctl workspace create --name Ops --json id']);
  return cmd.action((flags: { name?: string; emoji?: string } & OutputFlags) =>
    runF({ io: f.io, api: f.api, prompter: f.prompter, name: flags.name, emoji: flags.emoji, output: flags }),
  );
}

/** Creates the workspace and prints it (✓ line on a TTY, the object with --json). */
export async function workspaceCreateRun(o: WorkspaceCreateOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output, WORKSPACE_FIELDS);
  const name = (o.name ?? (await o.prompter().input({ message: 'Workspace name', flag: '--name' }))).trim();
  if (!name) throw new UsageError('--name must not be empty.');
  const ws = await createWorkspace(await o.api(), { name, emoji: o.emoji });
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, ws, []);
  } else if (o.io.stdoutIsTTY) {
    await success(o.io, `Created workspace ${ws.name} (id ${ws.id}). Make it the default: formctl workspace use ${ws.id}`);
  } else {
    o.io.stdout.write(`${ws.id}\n`);
  }
}
