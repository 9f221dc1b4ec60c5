import { Command } from '@commander-js/extra-typings';
import type { ConfigStore } from '../../config/store.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { success } from '../../io/output.js';
import { examples } from '../shared.js';

export interface ProfileUseOptions {
  io: IOStreams;
  config: () => Promise<ConfigStore>;
  name: string;
}

/** `formctl profile use <name>`. */
export function newProfileUseCommand(f: Factory, runF = profileUseRun) {
  const cmd = new Command('use').description('Make a saved profile the current one').argument('<name>', 'Profile name');
  examples(cmd, ['formctl profile use work', 'formctl --profile personal form list   # one command only']);
  return cmd.action((name: string) => runF({ io: f.io, config: f.config, name }));
}

/** Switches the current profile. */
export async function profileUseRun(o: ProfileUseOptions): Promise<void> {
  const store = await o.config();
  if (!store.profile(o.name)) throw unknownProfile(o.name, store);
  await store.setCurrent(o.name);
  await success(o.io, `Current profile: ${o.name}`);
}

/** The usage error for a profile name that is not saved, listing the saved ones. */
export function unknownProfile(name: string, store: ConfigStore): UsageError {
  const names = Object.keys(store.data.profiles);
  return new UsageError(`No profile named "${name}".`, names.length ? `Saved profiles: ${names.join(', ')}` : 'Create one with `formctl auth login --profile <name>`.');
}
