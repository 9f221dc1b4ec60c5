import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { newProfileListCommand } from './list.js';
import { newProfileRemoveCommand } from './remove.js';
import { newProfileUseCommand } from './use.js';

/** `formctl profile …`. */
export default function newProfileCommand(f: Factory): Command {
  return new Command('profile')
    .description('List, switch and remove saved profiles')
    .addCommand(newProfileListCommand(f))
    .addCommand(newProfileUseCommand(f))
    .addCommand(newProfileRemoveCommand(f));
}
