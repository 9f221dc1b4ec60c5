import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { newWorkspaceCreateCommand } from './create.js';
import { newWorkspaceDeleteCommand } from './delete.js';
import { newWorkspaceLeaveCommand } from './leave.js';
import { newWorkspaceListCommand } from './list.js';
import { newWorkspaceUpdateCommand } from './update.js';
import { newWorkspaceUseCommand } from './use.js';
import { examples } from '../shared.js';

/** `formctl workspace …`. */
export default function newWorkspaceCommand(f: Factory) {
  const cmd = new Command('workspace')
    .alias('ws')
    .description('List, create, update and switch workspaces')
    .addCommand(newWorkspaceListCommand(f))
    .addCommand(newWorkspaceCreateCommand(f))
    .addCommand(newWorkspaceUpdateCommand(f))
    .addCommand(newWorkspaceDeleteCommand(f))
    .addCommand(newWorkspaceLeaveCommand(f))
    .addCommand(newWorkspaceUseCommand(f));
  return examples(cmd, [
    'formctl workspace list',
    'formctl workspace create --name Marketing --emoji 📣',
    'formctl workspace use 2',
    'formctl workspace list --json id,name | jq -r \'.[] | "\\(.id) \\(.name)"\'',
  ]);
}
