import { type Account, whoAmI } from '../api/account.js';
import type { ApiClient } from '../api/client.js';
import { ForbiddenError, forbiddenCause } from '../api/errors.js';
import { listWorkspaceForms } from '../api/forms.js';
import { listInvites } from '../api/invites.js';
import { type Member, listMembers } from '../api/members.js';
import { type Workspace, listWorkspaces } from '../api/workspaces.js';
import { CliError, UsageError } from '../errors.js';
import { escapeControls } from '../io/output.js';
import { MAX_PER_PAGE } from '../service/limits.js';
import { capitalise } from '../service/text.js';

/**
 * What leave, remove and set-role need to know before they change who is in a workspace: neither
 * service keeps a workspace from losing its last admin or its last member, which leaves it and all
 * its forms out of everybody's reach (docs/webhooks-and-members.md, "The last admin").
 */
export interface WorkspaceFacts {
  id: number;
  /** The workspace's name, when the token's workspace list has it. */
  name?: string;
  /** Its entry in the workspace list (the deployed one says `is_admin` for the caller). */
  entry?: Workspace;
  members: Member[];
  /** Number of forms; undefined when it could not be counted. */
  forms?: number;
  /** The caller's member record, when formctl could tell who the token belongs to. */
  me?: Member;
  /** Whose the token is, from who-am-I: undefined until asked, null where the service has no such route. */
  account?: Account | null;
  /** Members who may be the caller (one, the caller, when `me` is known). */
  candidates: Member[];
  /** The token's workspaces, when they could be listed (for `settleCaller`). */
  workspaces?: Workspace[];
  /** Whether the workspace list was asked for (`addWorkspaceEntry`), whatever came of it. */
  listed?: boolean;
  /** Whether the caller is an admin of this workspace, when a read told (see `settleCaller`). */
  callerIsAdmin?: boolean;
  /** The member list could not be read and --force said to go ahead without the check. */
  unchecked?: boolean;
}

/** How many member lists `identifyCaller` reads at most to tell who the caller is. */
export const MAX_LISTS_FOR_IDENTITY = 10;

const isAdmin = (m: Member) => String(m.role ?? '').toLowerCase() === 'admin';
const sameId = (a: Member, b: Member) => Number(a.id) === Number(b.id);

/** `"Ops"` or `workspace 12`. */
export function workspaceLabel(f: Pick<WorkspaceFacts, 'id' | 'name'>): string {
  return f.name ? JSON.stringify(f.name) : `workspace ${f.id}`;
}

/**
 * "Ada Admin (admin@example.com)", "admin@example.com" or "user 5". The name and email come from the
 * service and the label sits inside one line (a prompt, a note, an error): every control character is shown escaped.
 */
export function personLabel(m: Member | undefined, id?: number): string {
  const name = typeof m?.name === 'string' ? m.name.trim() : '';
  const email = typeof m?.email === 'string' ? m.email : '';
  const label = name && email ? `${name} (${email})` : email || name || `user ${m?.id ?? id}`;
  return escapeControls(label, { all: true });
}

/** "its 3 forms", "its one form", "no forms" or "its forms". */
export function formsPhrase(n: number | undefined): string {
  if (n === undefined) return 'its forms';
  if (n === 0) return 'no forms';
  return n === 1 ? 'its one form' : `its ${n} forms`;
}

/**
 * Reads the member list (required): all the last-admin guard needs to refuse a change, bar who the
 * caller is for `workspace leave` (`settleCaller`). The workspace's name (`addWorkspaceEntry`), its
 * form count (`addFormCount`) and who the caller is for a prompt (`identifyMe`) are read after the
 * guard passed (`passGuard`), where a message shows them. Where the token may not read the member
 * list and --force goes ahead, the workspace list is read for the name in the warning.
 */
export async function readWorkspaceFacts(client: ApiClient, workspaceId: number, o: { force?: boolean } = {}): Promise<WorkspaceFacts> {
  let members: Member[];
  try {
    members = await listMembers(client, workspaceId);
  } catch (err) {
    if (err instanceof ForbiddenError && o.force) {
      const facts: WorkspaceFacts = { id: workspaceId, members: [], candidates: [], unchecked: true };
      await addWorkspaceEntry(client, facts);
      return facts;
    }
    if (err instanceof ForbiddenError) {
      throw new CliError(
        `Cannot read the members of workspace ${workspaceId} to check that it keeps an admin: ${err.message}`,
        err.exitCode,
        `${err.hint ?? ''} Or pass --force to go ahead without the check.`.trim(),
      );
    }
    throw err;
  }
  const facts: WorkspaceFacts = { id: workspaceId, members, candidates: members };
  if (members.length === 1) {
    facts.me = members[0];
    facts.candidates = [members[0]!];
  }
  return facts;
}

/**
 * The guard's verdict, once its own reads are done: an orphaning change without --force is refused
 * (exit 2) straight away, naming the workspace by what is known so far (its id, unless a read of the
 * guard gave its name); `action(ws)` completes "Refusing to …". A change that goes ahead reads the
 * workspace's name and form count where its messages show them: always for an orphaning one (the
 * --force warning), else as `show` says.
 */
