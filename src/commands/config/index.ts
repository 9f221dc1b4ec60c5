import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { newConfigGetCommand } from './get.js';
import { newConfigListCommand } from './list.js';
import { newConfigPathCommand } from './path.js';
import { newConfigSetCommand } from './set.js';

/** `formctl config …`. */
export default function newConfigCommand(f: Factory): Command {
  return new Command('config')
    .description('Show where configuration lives and read or change settings')
    .addCommand(newConfigPathCommand(f))
    .addCommand(newConfigListCommand(f))
    .addCommand(newConfigGetCommand(f))
    .addCommand(newConfigSetCommand(f));
}
