// Accounts people can sign in as: the seeded admin and colleague, `--user` accounts, and accounts
// created through the sandbox-only route POST /sandbox/users (docs/service.md, "Team work").
import { newTokenString } from './auth.js';
import { SandboxError } from './errors.js';
import { ABILITIES } from './model.js';
import type { Ability, SeededUser, User } from './model.js';
import type { Store } from './store.js';
import { isEmail } from './validation.js';

/** A user as startSandbox returns it and the command prints it: who, and a token with every ability. */
export interface SandboxUser {
  id: number;
  name: string;
  email: string;
  token: string;
}

const USER_TOKEN_NAME = 'sandbox-user';

/** "ada.lovelace@x" → "Ada Lovelace": a readable default name. */
export function nameFromEmail(email: string): string {
  return email
    .split('@')[0]!
    .split(/[._+-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** Users with a printed token, admin first; data files from before `meta.users` list only the admin. */
export function seededUsers(store: Store): SeededUser[] {
  return store.meta.users ?? [{ user_id: store.meta.adminUserId, token: store.meta.tokens.all }];
}

/** The printed users with their current names and emails. */
export function listUsers(store: Store): SandboxUser[] {
  const out: SandboxUser[] = [];
  for (const s of seededUsers(store)) {
    const user = store.users.get(s.user_id);
    if (user && store.tokens.has(s.token)) out.push({ id: user.id, name: user.name, email: user.email, token: s.token });
  }
  return out;
}

/**
 * Accepts every open invite for the user's address, as registering through an invite link does:
 * the user joins each inviting workspace with the invited role. Returns the workspace ids joined.
 */
export function acceptOpenInvites(store: Store, user: User, now: number): number[] {
  const joined: number[] = [];
  for (const invite of store.invites.values()) {
    if (invite.email.toLowerCase() !== user.email.toLowerCase()) continue;
    if (invite.status !== 'pending' || invite.valid_until <= now) continue;
    if (store.workspaces.has(invite.workspace_id)) {
      store.setMember(invite.workspace_id, user.id, invite.role);
      joined.push(invite.workspace_id);
    }
    invite.status = 'accepted';
    invite.updated_at = now;
  }
  store.changed();
  return joined;
}

/**
 * The account for `email` with its all-abilities token, created when missing (the name defaults to
 * one made from the address). A new account accepts its open invites; it gets no workspace of its
 * own, so the seeded ids stay stable and `member add` finds an existing user. Idempotent: a restart
 * with the same `--user` finds the account and its token again.
 */
export function ensureUser(store: Store, email: string, now: number, name?: string): { user: SandboxUser; created: boolean; joined: number[] } {
  if (!isEmail(email)) throw new SandboxError(`Invalid email address: ${email}`);
  let user = store.userByEmail(email);
  let created = false;
  let joined: number[] = [];
  if (!user) {
    user = store.addUser({ id: store.nextId('user'), name: name?.trim() || nameFromEmail(email), email, created_at: now });
    created = true;
    joined = acceptOpenInvites(store, user, now);
  }
  const users = seededUsers(store);
  let entry = users.find((u) => u.user_id === user.id && store.tokens.has(u.token));
  if (!entry) {
    const token = store.addToken({ token: newTokenString(), user_id: user.id, name: USER_TOKEN_NAME, abilities: [...ABILITIES] as Ability[] });
    entry = { user_id: user.id, token: token.token };
    store.meta.users = [...users, entry];
    store.changed();
  }
  return { user: { id: user.id, name: user.name, email: user.email, token: entry.token }, created, joined };
}
