// Helpers the member verbs share: parsing an email, a role or a member named on the command line,
// and resolving that member through the workspace's member list.
import type { ApiClient } from '../../api/client.js';
import { type Member, ROLES, type Role, listMembers } from '../../api/members.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { looksNumeric, parseIdText } from '../../io/ids.js';
import { escapeControls } from '../../io/output.js';

// Deliberately stricter than RFC 5322: it catches the typos people make (missing "@" or
// top-level domain, spaces, stray punctuation) before a request goes out; the server has the final say.
const EMAIL = /^(?!\.)(?!.*\.\.)[^\s@"(),:;<>[\]\\]{1,64}(?<!\.)@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/iu;

/** True for an address the service's `email` rule will plausibly accept. */
export function isValidEmail(v: string): boolean {
  return v.length <= 254 && EMAIL.test(v);
}

/** Validates an email argument; exit 2 before any request. */
export function parseEmail(v: string): string {
  const email = v.trim();
  if (!isValidEmail(email)) throw new UsageError(`Invalid email address "${v}".`, 'Pass an address such as alice@example.com.');
  return email;
}

/** Parses a role (case-insensitive); exit 2 with the accepted values. */
export function parseRole(v: string): Role {
  const role = v.trim().toLowerCase();
  if (!(ROLES as readonly string[]).includes(role)) {
    throw new UsageError(`Unknown role "${v}".`, `Accepted roles: ${ROLES.join(', ')}.`);
  }
  return role as Role;
}

/** A member named on the command line: a numeric user id or an email address. */
export type MemberRef = { id: number } | { email: string };

/** Parses `<user-id|email>`; exit 2 when it is neither. */
export function parseMemberRef(v: string): MemberRef {
  const s = v.trim();
  if (looksNumeric(s)) return { id: parseIdText('user id', s, 'See ids and emails with `formctl member list`.') };
  if (s.includes('@')) return { email: parseEmail(s) };
  throw new UsageError(`Expected a numeric user id or an email address, got "${v}".`, 'See ids and emails with `formctl member list`.');
}

/** A member resolved to an id; `member` is set when it was looked up by email. */
export interface ResolvedMember {
  id: number;
  email?: string;
  member?: Member;
}

/** Turns a ref into a user id, resolving an email through the workspace's member list. */
export async function resolveMember(client: ApiClient, workspaceId: number, ref: MemberRef, members?: Member[]): Promise<ResolvedMember> {
  if ('id' in ref) {
    const member = members?.find((m) => Number(m.id) === ref.id);
    return member ? { id: ref.id, email: typeof member.email === 'string' ? member.email : undefined, member } : { id: ref.id };
  }
  const wanted = ref.email.toLowerCase();
  const member = (members ?? (await listMembers(client, workspaceId))).find((m) => typeof m.email === 'string' && m.email.toLowerCase() === wanted);
  if (!member) {
    throw new CliError(
      `No member with email ${ref.email} in workspace ${workspaceId}.`,
      ExitCode.notFound,
      `See \`formctl member list -w ${workspaceId}\`; people invited but not registered yet are in \`formctl invite list -w ${workspaceId}\`.`,
    );
  }
  return { id: Number(member.id), email: member.email, member };
}

/** "alice@example.com (user 5)" or "user 5"; the email (from the member list) shown with its control characters escaped. */
export function describeMember(m: ResolvedMember): string {
  return m.email ? `${escapeControls(m.email, { all: true })} (user ${m.id})` : `user ${m.id}`;
}

/** "Alice (alice@example.com)" when the member list gave a name, else as `describeMember`; control characters escaped. */
export function nameMember(m: ResolvedMember): string {
  const name = typeof m.member?.name === 'string' ? m.member.name.trim() : '';
  const email = m.email ?? (typeof m.member?.email === 'string' ? m.member.email : undefined);
  return name && email ? escapeControls(`${name} (${email})`, { all: true }) : describeMember({ id: m.id, email });
}
