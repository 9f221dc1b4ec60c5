import { Command } from '@commander-js/extra-typings';
import { type Member, listMembers } from '../../api/members.js';
import type { Factory } from '../../factory.js';
import { applyLimit, listLimit, moreNote } from '../../io/limit.js';
import { type Column, notice, resolveFormat, writeList } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { type FlagsOf, addOutputOptions, addWorkspaceOption, examples, addLimitOptions } from '../shared.js';

export const MEMBER_FIELDS = ['id', 'name', 'email', 'role'] as const;

/** `formctl member list`: the command and its flags, declared once. */
function memberListCommand() {
  const base = new Command('list').alias('ls').description('List the members of a workspace and their roles');
  return examples(addOutputOptions(addWorkspaceOption(addLimitOptions(base, 'members')), { list: true, fields: MEMBER_FIELDS }), [
    'formctl member list',
    'formctl member list -w 12',
    'formctl member list --json email,role | jq -r \'.[] | select(.role == "admin") | .email\'',
  ]);
}

export type MemberListOptions = FlagsOf<typeof memberListCommand> &
  Pick<Factory, 'io' | 'api'> & {
    /** The Factory's resolver: the -w flag, then FORMCTL_WORKSPACE, then the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
  };

/** `formctl member list`. */
export function newMemberListCommand(f: Factory, runF = memberListRun) {
  return memberListCommand().action((flags) => runF({ ...flags, io: f.io, api: f.api, resolveWorkspace: (w) => f.workspace(w) }));
}

/** Lists members: id, name, email, role. */
export async function memberListRun(o: MemberListOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const limit = listLimit(format, o);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const client = await o.api();
  const members = await withSpinner(o.io, 'Loading members…', () => listMembers(client, workspaceId));
  const columns: Column<Member>[] = [
    { header: 'ID', value: (m) => m.id, style: 'cyan' },
    { header: 'Name', value: (m) => m.name },
    { header: 'Email', value: (m) => m.email, keep: true },
    { header: 'Role', value: (m) => m.role },
  ];
  const { rows, cut } = applyLimit(members, limit);
  await writeList(o.io, format, rows, columns, { empty: `Workspace ${workspaceId} has no members.` });
  if (cut) await notice(o.io, moreNote(rows.length, 'members'));
}
