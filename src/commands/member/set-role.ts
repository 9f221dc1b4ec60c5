import { Argument, Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { ROLES, type Role, updateMemberRole } from '../../api/members.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type OutputFlags, resolveFormat, success, writeObject } from '../../io/output.js';
import { addOutputOptions, addWorkspaceOption, examples } from '../shared.js';
import { describeMember, parseMemberRef, parseRole, resolveMember } from './args.js';

export const SET_ROLE_FIELDS = ['workspace_id', 'user_id', 'email', 'role', 'message'] as const;

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

/** Resolves the member, then changes the role. */
export async function memberSetRoleRun(o: MemberSetRoleOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output, SET_ROLE_FIELDS);
  const ref = parseMemberRef(o.member);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const client = await o.api();
  const target = await resolveMember(client, workspaceId, ref);
  const message = await updateMemberRole(client, workspaceId, target.id, o.role);
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, { workspace_id: workspaceId, user_id: target.id, email: target.email ?? null, role: o.role, message }, []);
    return;
  }
  await success(o.io, `${describeMember(target)} is now ${o.role} in workspace ${workspaceId}.`);
}