export async function passGuard(
  client: ApiClient,
  facts: WorkspaceFacts,
  orphan: Orphaning | undefined,
  o: { force?: boolean; action: (ws: string) => string; show: { name: boolean; forms: boolean } },
): Promise<void> {
  if (orphan && !o.force) throw orphanError(facts, orphan, o.action(workspaceLabel(facts)));
  if (orphan || o.show.name) await addWorkspaceEntry(client, facts);
  if (orphan || o.show.forms) await addFormCount(client, facts);
}

/**
 * Tells who the caller is, for "yourself" in a prompt: who-am-I, else the member lists of the token's
 * other workspaces (which needs the workspace list: read first, as the prompt names the workspace anyway).
 */
export async function identifyMe(client: ApiClient, facts: WorkspaceFacts): Promise<void> {
  if (facts.me || facts.unchecked) return;
  await addWorkspaceEntry(client, facts);
  if (!(await identifyByAccount(client, facts))) await narrowCandidates(client, facts);
}

/**
 * Finds the caller among the members by the e-mail who-am-I answers (one request, open to any token:
 * docs/service.md, "Who am I"). True when that settled who the caller is (`me`, or not a member at
 * all); false where the service has no such route (an older or a non-OpenForm server), or it failed,
 * and the member lists must be compared instead.
 */
async function identifyByAccount(client: ApiClient, facts: WorkspaceFacts): Promise<boolean> {
  if (facts.account === undefined) facts.account = await whoAmI(client).catch(() => null);
  const account = facts.account;
  if (!account) return false;
  const email = account.email.trim().toLowerCase();
  const me = facts.members.find((m) => typeof m.email === 'string' && m.email.trim().toLowerCase() === email);
  facts.me = me;
  facts.candidates = me ? [me] : [];
  if (!me) facts.callerIsAdmin = false;
  return true;
}

/** Narrows `candidates` (and sets `me` when one is left) from the token's other workspaces. */
async function narrowCandidates(client: ApiClient, facts: WorkspaceFacts): Promise<void> {
  if (facts.me || !facts.workspaces) return;
  facts.candidates = await identifyCaller(client, facts.id, facts.members, facts.workspaces);
  if (facts.candidates.length === 1) facts.me = facts.candidates[0];
}

/**
 * Learns what `leaveOrphans` needs about the caller: who they are, from who-am-I (one request);
 * where the service has no such route, whether they are an admin, from the workspace's entry in the
 * workspace list (the deployed one says `is_admin`), else from the invite list (a read only admins
 * may make: 200 means admin, a 403 that names the role means not); failing that, narrows
 * `candidates` (and sets `me` when one is left) from the token's other workspaces.
 */
export async function settleCaller(client: ApiClient, facts: WorkspaceFacts): Promise<void> {
  if (facts.me) return;
  if (await identifyByAccount(client, facts)) return;
  await addWorkspaceEntry(client, facts);
  if (!leaveNeedsCaller(facts)) return;
  try {
    await listInvites(client, facts.id);
    facts.callerIsAdmin = true;
    return;
  } catch (err) {
    const cause = err instanceof ForbiddenError ? forbiddenCause(err.serverMessage) : undefined;
    if (cause === 'admin' || cause === 'readonly') {
      facts.callerIsAdmin = false;
      return;
    }
  }
  await narrowCandidates(client, facts);
}

/** Whether `leaveOrphans` needs to know who the caller is (one admin, and the workspace entry does not say). */
export function leaveNeedsCaller(f: WorkspaceFacts): boolean {
  return (
    !f.unchecked && f.members.length > 1 && f.members.filter(isAdmin).length === 1 && typeof f.entry?.is_admin !== 'boolean' && f.entry?.is_readonly !== true
  );
}

/** Reads the token's workspace list (once): this workspace's name, and its entry (the deployed one says `is_admin` for the caller). */
export async function addWorkspaceEntry(client: ApiClient, facts: WorkspaceFacts): Promise<void> {
  if (facts.listed) return;
  facts.listed = true;
  facts.workspaces = await listWorkspaces(client).catch(() => undefined);
  facts.entry = facts.workspaces?.find((w) => Number(w.id) === facts.id);
  if (typeof facts.entry?.name === 'string') facts.name = facts.entry.name;
}

/** Counts the forms (once) for a message about what a change would orphan. */
export async function addFormCount(client: ApiClient, facts: WorkspaceFacts): Promise<void> {
  if (facts.forms === undefined) facts.forms = await countForms(client, facts.id);
}

/** The number of forms in a workspace from its first page (`meta.total`), or undefined. */
async function countForms(client: ApiClient, workspaceId: number): Promise<number | undefined> {
  try {
    const first = await listWorkspaceForms(client, workspaceId, { all: false, perPage: MAX_PER_PAGE }).next();
    if (first.done) return 0;
    const { items, info, truncated } = first.value;
    return info?.total ?? (truncated ? undefined : items.length);
  } catch {
    return undefined;
  }
}

