// What the workspace verbs share: the fields of a workspace object, and forgetting a default.
import type { Factory } from '../../factory.js';

/** The fields of a workspace object, as `--json` names them. */
export const WORKSPACE_FIELDS = ['id', 'name', 'icon', 'settings', 'max_file_size', 'is_readonly'] as const;

/**
 * After a workspace is deleted or left: if it was the profile's default, forget it, so later commands
 * ask for a workspace instead of failing with a 404. Returns the profile name when it was the default.
 */
export function forgetDefaultWorkspace(f: Factory, o: { ownTokenOnly?: boolean } = {}): (id: number) => Promise<string | undefined> {
  return async (id) => {
    const ctx = await f.context();
    if (ctx.profile?.workspace !== id) return undefined;
    // A leave done with FORMCTL_TOKEN is another account's: the profile's own account is still a member.
    if (o.ownTokenOnly && ctx.tokenSource !== 'profile') return undefined;
    await (await f.config()).saveProfile(ctx.profileName, { workspace: undefined });
    return ctx.profileName;
  };
}
