import { Command } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { notice, success } from '../../io/output.js';
import { type FlagsOf, examples } from '../shared.js';

/** `formctl auth logout`: the command and its flags, declared once. */
function authLogoutCommand() {
  const base = new Command('logout')
    .description('Remove the saved token from a profile (its base URL and workspace stay)')
    .addHelpText('after', '\nThe global --profile <name> chooses the profile (default: the current one).');
  return examples(base, ['formctl auth logout', 'formctl auth logout --profile work']);
}

export type AuthLogoutOptions = FlagsOf<typeof authLogoutCommand> & Pick<Factory, 'io' | 'env' | 'config' | 'context'>;

/** `formctl auth logout`. */
export function newAuthLogoutCommand(f: Factory, runF = authLogoutRun) {
  return authLogoutCommand().action((flags) => runF({ ...flags, io: f.io, env: f.env, config: f.config, context: f.context }));
}

/** Forgets the token; the token itself stays valid on the service (revoke it in the dashboard). */
export async function authLogoutRun(o: AuthLogoutOptions): Promise<void> {
  const ctx = await o.context();
  const store = await o.config();
  const profile = store.profile(ctx.profileName);
  if (ctx.missingProfile) throw ctx.missingProfile;
  if (!profile) {
    const names = Object.keys(store.data.profiles);
    throw new UsageError(`No profile named "${ctx.profileName}".`, names.length ? `Saved profiles: ${names.join(', ')}` : 'No profiles are saved.');
  }
  // A token of the wrong type (a hand-edited file) is removed all the same.
  if (!store.holds(ctx.profileName, 'token')) {
    await notice(o.io, `Profile ${ctx.profileName} has no saved token; nothing to do.`);
  } else {
    await store.saveProfile(ctx.profileName, { token: undefined });
    await success(o.io, `Logged out of profile ${ctx.profileName} (the token was removed from ${store.path})`);
  }
  if (o.env.FORMCTL_TOKEN) await notice(o.io, 'FORMCTL_TOKEN is still set in the environment, so commands keep using it.', 'warning');
}
