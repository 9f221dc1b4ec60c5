import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl config` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('config').description('(not built yet)');
}
