import { Argument, Command } from '@commander-js/extra-typings';
import { type Member, ROLES, type Role, listMembers, updateMemberRole } from '../../api/members.js';
import type { Factory } from '../../factory.js';
import { CliError, ExitCode } from '../../errors.js';
import { notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { confirmByTyping, confirmDestructive } from '../../io/prompter.js';
import { type FlagsOf, addOutputOptions, addWorkspaceOption, addYesOption, examples } from '../shared.js';
import { nameMember, parseMemberRef, parseRole, resolveMember } from './shared.js';
import { type WorkspaceFacts, demoteOrphans, orphanReason, passGuard, personLabel, readWorkspaceFacts, workspaceLabel } from '../../members/guard.js';

/** `changed` is false when the member already had the role, null when the member list could not be read. */
export const SET_ROLE_FIELDS = ['workspace_id', 'user_id', 'email', 'role', 'changed', 'message'] as const;

/** `formctl member set-role <user-id|email> <role>`: the command and its flags, declared once. */
function memberSetRoleCommand() {
  const base = new Command('set-role')
    .description("Change a member's role in a workspace (admins only)")
    .argument('<user-id|email>', 'Numeric user id, or an email looked up in the member list')
    .addArgument(new Argument('<role>', 'New role').choices(ROLES).argParser(parseRole))
    .option('--force', 'Change the role even of the only admin (nobody could manage the workspace afterwards)');
  return examples(addOutputOptions(addYesOption(addWorkspaceOption(base)), { fields: SET_ROLE_FIELDS }), [
    'formctl member set-role alice@example.com admin',
    'formctl member set-role 42 readonly -w 12',
  ]);
}

export type MemberSetRoleOptions = FlagsOf<typeof memberSetRoleCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    /** The Factory's resolver: the -w flag, then FORMCTL_WORKSPACE, then the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
    /** The <user-id|email> argument as typed. */
    member: string;
    /** The <role> argument. */
    role: Role;
  };

/** `formctl member set-role <user-id|email> <role>`. */
export function newMemberSetRoleCommand(f: Factory, runF = memberSetRoleRun) {
  return memberSetRoleCommand().action((member, role, flags) =>
    runF({ ...flags, io: f.io, api: f.api, prompter: f.prompter, resolveWorkspace: (w) => f.workspace(w), member, role }),
  );
}

/**
 * Resolves the member, refuses (exit 2, unless --force) to take the admin role from a workspace's only
 * admin (docs/webhooks-and-members.md, "The last admin") after the member list alone, naming the
 * workspace by its id; otherwise reads the workspace's name for the messages, then changes the role. The service answers
 * "changed" either way, so the member's current role (from the member list) tells whether anything
 * changed.
 */
export async function memberSetRoleRun(o: MemberSetRoleOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const ref = parseMemberRef(o.member);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const client = await o.api();
  let facts: WorkspaceFacts | undefined;
  // Making someone admin cannot orphan anything; every other role is checked against the member list.
  if (o.role !== 'admin') {
    facts = await readWorkspaceFacts(client, workspaceId, { force: o.force });
    if (facts.unchecked) {
      await notice(o.io, `--force: the member list of ${workspaceLabel(facts)} could not be read, so nobody checked that it keeps an admin.`, 'warning');
      facts = undefined;
    }
  }
  const target = await resolveMember(client, workspaceId, ref, facts?.members);
  // Refused after the member list alone (the guard needs nothing else); going ahead, the name for
  // the messages below (and the form count for the --force warning).
  const orphan = facts ? demoteOrphans(facts, target.id, o.role) : undefined;
  if (facts) {
    await passGuard(client, facts, orphan, {
      force: o.force,
      action: (ws) => `make ${personLabel(target.member, target.id)} ${o.role} in ${ws}`,
      show: { name: true, forms: false },
    });
  }
  const member: Member | undefined =
    target.member ??
    (facts
      ? undefined
      : await listMembers(client, workspaceId).then(
          (ms) => ms.find((m) => Number(m.id) === target.id),
          () => undefined,
        ));
  if (facts && !member) {
    throw new CliError(
      `User ${target.id} is not a member of ${workspaceLabel(facts)}.`,
      ExitCode.notFound,
      `See its members with \`formctl member list -w ${workspaceId}\`.`,
    );
  }
  if (orphan && facts) {
    await notice(o.io, `--force: ${orphanReason(facts, orphan)}`, 'warning');
    const message = `Make ${personLabel(member, target.id)} ${o.role} in ${workspaceLabel(facts)}?`;
    if (facts.name) await confirmByTyping(o.io, o.prompter(), { yes: o.yes, message, what: 'its name', expected: facts.name, warning: '' });
    else await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message });
  }
  const result = await updateMemberRole(client, workspaceId, target.id, o.role);
  const changed = member ? String(member.role ?? '').toLowerCase() !== o.role : null;
  const email = target.email ?? (typeof member?.email === 'string' ? member.email : undefined);
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, { workspace_id: workspaceId, user_id: target.id, email: email ?? null, role: o.role, changed, message: result }, []);
    return;
  }
  const who = nameMember({ id: target.id, email, member });
  const where = facts ? workspaceLabel(facts) : `workspace ${workspaceId}`;
  if (changed === false) await notice(o.io, `${who} is already ${o.role} in ${where}; nothing changed.`);
  else await success(o.io, `${who} is now ${o.role} in ${where}.`);
}
