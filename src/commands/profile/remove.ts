import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { notice, success } from '../../io/output.js';
import { confirmDestructive } from '../../io/prompter.js';
import { addYesOption, examples, type FlagsOf, profileNameArgument } from '../shared.js';
import { unknownProfile } from './shared.js';

/** `formctl profile remove <name>`: the command and its flags, declared once. */
function profileRemoveCommand() {
  const base = new Command('remove').alias('rm').description('Delete a saved profile and its token from this machine').addArgument(profileNameArgument());
  return examples(addYesOption(base), ['formctl profile remove old-laptop', 'formctl profile remove ci --yes']);
}

export type ProfileRemoveOptions = FlagsOf<typeof profileRemoveCommand> &
  Pick<Factory, 'io' | 'config' | 'prompter'> & {
    /** The <name> argument. */
    name: string;
  };

/** `formctl profile remove <name>`. */
export function newProfileRemoveCommand(f: Factory, runF = profileRemoveRun) {
  return profileRemoveCommand().action((name, flags) => runF({ ...flags, io: f.io, config: f.config, prompter: f.prompter, name }));
}

/** Confirms, then removes; if it was current, another saved profile becomes current. */
export async function profileRemoveRun(o: ProfileRemoveOptions): Promise<void> {
  const store = await o.config();
  if (!store.profile(o.name)) throw unknownProfile(o.name, store);
  await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message: `Remove profile ${o.name} and its saved token?` });
  const wasCurrent = store.data.currentProfile === o.name;
  await store.removeProfile(o.name);
  await success(o.io, `Removed profile ${o.name}`);
  const next = store.data.currentProfile;
  if (wasCurrent) await notice(o.io, next ? `Current profile is now ${next}.` : 'No profiles left; run `formctl auth login` to create one.');
}
