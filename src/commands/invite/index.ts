import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl invite` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('invite').description('(not built yet)');
}
