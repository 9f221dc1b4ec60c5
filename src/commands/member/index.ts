import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { newMemberAddCommand } from './add.js';
import { newMemberListCommand } from './list.js';
import { newMemberRemoveCommand } from './remove.js';
import { newMemberSetRoleCommand } from './set-role.js';
import { examples } from '../shared.js';

/** `formctl member …`. */
export default function newMemberCommand(f: Factory) {
  const cmd = new Command('member')
    .description('Manage workspace members and their roles')
    .addCommand(newMemberListCommand(f))
    .addCommand(newMemberAddCommand(f))
    .addCommand(newMemberRemoveCommand(f))
    .addCommand(newMemberSetRoleCommand(f));
  return examples(cmd, [
    'formctl member list',
    'formctl member add carol@example.com --role user',
    'formctl member set-role alice@example.com admin',
    'formctl member list --json email,role | jq -r \'.[] | "\\(.email) \\(.role)"\'',
  ]);
}
