import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { newInviteCancelCommand } from './cancel.js';
import { newInviteListCommand } from './list.js';
import { newInviteResendCommand } from './resend.js';
import { examples } from '../shared.js';

/** `formctl invite …`. */
export default function newInviteCommand(f: Factory) {
  const cmd = new Command('invite')
    .description('List, resend and cancel workspace invites')
    .addCommand(newInviteListCommand(f))
    .addCommand(newInviteResendCommand(f))
    .addCommand(newInviteCancelCommand(f));
  return examples(cmd, [
    'formctl invite list --status pending',
    'formctl invite resend 7',
    'formctl invite cancel 7',
    'formctl invite list --json email,status | jq -r \'.[] | select(.status == "pending") | .email\'',
  ]);
}
