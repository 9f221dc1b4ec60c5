import { Command } from '@commander-js/extra-typings';
import { listWorkspaces, updateWorkspace } from '../../api/workspaces.js';
import { NotFoundError } from '../../api/errors.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { escapeControls, resolveFormat, writeDone } from '../../io/output.js';
import { addOutputOptions, examples, type FlagsOf, workspaceIdArgument } from '../shared.js';
import { WORKSPACE_FIELDS } from './shared.js';

/** `formctl workspace update <id>`: the command and its flags, declared once. */
function workspaceUpdateCommand() {
  const base = new Command('update')
    .description('Rename a workspace or change its emoji (admins only)')
    .addArgument(workspaceIdArgument())
    .option('--name <name>', 'New name')
    .option('--emoji <emoji>', 'New icon; "" clears it');
  return examples(addOutputOptions(base, { fields: WORKSPACE_FIELDS }), [
    'formctl workspace update 12 --name "Marketing EU"',
    'formctl workspace update 12 --emoji ""',
  ]);
}

export type WorkspaceUpdateOptions = FlagsOf<typeof workspaceUpdateCommand> &
  Pick<Factory, 'io' | 'api'> & {
    /** The <id> argument. */
    id: number;
  };

/** `formctl workspace update <id>`. */
export function newWorkspaceUpdateCommand(f: Factory, runF = workspaceUpdateRun) {
  return workspaceUpdateCommand().action((id, flags) => runF({ ...flags, io: f.io, api: f.api, id }));
}

/** The service requires `name` on every update, so an emoji-only change keeps the current name. */
export async function workspaceUpdateRun(o: WorkspaceUpdateOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  if (o.name === undefined && o.emoji === undefined) throw new UsageError('Nothing to update.', 'Pass --name and/or --emoji.');
  if (o.name !== undefined && !o.name.trim()) throw new UsageError('--name must not be empty.');
  const client = await o.api();
  let name = o.name?.trim();
  let emoji = o.emoji;
  if (name === undefined || emoji === undefined) {
    const current = (await listWorkspaces(client)).find((w) => w.id === o.id);
    if (!current)
      throw new NotFoundError({ status: 404, method: 'GET', path: '/open/workspaces', serverMessage: `Workspace ${o.id} not found among your workspaces` });
    name ??= current.name;
    emoji ??= current.icon ?? undefined;
  }
  const ws = await updateWorkspace(client, o.id, { name, emoji });
  await writeDone(o.io, format, ws, `Updated workspace ${escapeControls(String(ws.name ?? name), { all: true })} (id ${o.id}).`);
}
