import { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { type WebhookIntegrationBody, createWebhook } from '../../api/webhooks.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { write } from '../../io/iostreams.js';
import { type OutputFlags, notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { type Resolver, throwIfInvalid, validateWebhookData } from '../../webhooks/rules.js';
import { generateSecret } from '../../webhooks/secret.js';
import { UsageError } from '../../errors.js';
import { addOutputOptions, examples } from '../shared.js';
import {
  ALLOW_PRIVATE_WARNING,
  WEBHOOK_FIELDS,
  addAllowPrivateOption,
  addShowSecretOption,
  collectHeader,
  formIdOf,
  headerObject,
  readLogicFile,
  secretFromFlags,
  webhookView,
} from './common.js';

/** create's JSON adds the one-time `generated_secret`. */
const CREATE_FIELDS = [...WEBHOOK_FIELDS, 'generated_secret'] as const;

export interface WebhookCreateOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  /** DNS for the public-address check; tests inject one. */
  resolve?: Resolver;
  form: string;
  url?: string;
  secretFile?: string;
  secretStdin?: boolean;
  generateSecret?: boolean;
  headers: Array<[string, string]>;
  inactive?: boolean;
  logicFile?: string;
  allowPrivate?: boolean;
  showSecret?: boolean;
  output: OutputFlags;
}

interface CreateFlags extends OutputFlags {
  url?: string;
  secretFile?: string;
  secretStdin?: boolean;
  generateSecret?: boolean;
  header?: Array<[string, string]>;
  inactive?: boolean;
  logicFile?: string;
  allowPrivate?: boolean;
  showSecret?: boolean;
}

/** `formctl webhook create <form> --url URL`. */
export function newWebhookCreateCommand(f: Factory, runF = webhookCreateRun): Command {
  const cmd = new Command('create')
    .description('Send every new submission of a form to an HTTPS endpoint')
    .argument('<form>', 'Form id or slug')
    .option('--url <url>', 'Receiver URL: https:// and resolving only to public addresses')
    .option('--secret-file <file>', 'Sign deliveries with the secret in this file (at least 12 characters)')
    .option('--secret-stdin', 'Read the signing secret from stdin')
    .option('--generate-secret', 'Generate a 32-byte random secret and print it once to stdout')
    .option('--header <name:value>', 'Custom header sent with each delivery (repeatable, at most 10)', collectHeader)
    .option('--inactive', 'Create it switched off (no deliveries until `webhook update --activate`)')
    .option('--logic-file <file>', 'JSON condition that limits when the webhook fires');
  addAllowPrivateOption(cmd);
  addShowSecretOption(cmd);
  addOutputOptions(cmd, { fields: CREATE_FIELDS });
  examples(cmd, [
    'formctl webhook create contact --url https://hooks.example.com/formctl --generate-secret > webhook-secret.txt',
    'formctl webhook create 42 --url https://hooks.example.com/in --secret-file ./secret.txt --header "X-Api-Key: abc123"',
    'pass show crm/webhook | formctl webhook create 42 --url https://crm.example.com/hook --secret-stdin --inactive',
    '# local development against `formctl sandbox --allow-private-webhooks`:',
    'formctl webhook create 1 --url http://127.0.0.1:8787/ --generate-secret --allow-private',
  ]);
  return cmd.action((form: string, flags: CreateFlags) =>
    runF({
      io: f.io,
      api: f.api,
      form,
      url: flags.url,
      secretFile: flags.secretFile,
      secretStdin: flags.secretStdin,
      generateSecret: flags.generateSecret,
      headers: flags.header ?? [],
      inactive: flags.inactive,
      logicFile: flags.logicFile,
      allowPrivate: flags.allowPrivate,
      showSecret: flags.showSecret,
      output: flags,
    }),
  );
}

/** Validates everything locally as the service would, then creates the integration. */
export async function webhookCreateRun(o: WebhookCreateOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output, CREATE_FIELDS);
  if (o.url === undefined) throw new UsageError('Missing --url.', 'Pass --url https://… (the endpoint that receives deliveries).');
  let secret = await secretFromFlags(o.io, o);
  if (o.generateSecret) secret = generateSecret();
  const headers = headerObject(o.headers);
  const logic = o.logicFile !== undefined ? await readLogicFile(o.logicFile) : undefined;
  if (o.allowPrivate) await notice(o.io, ALLOW_PRIVATE_WARNING, 'warning');
  throwIfInvalid(
    await validateWebhookData({ webhook_url: o.url, webhook_secret: secret, webhook_headers: headers }, { allowPrivate: o.allowPrivate, resolve: o.resolve }),
    { allowPrivate: o.allowPrivate },
  );

  const client = await o.api();
  const formId = await formIdOf(client, o.form);
  const body: WebhookIntegrationBody = {
    integration_id: 'webhook',
    status: o.inactive ? 'inactive' : 'active',
    data: { webhook_url: o.url, webhook_headers: headers },
  };
  if (secret !== undefined) body.data.webhook_secret = secret;
  if (logic) body.logic = logic;
  const created = await createWebhook(client, formId, body);

  const view = webhookView(created, o.showSecret);
  if (format.kind === 'json' || format.kind === 'ndjson') {
    // The generated secret is shown this once, beside the (masked) integration.
    await writeObject(o.io, format, o.generateSecret ? { ...view, generated_secret: secret } : view, []);
    return;
  }
  await success(o.io, `Created webhook ${created.id} on form ${o.form} (${created.status ?? body.status}) → ${o.url}`);
  if (o.generateSecret) {
    if (o.io.stdoutIsTTY) await notice(o.io, 'the signing secret follows; it is shown only now. Store it with your receiver.');
    await write(o.io.stdout, `${secret}\n`);
  }
}
