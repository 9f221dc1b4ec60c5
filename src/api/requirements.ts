// The 403 explanation engine for member and invite endpoints: what each endpoint needs beyond a
// valid token (ability, role, seats), and the hint a refusal gets from the one 403 classifier
// (forbiddenCause in errors.ts). members.ts and invites.ts both build on it.
import { ExitCode } from '../errors.js';
import { type Ability, COMMUNITY_SEATS } from '../service/access.js';
import { capitalise } from '../service/text.js';
import type { ApiClient, ApiResponse, RequestOptions } from './client.js';
import {
  ApiError,
  type ApiErrorInit,
  ForbiddenError,
  NotFoundError,
  abilityPhrase,
  adminOrWriteAbility,
  adminOrWriteAbilityHint,
  forbiddenCause,
} from './errors.js';

/**
 * What an endpoint needs beyond a valid token, so a 403 can be explained in words.
 * `ability` is the spec's; `deployedAbility` is what OpnForm's code really checks,
 * named too so a user of the real service is not sent to add an ability they already have.
 */
export interface Requirement {
  /** Gerund phrase for hints: "adding members". */
  action: string;
  ability: Ability;
  deployedAbility: Ability;
  role: 'admin' | 'member';
  workspaceId: number;
  /** Subject to the Community instance's user limit (COMMUNITY_SEATS). */
  seats?: boolean;
}

/** The hint for a 403 on a member or invite endpoint: the likely cause, in words, and what to do. */
export function forbiddenHintFor(serverMessage: string | undefined, need: Requirement): string {
  const ws = need.workspaceId;
  const ability = abilityPhrase(need.ability, need.deployedAbility);
  const roleNeed = need.role === 'admin' ? `the admin role in workspace ${ws}` : `membership of workspace ${ws}`;
  switch (forbiddenCause(serverMessage)) {
    case 'seats':
      return (
        `This self-hosted Community instance allows ${COMMUNITY_SEATS} users in total, and that limit is reached; ` +
        'adding or inviting a new person needs an Enterprise licence. People who already have an account here do not use another seat, ' +
        'and cancelling an unused invite (`formctl invite list`, `formctl invite cancel`) may free one.'
      );
    case 'plan':
    case 'last-workspace':
      return `The service's plan for workspace ${ws} does not include this; an owner must upgrade it.`;
    case 'ability':
      return `Your token lacks ${ability}, which ${need.action} needs. Create a token with it and run \`formctl auth login\`.`;
    case 'membership':
      return `You are not a member of workspace ${ws}. Check the id with \`formctl workspace list\`.`;
    case 'admin':
      if (need.deployedAbility === 'workspaces-write' && adminOrWriteAbility(serverMessage)) {
        return `${capitalise(need.action)} needs ${roleNeed} and a token with ${ability}. ${adminOrWriteAbilityHint(ws)}`;
      }
      return `${capitalise(need.action)} needs ${roleNeed}, and your role there is not admin. Ask an admin to do it, or to make you one with \`formctl member set-role\`.`;
    case 'readonly':
      return `${capitalise(need.action)} needs ${roleNeed}, and your role there is not admin. Ask an admin to do it, or to make you one with \`formctl member set-role\`.`;
    case 'unknown':
      return (
        `${capitalise(need.action)} needs a token with ${ability} and ${roleNeed}` +
        (need.seats ? `; on a self-hosted Community instance it is also refused once ${COMMUNITY_SEATS} users exist` : '') +
        `. Check your role with \`formctl member list -w ${ws}\`.`
      );
  }
}

/** The fields of an API error, to build another one from (same status, method, path and messages). */
export function errorInit(err: ApiError): ApiErrorInit {
  return { status: err.status, method: err.method, path: err.path, serverMessage: err.serverMessage, errors: err.errors, ability: err.ability };
}

/** Sends a request, turning a 403 into a ForbiddenError whose hint names this endpoint's requirements. */
export async function requestWithNeeds<T = unknown>(c: ApiClient, o: RequestOptions, need: Requirement): Promise<ApiResponse<T>> {
  try {
    return await c.request<T>({ ...o, ability: need.ability });
  } catch (err) {
    if (err instanceof ForbiddenError) throw new ForbiddenError(errorInit(err), forbiddenHintFor(err.serverMessage, need));
    throw err;
  }
}

/** Rewraps a 404 with a hint naming what to check (the generic one talks about slugs). */
export function notFoundWithHint(err: unknown, hint: string): unknown {
  if (err instanceof NotFoundError) return new ApiError(errorInit(err), ExitCode.notFound, hint);
  return err;
}

/** A Requirement, positionally. */
export const need = (
  action: string,
  ability: Ability,
  deployedAbility: Ability,
  role: 'admin' | 'member',
  workspaceId: number,
  seats?: boolean,
): Requirement => ({
  action,
  ability,
  deployedAbility,
  role,
  workspaceId,
  seats,
});
