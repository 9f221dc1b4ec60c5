import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl form` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('form').description('(not built yet)');
}
