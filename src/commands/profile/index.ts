import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl profile` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('profile').description('(not built yet)');
}
