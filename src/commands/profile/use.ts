import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { notice, success } from '../../io/output.js';
import { examples, type FlagsOf, profileNameArgument, profileOverride } from '../shared.js';
import { unknownProfile } from './shared.js';

/** `formctl profile use <name>`: the command and its flags, declared once. */
function profileUseCommand() {
  const base = new Command('use').description('Make a saved profile the current one').addArgument(profileNameArgument());
  return examples(base, ['formctl profile use work', 'formctl --profile personal form list   # one command only']);
}

export type ProfileUseOptions = FlagsOf<typeof profileUseCommand> &
  Pick<Factory, 'io' | 'config' | 'env'> & {
    /** The <name> argument. */
    name: string;
  };

/** `formctl profile use <name>`. */
export function newProfileUseCommand(f: Factory, runF = profileUseRun) {
  return profileUseCommand().action((name, flags) => runF({ ...flags, io: f.io, config: f.config, env: f.env, name }));
}

/** Switches the current profile. */
export async function profileUseRun(o: ProfileUseOptions): Promise<void> {
  const store = await o.config();
  if (!store.profile(o.name)) throw unknownProfile(o.name, store);
  await store.setCurrent(o.name);
  await success(o.io, `Current profile: ${o.name}`);
  const override = profileOverride(o.env, o.name);
  if (override) await notice(o.io, `${override}: commands use the profile it names until it is unset.`);
}
