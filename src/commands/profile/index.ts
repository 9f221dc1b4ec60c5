import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { newProfileListCommand } from './list.js';
import { newProfileRemoveCommand } from './remove.js';
import { newProfileUseCommand } from './use.js';
import { examples } from '../shared.js';

/** `formctl profile …`. */
export default function newProfileCommand(f: Factory) {
  const cmd = new Command('profile')
    .description('List, switch and remove saved profiles')
    .addCommand(newProfileListCommand(f))
    .addCommand(newProfileUseCommand(f))
    .addCommand(newProfileRemoveCommand(f));
  return examples(cmd, ['formctl profile list', 'formctl profile use work', 'formctl profile remove old --yes']);
}
