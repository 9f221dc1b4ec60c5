import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl completion` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('completion').description('(not built yet)');
}
