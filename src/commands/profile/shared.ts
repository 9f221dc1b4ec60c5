// What the profile verbs share.
import type { ConfigStore } from '../../config/store.js';
import { UsageError } from '../../errors.js';

/** The usage error for a profile name that is not saved, listing the saved ones. */
export function unknownProfile(name: string, store: ConfigStore): UsageError {
  const names = Object.keys(store.data.profiles);
  return new UsageError(
    `No profile named "${name}".`,
    names.length ? `Saved profiles: ${names.join(', ')}` : 'Create one with `formctl auth login --profile <name>`.',
  );
}
