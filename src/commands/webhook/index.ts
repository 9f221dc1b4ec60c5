import { Command } from 'commander';
import type { Factory } from '../../factory.js';

/** `formctl webhook` (being built). */
export default function newCommand(_f: Factory): Command {
  return new Command('webhook').description('(not built yet)');
}
