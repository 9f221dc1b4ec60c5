import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { newMemberAddCommand } from './add.js';
import { newMemberListCommand } from './list.js';
import { newMemberRemoveCommand } from './remove.js';
import { newMemberSetRoleCommand } from './set-role.js';

/** `formctl member …`. */
export default function newMemberCommand(f: Factory): Command {
  return new Command('member')
    .description('Manage workspace members and their roles')
    .addCommand(newMemberListCommand(f))
    .addCommand(newMemberAddCommand(f))
    .addCommand(newMemberRemoveCommand(f))
    .addCommand(newMemberSetRoleCommand(f));
}
