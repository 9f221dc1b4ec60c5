import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { examples } from '../shared.js';
import { newWebhookCreateCommand } from './create.js';
import { newWebhookDeleteCommand } from './delete.js';
import { newWebhookEventsCommand } from './events.js';
import { newWebhookGetCommand } from './get.js';
import { newWebhookListCommand } from './list.js';
import { newWebhookListenCommand } from './listen.js';
import { newWebhookRotateSecretCommand } from './rotate-secret.js';
import { newWebhookSendCommand } from './send.js';
import { newWebhookSignCommand } from './sign.js';
import { newWebhookTriggerCommand } from './trigger.js';
import { newWebhookUpdateCommand } from './update.js';
import { newWebhookVerifyCommand } from './verify.js';

/** `formctl webhook …`. */
export default function newWebhookCommand(f: Factory) {
  const cmd = new Command('webhook')
    .description('Manage webhook integrations; sign, verify, listen and send deliveries')
    .addCommand(newWebhookListCommand(f))
    .addCommand(newWebhookGetCommand(f))
    .addCommand(newWebhookCreateCommand(f))
    .addCommand(newWebhookUpdateCommand(f))
    .addCommand(newWebhookRotateSecretCommand(f))
    .addCommand(newWebhookDeleteCommand(f))
    .addCommand(newWebhookEventsCommand(f))
    .addCommand(newWebhookVerifyCommand(f))
    .addCommand(newWebhookSignCommand(f))
    .addCommand(newWebhookListenCommand(f))
    .addCommand(newWebhookSendCommand(f))
    .addCommand(newWebhookTriggerCommand(f));
  return examples(cmd, [
    'formctl webhook create contact --url https://hooks.example.com/formctl --generate-secret > secret.txt',
    'formctl webhook events contact 7 --status failed',
    'formctl webhook listen --port 8787 --secret-file secret.txt',
    'formctl webhook trigger contact --data name=Ada   # a real answer: every active webhook delivers',
  ]);
}
