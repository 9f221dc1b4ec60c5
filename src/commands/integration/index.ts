import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { examples } from '../shared.js';
import { newIntegrationListCommand } from './list.js';

/** `formctl integration …`: integrations of every kind. Changing them is for `webhook` (webhooks only) or the service's web app. */
export default function newIntegrationCommand(f: Factory) {
  const cmd = new Command('integration')
    .description("See a form's integrations of every kind (webhooks, Slack, e-mail, …)")
    .addCommand(newIntegrationListCommand(f));
  return examples(cmd, ['formctl integration list contact', 'formctl integration list 42 --json kind,status,summary']);
}
