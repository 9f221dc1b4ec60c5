import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { HttpError, forbidden } from './errors.js';
import type { Ability, Role, Token, User } from './model.js';
import type { Store } from './store.js';

/** The authenticated caller of an `/open/` request. */
export interface Caller {
  user: User;
  token: Token;
}

/** A new random personal access token string, shaped like a real PAT. */
export function newTokenString(): string {
  return `fsk_${randomBytes(24).toString('base64url')}`;
}

/** Resolves the Bearer token; a missing, malformed or unknown token is 401 (spec, Authentication 2). */
export function authenticate(req: IncomingMessage, store: Store): Caller {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  const token = match ? store.tokens.get(match[1]!) : undefined;
  const user = token ? store.users.get(token.user_id) : undefined;
  if (!token || !user) {
    throw new HttpError(
      401,
      header ? 'Unauthenticated. The access token is invalid or has been revoked.' : 'Unauthenticated. Send an Authorization: Bearer <token> header.',
    );
  }
  return { user, token };
}

/** 403 unless the token carries the ability (spec, Authentication 2–3). */
export function requireAbility(caller: Caller, ability: Ability): void {
  if (!caller.token.abilities.includes(ability)) {
    throw forbidden(`This action requires the ${ability} ability, which this token does not have.`);
  }
}

/** The caller's role in the workspace; 403 when not a member (spec, Authentication 5). */
export function requireMember(store: Store, caller: Caller, workspaceId: number): Role {
  const role = store.roleOf(workspaceId, caller.user.id);
  if (!role) throw forbidden('You are not a member of this workspace.');
  return role;
}

/** 403 unless the caller is an admin of the workspace; `action` completes "Only workspace admins can …". */
export function requireAdmin(store: Store, caller: Caller, workspaceId: number, action: string): void {
  if (requireMember(store, caller, workspaceId) !== 'admin') throw forbidden(`Only workspace admins can ${action}.`);
}

/** 403 unless the caller is a member with write access (`readonly` members cannot write; docs/service-details.md, Authorization order). */
export function requireWriter(store: Store, caller: Caller, workspaceId: number, action: string): void {
  if (requireMember(store, caller, workspaceId) === 'readonly') throw forbidden(`Read-only members cannot ${action}.`);
}
