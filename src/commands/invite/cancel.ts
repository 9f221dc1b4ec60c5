import { Command } from '@commander-js/extra-typings';
import { cancelInvite, listInvites } from '../../api/invites.js';
import { listWorkspaces } from '../../api/workspaces.js';
import { CliError, ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { escapeControls, resolveFormat, writeDone } from '../../io/output.js';
import { confirmDestructive } from '../../io/prompter.js';
import { type FlagsOf, addOutputOptions, addWorkspaceOption, addYesOption, examples, parseId } from '../shared.js';
import { INVITE_ACTION_FIELDS, INVITE_ID_HINT } from './shared.js';

/** `formctl invite cancel <invite-id>`: the command and its flags, declared once. */
function inviteCancelCommand() {
  const base = new Command('cancel')
    .description('Cancel a pending invite so its link stops working (admins only)')
    .argument('<invite-id>', 'Invite id (see `formctl invite list`)', parseId('invite id', INVITE_ID_HINT));
  return examples(addOutputOptions(addYesOption(addWorkspaceOption(base)), { fields: INVITE_ACTION_FIELDS }), [
    'formctl invite cancel 7',
    'formctl invite cancel 7 -w 12 --yes   # in scripts',
  ]);
}

export type InviteCancelOptions = FlagsOf<typeof inviteCancelCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    /** The Factory's resolver: the -w flag, then FORMCTL_WORKSPACE, then the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
    /** The <invite-id> argument. */
    id: number;
  };

/** `formctl invite cancel <invite-id>`. */
export function newInviteCancelCommand(f: Factory, runF = inviteCancelRun) {
  return inviteCancelCommand().action((id, flags) =>
    runF({ ...flags, io: f.io, api: f.api, prompter: f.prompter, resolveWorkspace: (w) => f.workspace(w), id }),
  );
}

/**
 * Confirms (naming the invited address and the workspace), then cancels (the server deletes the invite).
 * An id the workspace's invite list does not hold fails (exit 6) before anyone is asked.
 */
export async function inviteCancelRun(o: InviteCancelOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  if (!o.yes && !o.io.canPrompt) await confirmDestructive(o.io, o.prompter(), { yes: false, message: `Cancel invite ${o.id} in workspace ${workspaceId}?` });
  const client = await o.api();
  if (!o.yes) {
    // Only a person is asked, so only then are the names looked up. A list that cannot be read (a
    // role that may not list invites) leaves the prompt with the bare id, and the cancel decides.
    const [invites, workspace] = await Promise.all([
      listInvites(client, workspaceId).catch(() => undefined),
      listWorkspaces(client).then(
        (l) => l.find((w) => Number(w.id) === workspaceId),
        () => undefined,
      ),
    ]);
    const invite = invites?.find((i) => Number(i.id) === o.id);
    const name = typeof workspace?.name === 'string' ? JSON.stringify(workspace.name) : undefined;
    // The list was read and has no such invite: asking first would only lead to a failed cancel.
    if (invites !== undefined && invite === undefined) {
      throw new CliError(
        `${name ? `${name} (workspace ${workspaceId})` : `Workspace ${workspaceId}`} has no invite ${o.id}.`,
        ExitCode.notFound,
        `Check the invite id: formctl invite list -w ${workspaceId}`,
      );
    }
    const where = name ?? `workspace ${workspaceId}`;
    const who = typeof invite?.email === 'string' ? `the invite of ${escapeControls(invite.email, { all: true })}` : `invite ${o.id}`;
    await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Cancel ${who} to ${where}?` });
  }
  const message = await cancelInvite(client, workspaceId, o.id);
  await writeDone(o.io, format, { workspace_id: workspaceId, invite_id: o.id, message }, `Cancelled invite ${o.id} in workspace ${workspaceId}.`);
}
