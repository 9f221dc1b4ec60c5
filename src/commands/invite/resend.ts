import { Command } from '@commander-js/extra-typings';
import { listInvites, resendInvite } from '../../api/invites.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { escapeControls, resolveFormat, writeDone } from '../../io/output.js';
import { shellWord } from '../../io/shell-word.js';
import { type FlagsOf, addOutputOptions, addWorkspaceOption, examples, parseId } from '../shared.js';
import { INVITE_ACTION_FIELDS, INVITE_ID_HINT } from './shared.js';

/** `formctl invite resend <invite-id>`: the command and its flags, declared once. */
function inviteResendCommand() {
  const base = new Command('resend')
    .description("Send a pending invite's email again (admins only)")
    .argument('<invite-id>', 'Invite id (see `formctl invite list`)', parseId('invite id', INVITE_ID_HINT));
  return examples(addOutputOptions(addWorkspaceOption(base), { fields: INVITE_ACTION_FIELDS }), ['formctl invite resend 7', 'formctl invite resend 7 -w 12']);
}

export type InviteResendOptions = FlagsOf<typeof inviteResendCommand> &
  Pick<Factory, 'io' | 'api'> & {
    /** The Factory's resolver: the -w flag, then FORMCTL_WORKSPACE, then the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
    /** The <invite-id> argument. */
    id: number;
    now: () => Date;
  };

/** `formctl invite resend <invite-id>`. */
export function newInviteResendCommand(f: Factory, runF = inviteResendRun) {
  return inviteResendCommand().action((id, flags) => runF({ ...flags, io: f.io, api: f.api, resolveWorkspace: (w) => f.workspace(w), id, now: f.now }));
}

/** Resends the invitation email. */
export async function inviteResendRun(o: InviteResendOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const client = await o.api();
  // The service resends an invite past its valid_until as it is: the email's link is refused at
  // registration, and resending does not extend it (OpnForm app/Http/Controllers/Auth/UserInviteController.php:25-38,
  // app/Service/WorkspaceInviteService.php:46). Read the invite first; a list that cannot be read leaves
  // the answer to the resend itself.
  const invite = await listInvites(client, workspaceId).then(
    (all) => all.find((i) => i.id === o.id),
    () => undefined,
  );
  if (invite?.status === 'pending' && invite.valid_until !== null && Date.parse(invite.valid_until) < o.now().getTime()) {
    // The address, role and time come from the service, and each line is one line: shown escaped, as in a table.
    const line = (text: string) => escapeControls(text, { all: true });
    throw new UsageError(
      line(`Invite ${o.id} (${invite.email}) expired at ${invite.valid_until}: resending it would mail a link the service refuses, and does not extend it.`),
      line(
        `Cancel it and invite again: formctl invite cancel ${o.id} -w ${workspaceId} && formctl member add ${shellWord(String(invite.email))} --role ${shellWord(String(invite.role))} -w ${workspaceId}`,
      ),
    );
  }
  const message = await resendInvite(client, workspaceId, o.id);
  await writeDone(o.io, format, { workspace_id: workspaceId, invite_id: o.id, message }, `Resent invite ${o.id} in workspace ${workspaceId}.`);
}
