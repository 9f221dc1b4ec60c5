import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { newInviteCancelCommand } from './cancel.js';
import { newInviteListCommand } from './list.js';
import { newInviteResendCommand } from './resend.js';

/** `formctl invite …`. */
export default function newInviteCommand(f: Factory): Command {
  return new Command('invite')
    .description('List, resend and cancel workspace invites')
    .addCommand(newInviteListCommand(f))
    .addCommand(newInviteResendCommand(f))
    .addCommand(newInviteCancelCommand(f));
}
