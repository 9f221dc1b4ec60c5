import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { newConfigGetCommand } from './get.js';
import { newConfigListCommand } from './list.js';
import { newConfigPathCommand } from './path.js';
import { newConfigSetCommand } from './set.js';
import { examples } from '../shared.js';

/** `formctl config …`. */
export default function newConfigCommand(f: Factory) {
  const cmd = new Command('config')
    .description('Show where configuration lives and read or change settings')
    .addCommand(newConfigPathCommand(f))
    .addCommand(newConfigListCommand(f))
    .addCommand(newConfigGetCommand(f))
    .addCommand(newConfigSetCommand(f));
  return examples(cmd, ['formctl config path', 'formctl config list', 'formctl config get base_url', 'formctl config set workspace 12']);
}
