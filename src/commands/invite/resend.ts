import { Command } from '@commander-js/extra-typings';
import { resendInvite } from '../../api/invites.js';
import type { Factory } from '../../factory.js';
import { resolveFormat, writeDone } from '../../io/output.js';
import { type FlagsOf, addOutputOptions, addWorkspaceOption, examples, parseId } from '../shared.js';
import { INVITE_ACTION_FIELDS } from './shared.js';

/** `formctl invite resend <invite-id>`: the command and its flags, declared once. */
function inviteResendCommand() {
  const base = new Command('resend')
    .description("Send a pending invite's email again (admins only)")
    .argument('<invite-id>', 'Invite id (see `formctl invite list`)', parseId('invite id'));
  return examples(addOutputOptions(addWorkspaceOption(base), { fields: INVITE_ACTION_FIELDS }), ['formctl invite resend 7', 'formctl invite resend 7 -w 12']);
}

export type InviteResendOptions = FlagsOf<typeof inviteResendCommand> &
  Pick<Factory, 'io' | 'api'> & {
    /** The Factory's resolver: the -w flag, then FORMCTL_WORKSPACE, then the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
    /** The <invite-id> argument. */
    id: number;
  };

/** `formctl invite resend <invite-id>`. */
export function newInviteResendCommand(f: Factory, runF = inviteResendRun) {
  return inviteResendCommand().action((id, flags) => runF({ ...flags, io: f.io, api: f.api, resolveWorkspace: (w) => f.workspace(w), id }));
}

/** Resends the invitation email. */
export async function inviteResendRun(o: InviteResendOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const message = await resendInvite(await o.api(), workspaceId, o.id);
  await writeDone(o.io, format, { workspace_id: workspaceId, invite_id: o.id, message }, `Resent invite ${o.id} in workspace ${workspaceId}.`);
}
