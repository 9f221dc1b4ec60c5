import { Command } from '@commander-js/extra-typings';
import { createWorkspace } from '../../api/workspaces.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { escapeControls, resolveFormat, success, writeObject } from '../../io/output.js';
import { type FlagsOf, addOutputOptions, examples } from '../shared.js';
import { WORKSPACE_FIELDS } from './shared.js';

/** `formctl workspace create`: the command and its flags, declared once. */
function workspaceCreateCommand() {
  const base = new Command('create')
    .description('Create a workspace; you become its admin')
    .option('--name <name>', 'Workspace name')
    .option('--emoji <emoji>', 'Workspace icon');
  return examples(addOutputOptions(base, { fields: WORKSPACE_FIELDS }), [
    'formctl workspace create --name "Marketing" --emoji 📣',
    'formctl workspace create --name Ops --json id',
  ]);
}

export type WorkspaceCreateOptions = FlagsOf<typeof workspaceCreateCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    /** The resolved context, for the profile a printed command names. */
    context?: Factory['context'];
  };

/** `formctl workspace create`. */
export function newWorkspaceCreateCommand(f: Factory, runF = workspaceCreateRun) {
  return workspaceCreateCommand().action((flags) => runF({ ...flags, io: f.io, api: f.api, prompter: f.prompter, context: f.context }));
}

/** Creates the workspace and prints it (✓ line on a TTY, the object with --json). */
export async function workspaceCreateRun(o: WorkspaceCreateOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const name = (o.name ?? (await o.prompter().input({ message: 'Workspace name', flag: '--name' }))).trim();
  if (!name) throw new UsageError('--name must not be empty.');
  const ws = await createWorkspace(await o.api(), { name, emoji: o.emoji });
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, ws, []);
  } else if (o.io.stdoutIsTTY) {
    await success(
      o.io,
      `Created workspace ${escapeControls(String(ws.name), { all: true })} (id ${ws.id}). Make it the default: formctl${await profileWords(o.context)} workspace use ${ws.id}`,
    );
  } else {
    o.io.stdout.write(`${ws.id}\n`);
  }
}
