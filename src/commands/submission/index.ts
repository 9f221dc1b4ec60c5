import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl submission` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('submission').description('(not built yet)');
}
