// Who may do what on the service (docs/webhooks-and-members.md, docs/service.md): token abilities,
// workspace roles, and the abilities the deployed server checks instead of the spec's. The client
// names them in 403 hints and role choices; the sandbox enforces them.

/** The abilities of the spec's table, in that order. */
export const ABILITIES = [
  'workspaces-read',
  'workspaces-write',
  'workspace-users-read',
  'workspace-users-write',
  'forms-read',
  'forms-write',
  'manage-integrations',
  'submissions-write',
] as const;
export type Ability = (typeof ABILITIES)[number];

/** Role values the service accepts on write (spec, Workspace user). */
export const ROLES = ['admin', 'user', 'readonly'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Abilities the spec names that the deployed OpnForm server does not have, and what it checks
 * instead. A hint names both, so a user of the deployed service is not sent to add an ability that
 * cannot exist there; the sandbox's deployed flavour checks the second.
 */
export const DEPLOYED_ABILITY: Readonly<Partial<Record<Ability, Ability>>> = {
  'workspace-users-read': 'workspaces-read',
  'workspace-users-write': 'workspaces-write',
  'submissions-write': 'forms-write',
};

/** The ability a server of this flavour checks where the spec says `ability`. */
export function checkedAbility(ability: Ability, deployed: boolean): Ability {
  return deployed ? (DEPLOYED_ABILITY[ability] ?? ability) : ability;
}

/** Users a self-hosted Community instance allows in total (spec, Limits); more needs an Enterprise licence. */
export const COMMUNITY_SEATS = 2;

/** Invite statuses (spec, Invite; the deployed server has no `expired` status, only `valid_until`). */
export const INVITE_STATUSES = ['pending', 'accepted'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];
