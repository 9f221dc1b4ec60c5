import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl sandbox` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('sandbox').description('(not built yet)');
}
