import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { resendInvite } from '../../api/invites.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type OutputFlags, resolveFormat, success, writeObject } from '../../io/output.js';
import { addOutputOptions, addWorkspaceOption, examples, parseId } from '../shared.js';

export const INVITE_ACTION_FIELDS = ['workspace_id', 'invite_id', 'message'] as const;

export interface InviteResendOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  resolveWorkspace: (flag?: number) => Promise<number>;
  workspace?: number;
  id: number;
  output: OutputFlags;
}

/** `formctl invite resend <invite-id>`. */
export function newInviteResendCommand(f: Factory, runF = inviteResendRun) {
  const cmd = new Command('resend')
    .description('Send a pending invite\'s email again (admins only)')
    .argument('<invite-id>', 'Invite id (see `formctl invite list`)', parseId('invite id'));
  addWorkspaceOption(cmd);
  addOutputOptions(cmd, { fields: INVITE_ACTION_FIELDS });
  examples(cmd, ['formctl invite resend 7', 'formctl invite resend 7 -w 12']);
  return cmd.action((id: number, flags: OutputFlags & { workspace?: number }) =>
    runF({ io: f.io, api: f.api, resolveWorkspace: (w) => f.workspace(w), workspace: flags.workspace, id, output: { json: flags.json } }),
  );
}

/** Resends the invitation email. */
export async function inviteResendRun(o: InviteResendOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output, INVITE_ACTION_FIELDS);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const message = await resendInvite(await o.api(), workspaceId, o.id);
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, { workspace_id: workspaceId, invite_id: o.id, message }, []);
    return;
  }
  await success(o.io, `Resent invite ${o.id} in workspace ${workspaceId}.`);
}