/**
 * The members who may be the caller, where the service cannot say whose a token is (no who-am-I
 * route: an older or a non-OpnForm server; see identifyByAccount): the caller belongs to every
 * workspace the token lists; intersect member lists until one user is left.
 */
export async function identifyCaller(client: ApiClient, workspaceId: number, members: Member[], workspaces: Workspace[]): Promise<Member[]> {
  let candidates = members;
  let read = 0;
  for (const w of workspaces) {
    if (candidates.length <= 1 || read >= MAX_LISTS_FOR_IDENTITY) break;
    if (Number(w.id) === workspaceId) continue;
    const others = await listMembers(client, Number(w.id)).catch(() => undefined);
    read++;
    if (!others) continue;
    const next = candidates.filter((c) => others.some((m) => sameId(m, c)));
    if (next.length > 0) candidates = next;
  }
  return candidates;
}

/** Why a change would orphan the workspace; undefined when it keeps an admin and a member. */
export type Orphaning = { kind: 'only-member' | 'only-admin' | 'maybe-only-admin'; who: Member };

/** Removing `target`: orphaning when it is the only member or the only admin. */
export function removeOrphans(f: WorkspaceFacts, targetId: number): Orphaning | undefined {
  const target = f.members.find((m) => Number(m.id) === targetId);
  if (!target) return undefined;
  if (f.members.length === 1) return { kind: 'only-member', who: target };
  const admins = f.members.filter(isAdmin);
  if (admins.length === 1 && sameId(admins[0]!, target)) return { kind: 'only-admin', who: target };
  return undefined;
}

/** Giving `target` a role other than admin: orphaning when it is the only admin. */
export function demoteOrphans(f: WorkspaceFacts, targetId: number, role: string): Orphaning | undefined {
  if (role === 'admin') return undefined;
  const admins = f.members.filter(isAdmin);
  if (admins.length === 1 && Number(admins[0]!.id) === targetId) return { kind: 'only-admin', who: admins[0]! };
  return undefined;
}

/** The caller leaving: orphaning when they are the only member or (as far as formctl can tell) the only admin. */
export function leaveOrphans(f: WorkspaceFacts): Orphaning | undefined {
  if (f.unchecked) return undefined;
  if (f.members.length <= 1) return f.members[0] ? { kind: 'only-member', who: f.members[0] } : undefined;
  const admins = f.members.filter(isAdmin);
  if (admins.length !== 1) return undefined;
  const admin = admins[0]!;
  // The deployed workspace entry says whether the caller is an admin there; else what settleCaller learnt.
  const callerIsAdmin = typeof f.entry?.is_admin === 'boolean' ? f.entry.is_admin : f.entry?.is_readonly === true ? false : f.callerIsAdmin;
  if (callerIsAdmin === false) return undefined;
  if (f.me) return sameId(f.me, admin) ? { kind: 'only-admin', who: admin } : undefined;
  if (callerIsAdmin === true) return { kind: 'only-admin', who: admin };
  return f.candidates.some((c) => sameId(c, admin)) ? { kind: 'maybe-only-admin', who: admin } : undefined;
}

/** What the change would orphan, in one sentence: the workspace, by name, and its number of forms. */
export function orphanReason(f: WorkspaceFacts, o: Orphaning): string {
  const ws = workspaceLabel(f);
  const forms = formsPhrase(f.forms);
  switch (o.kind) {
    case 'only-member':
      return `${personLabel(o.who)} is the only member of ${ws}, so ${f.forms === 0 ? ws : `${ws} and ${forms}`} would be left with nobody at all.`;
    case 'only-admin':
      return `${personLabel(o.who)} is the only admin of ${ws}, so nobody could manage its members, settings or deletion, and ${forms === 'no forms' ? 'it' : forms} would have no admin.`;
    case 'maybe-only-admin':
      return `${personLabel(o.who)} is the only admin of ${ws}, and formctl cannot tell whether that is you (this service does not say whose a token is); if it is, nobody could manage ${ws} and ${forms} any more.`;
  }
}

/** The refusal (exit 2) for an orphaning change; `action` completes "Refusing to …". */
export function orphanError(f: WorkspaceFacts, o: Orphaning, action: string): UsageError {
  const firstAdmin = `make another member admin first (\`formctl member set-role <user> admin -w ${f.id}\`)`;
  const hint =
    o.kind === 'only-member'
      ? `Add another admin first (\`formctl member add <email> --role admin -w ${f.id}\`), or delete the workspace (\`formctl workspace delete ${f.id}\`); --force goes ahead anyway.`
      : o.kind === 'only-admin'
        ? `${capitalise(firstAdmin)}; --force goes ahead anyway.`
        : `If you are not ${personLabel(o.who)}, pass --force; otherwise ${firstAdmin}.`;
  return new UsageError(`Refusing to ${action}: ${orphanReason(f, o)}`, hint);
}

/** Whether this member is the caller (for "yourself" in prompts); false when unknown. */
export function isMe(f: WorkspaceFacts, id: number): boolean {
  return f.me !== undefined && Number(f.me.id) === id;
}
