import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl member` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('member').description('(not built yet)');
}
