import { Command } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { ForbiddenError } from '../../api/errors.js';
import { removeMember } from '../../api/members.js';
import { errorInit } from '../../api/requirements.js';
import type { Factory } from '../../factory.js';
import { CliError, ExitCode } from '../../errors.js';
import { notice, resolveFormat, writeDone } from '../../io/output.js';
import { confirmByTyping, confirmDestructive } from '../../io/prompter.js';
import { type FlagsOf, addOutputOptions, addWorkspaceOption, addYesOption, examples } from '../shared.js';
import { parseMemberRef, resolveMember } from './shared.js';
import {
  type WorkspaceFacts,
  identifyMe,
  isMe,
  orphanReason,
  passGuard,
  personLabel,
  readWorkspaceFacts,
  removeOrphans,
  workspaceLabel,
} from '../../members/guard.js';

export const REMOVE_FIELDS = ['workspace_id', 'user_id', 'email', 'message'] as const;

/** `formctl member remove <user-id|email>`: the command and its flags, declared once. */
function memberRemoveCommand() {
  const base = new Command('remove')
    .alias('rm')
    .description('Remove a member from a workspace (their account and other workspaces stay)')
    .argument('<user-id|email>', 'Numeric user id, or an email looked up in the member list')
    .option('--force', 'Remove even the only admin or the only member (nobody could manage the workspace afterwards)');
  return examples(addOutputOptions(addYesOption(addWorkspaceOption(base)), { fields: REMOVE_FIELDS }), [
    'formctl member remove alice@example.com',
    'formctl member remove 42 -w 12 --yes   # in scripts',
  ]);
}

export type MemberRemoveOptions = FlagsOf<typeof memberRemoveCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    /** The Factory's resolver: the -w flag, then FORMCTL_WORKSPACE, then the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
    /** The <user-id|email> argument as typed. */
    member: string;
  };

/** `formctl member remove <user-id|email>`. */
export function newMemberRemoveCommand(f: Factory, runF = memberRemoveRun) {
  return memberRemoveCommand().action((member, flags) =>
    runF({ ...flags, io: f.io, api: f.api, prompter: f.prompter, resolveWorkspace: (w) => f.workspace(w), member }),
  );
}

/**
 * Reads the members, resolves the one named, refuses (exit 2, unless --force) to remove a workspace's
 * only admin or only member (docs/webhooks-and-members.md, "The last admin") after that one request,
 * naming the workspace by its id; otherwise reads the workspace's name, confirms naming the person and
 * the workspace, then removes.
 */
export async function memberRemoveRun(o: MemberRemoveOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const ref = parseMemberRef(o.member);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  if (!o.yes && !o.io.canPrompt) await confirmDestructive(o.io, o.prompter(), { yes: false, message: `Remove ${o.member} from workspace ${workspaceId}?` });
  const client = await o.api();
  const facts = await readWorkspaceFacts(client, workspaceId, { force: o.force });
  const target = await resolveMember(client, workspaceId, ref, facts.unchecked ? undefined : facts.members);
  // Refused after the member list alone (the guard needs nothing else); going ahead, the name for
  // the messages below (and the form count for the --force warning).
  const orphan = removeOrphans(facts, target.id);
  await passGuard(client, facts, orphan, {
    force: o.force,
    action: (ws) => `remove ${personLabel(target.member)} from ${ws}`,
    show: { name: true, forms: false },
  });
  if (facts.unchecked) {
    await notice(o.io, `--force: the member list of ${workspaceLabel(facts)} could not be read, so nobody checked that it keeps an admin.`, 'warning');
  } else if (!target.member) {
    throw new CliError(
      `User ${target.id} is not a member of ${workspaceLabel(facts)}.`,
      ExitCode.notFound,
      `See its members with \`formctl member list -w ${workspaceId}\`.`,
    );
  }
  // "yourself" in the prompt needs to know whose the token is, which costs requests: only on a terminal.
  if (!o.yes) await identifyMe(client, facts);
  const ws = workspaceLabel(facts);
  const who = `${personLabel(target.member, target.id)}${isMe(facts, target.id) ? ', yourself,' : ''}`;
  const message = `Remove ${who} from ${ws}?`;
  if (orphan) {
    await notice(o.io, `--force: ${orphanReason(facts, orphan)}`, 'warning');
    if (facts.name) await confirmByTyping(o.io, o.prompter(), { yes: o.yes, message, what: 'its name', expected: facts.name, warning: '' });
    else await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message });
  } else await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message });
  const result = await removeMember(client, workspaceId, target.id).catch(async (err: unknown) => {
    throw await selfRemovalRefused(client, facts, target.id, err);
  });
  await writeDone(
    o.io,
    format,
    { workspace_id: workspaceId, user_id: target.id, email: target.email ?? null, message: result },
    `Removed ${personLabel(target.member, target.id)} from ${ws}.`,
  );
}

/**
 * A refused removal (403) of the caller themselves, who is not an admin there by the member list:
 * removing members is an admin's action on both services, and leaving is a route of its own open to
 * every member (OpnForm app/Http/Controllers/WorkspaceUserController.php:116-118 `adminAction`,
 * :134-136 `view`; docs/webhooks-and-members.md, "Removing yourself"), so the hint names
 * `workspace leave`. Who the caller is costs a request or two, so it is looked up only on this
 * failure (already known after a prompt). An admin's 403 (the token's abilities) and any other
 * error are returned as they are.
 */
async function selfRemovalRefused(client: ApiClient, facts: WorkspaceFacts, targetId: number, err: unknown): Promise<unknown> {
  if (!(err instanceof ForbiddenError) || facts.unchecked) return err;
  await identifyMe(client, facts).catch(() => undefined);
  if (!isMe(facts, targetId) || String(facts.me?.role ?? '').toLowerCase() === 'admin') return err;
  return new ForbiddenError(
    errorInit(err),
    `Only an admin of workspace ${facts.id} removes members, and you are not one there; to leave it yourself, run \`formctl workspace leave ${facts.id}\`.`,
  );
}
