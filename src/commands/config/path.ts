import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { type FlagsOf, examples } from '../shared.js';

/** `formctl config path`: the command and its flags, declared once. */
function configPathCommand() {
  const base = new Command('path').description('Print the path of the config file (set FORMCTL_CONFIG_DIR to move it)');
  return examples(base, ['formctl config path', 'ls -l "$(formctl config path)"']);
}

export type ConfigPathOptions = FlagsOf<typeof configPathCommand> & Pick<Factory, 'io' | 'config'>;

/** `formctl config path`. */
export function newConfigPathCommand(f: Factory, runF = configPathRun) {
  return configPathCommand().action((flags) => runF({ ...flags, io: f.io, config: f.config }));
}

/** Prints the config file path. */
export async function configPathRun(o: ConfigPathOptions): Promise<void> {
  await write(o.io.stdout, `${(await o.config()).path}\n`);
}
