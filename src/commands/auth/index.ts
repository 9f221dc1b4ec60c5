import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl auth` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('auth').description('(not built yet)');
}
