import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** Hidden `formctl __complete` (being built). */
export default function newCompleteCommand(_f: Factory): Command {
  return new Command('__complete').description('Dynamic completion values').allowUnknownOption().allowExcessArguments();
}
