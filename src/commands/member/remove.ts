import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { removeMember } from '../../api/members.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { CliError, ExitCode } from '../../errors.js';
import { type OutputFlags, notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { type Prompter, confirmByTyping, confirmDestructive } from '../../io/prompter.js';
import { addOutputOptions, addWorkspaceOption, addYesOption, examples } from '../shared.js';
import { parseMemberRef, resolveMember } from './args.js';
import { addFormCount, isMe, orphanError, orphanReason, personLabel, readWorkspaceFacts, removeOrphans, workspaceLabel } from '../../members/guard.js';

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
  /** Remove even the workspace's only admin or only member. */
  force?: boolean;
  output: OutputFlags;
}

/** `formctl member remove <user-id|email>`. */
export function newMemberRemoveCommand(f: Factory, runF = memberRemoveRun) {
  const cmd = new Command('remove')
    .alias('rm')
    .description('Remove a member from a workspace (their account and other workspaces stay)')
    .argument('<user-id|email>', 'Numeric user id, or an email looked up in the member list')
    .option('--force', 'Remove even the only admin or the only member (nobody could manage the workspace afterwards)');
  addWorkspaceOption(cmd);
  addYesOption(cmd);
  addOutputOptions(cmd, { fields: REMOVE_FIELDS });
  examples(cmd, ['formctl member remove alice@example.com', 'formctl member remove 42 -w 12 --yes   # in scripts']);
  return cmd.action((member: string, flags: OutputFlags & { workspace?: number; yes?: boolean; force?: boolean }) =>
    runF({
      io: f.io,
      api: f.api,
      prompter: f.prompter,
      resolveWorkspace: (w) => f.workspace(w),
      workspace: flags.workspace,
      member,
      yes: flags.yes,
      force: flags.force,
      output: { json: flags.json },
    }),
  );
}

/**
 * Reads the members, resolves the one named, refuses (exit 2, unless --force) to remove a workspace's
 * only admin or only member (docs/webhooks-and-members.md, "The last admin"), confirms naming the
 * person and the workspace, then removes.
 */
export async function memberRemoveRun(o: MemberRemoveOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output, REMOVE_FIELDS);
  const ref = parseMemberRef(o.member);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  if (!o.yes && !o.io.canPrompt) await confirmDestructive(o.io, o.prompter(), { yes: false, message: `Remove ${o.member} from workspace ${workspaceId}?` });
  const client = await o.api();
  // "yourself" in the prompt needs to know whose the token is, which costs requests: only on a terminal.
  const facts = await readWorkspaceFacts(client, workspaceId, { identify: !o.yes, force: o.force });
  const target = await resolveMember(client, workspaceId, ref, facts.unchecked ? undefined : facts.members);
  if (facts.unchecked) {
    await notice(o.io, `--force: the member list of ${workspaceLabel(facts)} could not be read, so nobody checked that it keeps an admin.`, 'warning');
  } else if (!target.member) {
    throw new CliError(
      `User ${target.id} is not a member of ${workspaceLabel(facts)}.`,
      ExitCode.notFound,
      `See its members with \`formctl member list -w ${workspaceId}\`.`,
    );
  }
  const ws = workspaceLabel(facts);
  const who = `${personLabel(target.member, target.id)}${isMe(facts, target.id) ? ', yourself,' : ''}`;
  const orphan = removeOrphans(facts, target.id);
  if (orphan) await addFormCount(client, facts);
  if (orphan && !o.force) throw orphanError(facts, orphan, `remove ${personLabel(target.member)} from ${ws}`);
  const message = `Remove ${who} from ${ws}?`;
  if (orphan) {
    await notice(o.io, `--force: ${orphanReason(facts, orphan)}`, 'warning');
    if (facts.name) await confirmByTyping(o.io, o.prompter(), { yes: o.yes, message, what: 'its name', expected: facts.name, warning: '' });
    else await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message });
  } else await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message });
  const result = await removeMember(client, workspaceId, target.id);
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, { workspace_id: workspaceId, user_id: target.id, email: target.email ?? null, message: result }, []);
    return;
  }
  await success(o.io, `Removed ${personLabel(target.member, target.id)} from ${ws}.`);
}
