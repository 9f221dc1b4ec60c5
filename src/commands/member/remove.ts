import { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { removeMember } from '../../api/members.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type OutputFlags, resolveFormat, success, writeObject } from '../../io/output.js';
import { type Prompter, confirmDestructive } from '../../io/prompter.js';
import { addOutputOptions, addWorkspaceOption, addYesOption, examples } from '../shared.js';
import { describeMember, parseMemberRef, resolveMember } from './args.js';

export const REMOVE_FIELDS = ['workspace_id', 'user_id', 'email', 'message'] as const;

export interface MemberRemoveOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  prompter: () => Prompter;
  resolveWorkspace: (flag?: number) => Promise<number>;
  workspace?: number;
  /** `<user-id|email>` as typed. */
  member: string;
  yes?: boolean;
  output: OutputFlags;
}

/** `formctl member remove <user-id|email>`. */
export function newMemberRemoveCommand(f: Factory, runF = memberRemoveRun): Command {
  const cmd = new Command('remove')
    .alias('rm')
    .description('Remove a member from a workspace (their account and other workspaces stay)')
    .argument('<user-id|email>', 'Numeric user id, or an email looked up in the member list');
  addWorkspaceOption(cmd);
  addYesOption(cmd);
  addOutputOptions(cmd, { fields: REMOVE_FIELDS });
  examples(cmd, ['formctl member remove alice@example.com', 'formctl member remove 42 -w 12 --yes   # in scripts']);
  return cmd.action((member: string, flags: OutputFlags & { workspace?: number; yes?: boolean }) =>
    runF({
      io: f.io,
      api: f.api,
      prompter: f.prompter,
      resolveWorkspace: (w) => f.workspace(w),
      workspace: flags.workspace,
      member,
      yes: flags.yes,
      output: { json: flags.json },
    }),
  );
}

/** Resolves the member, confirms, then removes. */
export async function memberRemoveRun(o: MemberRemoveOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output, REMOVE_FIELDS);
  const ref = parseMemberRef(o.member);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const client = await o.api();
  // Resolve before asking, so an unknown email fails without a pointless prompt.
  const target = await resolveMember(client, workspaceId, ref);
  await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Remove ${describeMember(target)} from workspace ${workspaceId}?` });
  const message = await removeMember(client, workspaceId, target.id);
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, { workspace_id: workspaceId, user_id: target.id, email: target.email ?? null, message }, []);
    return;
  }
  await success(o.io, `Removed ${describeMember(target)} from workspace ${workspaceId}.`);
}
