import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { newAuthLoginCommand } from './login.js';
import { newAuthLogoutCommand } from './logout.js';
import { newAuthStatusCommand } from './status.js';
import { newAuthTokenCommand } from './token.js';
import { examples } from '../shared.js';

/** `formctl auth …`. */
export default function newAuthCommand(f: Factory) {
  const cmd = new Command('auth')
    .description('Log in, check and print tokens')
    .addCommand(newAuthLoginCommand(f))
    .addCommand(newAuthStatusCommand(f))
    .addCommand(newAuthLogoutCommand(f))
    .addCommand(newAuthTokenCommand(f));
  return examples(cmd, [
    'formctl auth login',
    'formctl auth login --profile work --base-url https://forms.example.com',
    'formctl auth status',
    'formctl auth token | pbcopy',
  ]);
}
