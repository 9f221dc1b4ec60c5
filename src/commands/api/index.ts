import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl api` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('api').description('(not built yet)');
}
