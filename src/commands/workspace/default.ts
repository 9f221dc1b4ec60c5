import type { Factory } from '../../factory.js';

/**
 * After a workspace is deleted or left: if it was the profile's default, forget it, so later commands
 * ask for a workspace instead of failing with a 404. Returns the profile name when it was the default.
 */
export function forgetDefaultWorkspace(f: Factory): (id: number) => Promise<string | undefined> {
  return async (id) => {
    const ctx = await f.context();
    if (ctx.profile?.workspace !== id) return undefined;
    await (await f.config()).saveProfile(ctx.profileName, { workspace: undefined });
    return ctx.profileName;
  };
}
