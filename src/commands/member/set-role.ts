import { Argument, Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { type Member, ROLES, type Role, listMembers, updateMemberRole } from '../../api/members.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type OutputFlags, notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { addOutputOptions, addWorkspaceOption, examples } from '../shared.js';
import { nameMember, parseMemberRef, parseRole, resolveMember } from './args.js';

/** `changed` is false when the member already had the role, null when the member list could not be read. */
export const SET_ROLE_FIELDS = ['workspace_id', 'user_id', 'email', 'role', 'changed', 'message'] as const;

export interface MemberSetRoleOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  resolveWorkspace: (flag?: number) => Promise<number>;
  workspace?: number;
  /** `<user-id|email>` as typed. */
  member: string;
  role: Role;
  output: OutputFlags;
}

/** `formctl member set-role <user-id|email> <role>`. */
export function newMemberSetRoleCommand(f: Factory, runF = memberSetRoleRun): Command {
  const cmd = new Command('set-role')
    .description("Change a member's role in a workspace (admins only)")
    .argument('<user-id|email>', 'Numeric user id, or an email looked up in the member list')
    .addArgument(new Argument('<role>', 'New role').choices(ROLES).argParser(parseRole));
  addWorkspaceOption(cmd);
  addOutputOptions(cmd, { fields: SET_ROLE_FIELDS });
  examples(cmd, ['formctl member set-role alice@example.com admin', 'formctl member set-role 42 readonly -w 12']);
  return cmd.action((member: string, role: Role, flags: OutputFlags & { workspace?: number }) =>
    runF({ io: f.io, api: f.api, resolveWorkspace: (w) => f.workspace(w), workspace: flags.workspace, member, role, output: { json: flags.json } }),
  );
}

/**
 * Resolves the member, then changes the role. The service answers "changed" either way, so the
 * member's current role (from the member list) tells whether anything changed.
 */
export async function memberSetRoleRun(o: MemberSetRoleOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output, SET_ROLE_FIELDS);
  const ref = parseMemberRef(o.member);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const client = await o.api();
  const target = await resolveMember(client, workspaceId, ref);
  // By id, the list is read only to name the member and see their role: a token that may change roles
  // but not read the list still gets the change, reported without the name.
  const member: Member | undefined =
    target.member ?? (await listMembers(client, workspaceId).then((ms) => ms.find((m) => Number(m.id) === target.id), () => undefined));
  const message = await updateMemberRole(client, workspaceId, target.id, o.role);
  const changed = member ? String(member.role ?? '').toLowerCase() !== o.role : null;
  const email = target.email ?? (typeof member?.email === 'string' ? member.email : undefined);
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, { workspace_id: workspaceId, user_id: target.id, email: email ?? null, role: o.role, changed, message }, []);
    return;
  }
  const who = nameMember({ id: target.id, email, member });
  if (changed === false) await notice(o.io, `${who} is already ${o.role} in workspace ${workspaceId}; nothing changed.`);
  else await success(o.io, `${who} is now ${o.role} in workspace ${workspaceId}.`);
}
