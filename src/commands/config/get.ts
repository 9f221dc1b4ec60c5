import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { type FlagsOf, examples } from '../shared.js';
import { configKey, configKeyArgument } from './shared.js';

/** `formctl config get <key>`: the command and its flags, declared once. */
function configGetCommand() {
  const base = new Command('get').description('Print one saved setting of the current profile').addArgument(configKeyArgument());
  return examples(base, ['formctl config get base_url', 'WS=$(formctl config get workspace)']);
}

export type ConfigGetOptions = FlagsOf<typeof configGetCommand> &
  Pick<Factory, 'io' | 'context'> & {
    /** The <key> argument. */
    key: string;
  };

/** `formctl config get <key>`. */
export function newConfigGetCommand(f: Factory, runF = configGetRun) {
  return configGetCommand().action((key, flags) => runF({ ...flags, io: f.io, context: f.context, key }));
}

/** Prints the value, or an empty line when it is not set (exit 0, like `git config` scripts expect to test with -n). */
export async function configGetRun(o: ConfigGetOptions): Promise<void> {
  const k = configKey(o.key);
  const ctx = await o.context();
  if (ctx.profileProblem) throw ctx.profileProblem;
  if (ctx.missingProfile) throw ctx.missingProfile;
  const v = k.read(ctx.profile);
  await write(o.io.stdout, `${v ?? ''}\n`);
}
