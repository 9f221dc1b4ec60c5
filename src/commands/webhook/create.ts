import { Command } from '@commander-js/extra-typings';
import { type WebhookIntegrationBody, createWebhook } from '../../api/webhooks.js';
import type { Factory } from '../../factory.js';
import { type IOStreams, readAll, write } from '../../io/iostreams.js';
import { escapeControls, notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { type Prompter, promptsOffHint } from '../../io/prompter.js';
import { type Resolver, checkSecret, checkWebhookUrl, throwIfInvalid, validateWebhookData } from '../../webhooks/rules.js';
import { cleanSecret, generateSecret, maskWebhookUrl } from '../../webhooks/secret.js';
import { UsageError } from '../../errors.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples, fileOption } from '../shared.js';
import { ALLOW_PRIVATE_WARNING, addAllowPrivateOption, addShowSecretOption, unsignedWarning, writeNewSecret } from './shared.js';
import { profileWords } from '../hint-words.js';
import { formIdOf } from './target.js';
import { WEBHOOK_FIELDS, maskedHeadersNote, maskedUrlNote, printsData, webhookView } from './view.js';
import { collectHeader, headerObject } from './headers.js';
import { readLogicFile, readSecretFile } from './files.js';

/** create's JSON adds the one-time `generated_secret`. */
const CREATE_FIELDS = [...WEBHOOK_FIELDS, 'generated_secret'] as const;

/** `formctl webhook create [form]`: the command and its flags, declared once. */
function webhookCreateCommand() {
  const base = new Command('create')
    .description('Send every new submission of a form to an HTTPS endpoint')
    .option('--url <url>', 'Receiver URL: https:// and resolving only to public addresses (prompted on a terminal when omitted)')
    .addOption(fileOption('--secret-file <file>', 'Sign deliveries with the secret in this file (at least 12 characters)'))
    .option('--secret-stdin', 'Read the signing secret from stdin')
    .option('--generate-secret', 'Generate a 32-byte random secret and print it to stdout (piped, the new id goes to stderr)')
    .option('--header <name:value>', 'Custom header sent with each delivery (repeatable, at most 10)', collectHeader)
    .option('--inactive', 'Create it switched off (no deliveries until `webhook update --activate`)')
    .addOption(fileOption('--logic-file <file>', 'JSON condition that limits when the webhook fires'));
  return examples(addOutputOptions(addShowSecretOption(addAllowPrivateOption(addFormArgument(base))), { fields: CREATE_FIELDS }), [
    'formctl webhook create contact --url https://hooks.example.com/formctl --generate-secret > webhook-secret.txt',
    'formctl webhook create 42 --url https://hooks.example.com/in --secret-file ./secret.txt --header "X-Api-Key: abc123"',
    'pass show crm/webhook | formctl webhook create 42 --url https://crm.example.com/hook --secret-stdin --inactive',
    '# local development against `formctl sandbox --allow-private-webhooks`:',
    'formctl webhook create 1 --url http://127.0.0.1:8787/ --generate-secret --allow-private',
    'formctl webhook create   # on a terminal: pick the form, then URL, secret and status',
  ]);
}

/** The parsed flags of `webhook create`. */
type CreateFlags = FlagsOf<typeof webhookCreateCommand>;

export type WebhookCreateOptions = CreateFlags &
  Pick<Factory, 'io' | 'api'> &
  Partial<Pick<Factory, 'context'>> & {
    /** Asks for what `--url` run bare on a terminal leaves open; absent, nothing is asked. */
    prompter?: () => Prompter;
    /** DNS for the public-address check; tests inject one. */
    resolve?: Resolver;
    form: string;
  };

/** `formctl webhook create [form]`. */
export function newWebhookCreateCommand(f: Factory, runF = webhookCreateRun) {
  return webhookCreateCommand().action(async (form, flags) =>
    runF({ ...flags, io: f.io, api: f.api, context: f.context, prompter: f.prompter, form: await resolveFormArg(f, form) }),
  );
}

/** Validates everything locally as the service would, then creates the integration. */
export async function webhookCreateRun(o: WebhookCreateOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  let choices: WalkThrough;
  if (o.url !== undefined) choices = { url: o.url, secretFile: o.secretFile, generateSecret: o.generateSecret, inactive: o.inactive };
  else if (o.io.canPrompt && o.prompter) choices = await walkThrough(o, o.prompter());
  else throw new UsageError('Missing --url.', promptsOffHint('--url https://…'));
  const { url } = choices;
  let secret = await secretFromFlags(o.io, { ...o, ...choices });
  if (choices.generateSecret) secret = generateSecret();
  const headers = headerObject(o.header ?? []);
  const logic = o.logicFile !== undefined ? await readLogicFile(o.logicFile) : undefined;
  if (o.allowPrivate) await notice(o.io, ALLOW_PRIVATE_WARNING, 'warning');
  const warnings: string[] = [];
  throwIfInvalid(
    await validateWebhookData(
      { webhook_url: url, webhook_secret: secret, webhook_headers: headers },
      { allowPrivate: o.allowPrivate, resolve: o.resolve, warnings },
    ),
    { allowPrivate: o.allowPrivate },
  );
  for (const w of warnings) await notice(o.io, w, 'warning');

  const client = await o.api();
  const formId = await formIdOf(client, o.form);
  const body: WebhookIntegrationBody = {
    integration_id: 'webhook',
    status: choices.inactive ? 'inactive' : 'active',
    data: { webhook_url: url, webhook_headers: headers },
  };
  if (secret !== undefined) body.data.webhook_secret = secret;
  if (logic) body.logic = logic;
  const created = await createWebhook(client, formId, body);
  if (secret === undefined) await notice(o.io, unsignedWarning(o.form, created.id, `formctl${await profileWords(o.context)}`), 'warning');

  const view = webhookView(created, o.showSecret);
  if (format.kind === 'json' || format.kind === 'ndjson') {
    // The generated secret is printed beside the (masked) integration; a warning says how to read it
    // again when the chosen fields leave it out.
    if (choices.generateSecret) {
      await writeNewSecret(o.io, format, { ...view, generated_secret: secret }, secret!, { form: o.form, id: created.id, context: o.context });
    } else await writeObject(o.io, format, view, []);
    const masked = printsData(format) ? maskedHeadersNote([created], o.showSecret) : undefined;
    if (masked) await notice(o.io, masked);
    const urls = printsData(format) ? maskedUrlNote([created], o.showSecret) : undefined;
    if (urls) await notice(o.io, urls);
    return;
  }
  if (o.io.stdoutIsTTY) {
    // The id and status come from the service: shown, never obeyed or set on a line of their own.
    const [id, status] = [created.id, created.status ?? body.status].map((v) => escapeControls(String(v), { all: true }));
    await success(o.io, `Created webhook ${id} on form ${o.form} (${status}) → ${o.showSecret ? url : maskWebhookUrl(url)}`);
    const urls = maskedUrlNote([{ ...created, data: { ...created.data, webhook_url: url } }], o.showSecret);
    if (urls) await notice(o.io, urls);
    if (choices.generateSecret) {
      await notice(o.io, 'the signing secret follows. Store it with your receiver (`webhook get --show-secret` prints it again).');
      await write(o.io.stdout, `${secret}\n`);
    }
  } else if (choices.generateSecret) {
    // `> secret.txt` must capture exactly the secret, so the id goes to stderr.
    await notice(o.io, `created webhook ${escapeControls(String(created.id), { all: true })} on form ${o.form}; stdout holds its signing secret.`);
    await write(o.io.stdout, `${secret}\n`);
  } else {
    // README contract: piped, a create prints the new id and nothing else.
    await write(o.io.stdout, `${created.id}\n`);
  }
}

/**
 * Where the signing secret comes from: `--secret-file`, `--secret-stdin` or `--generate-secret` (the
 * caller generates it), at most one of them; undefined when none is given.
 */
async function secretFromFlags(io: IOStreams, f: Pick<CreateFlags, 'secretFile' | 'secretStdin' | 'generateSecret'>): Promise<string | undefined> {
  const sources = [f.secretFile !== undefined, f.secretStdin === true, f.generateSecret === true].filter(Boolean).length;
  if (sources > 1) throw new UsageError('Use only one of --secret-file, --secret-stdin and --generate-secret.');
  if (f.secretFile !== undefined) return readSecretFile(f.secretFile);
  if (f.secretStdin) {
    if (io.stdinIsTTY)
      throw new UsageError('--secret-stdin needs the secret piped in.', 'Example: pass show webhooks/crm | formctl webhook create 42 --url … --secret-stdin');
    const secret = cleanSecret((await readAll(io.stdin)).toString('utf8'));
    if (secret === '') throw new UsageError('--secret-stdin: stdin was empty.');
    return secret;
  }
  return undefined;
}

/**
 * What the walk-through settles: each answer stands for the flag named in its prompt (`inactive`
 * may also be an explicit false, the answer "active").
 */
type WalkThrough = { url: string; inactive?: boolean } & Pick<CreateFlags, 'secretFile' | 'generateSecret'>;

/**
 * Asks for the URL (re-asking until it passes the same local rules as `--url`), then how to sign
 * deliveries and whether to start active, skipping whatever a flag already settled.
 */
async function walkThrough(o: WebhookCreateOptions, p: Prompter): Promise<WalkThrough> {
  const url = await p.input({
    message: o.allowPrivate ? 'Receiver URL (private addresses allowed)' : 'Receiver URL (https://…)',
    flag: '--url',
    validate: async (v) => {
      const problems = await checkWebhookUrl(v.trim(), { allowPrivate: o.allowPrivate, resolve: o.resolve });
      if (problems.length === 0) return true;
      // The prompt cannot turn --allow-private on: the check is deliberate, so say how to ask for it.
      const local = !o.allowPrivate && /HTTPS|public IP/.test(problems.join(' '));
      return local ? `${problems.join(' ')} For a local receiver, run again with --allow-private.` : problems.join(' ');
    },
  });
  const out: WalkThrough = { url: url.trim(), secretFile: o.secretFile, generateSecret: o.generateSecret, inactive: o.inactive };
  if (o.secretFile === undefined && !o.secretStdin && !o.generateSecret) {
    const how = await p.select<'generate' | 'file' | 'none'>({
      message: 'Signing secret',
      flag: '--generate-secret',
      choices: [
        { name: 'Generate one (printed, store it with your receiver)', value: 'generate', description: 'Same as --generate-secret' },
        { name: 'Read it from a file', value: 'file', description: 'Same as --secret-file <file>' },
        { name: 'None (deliveries are not signed)', value: 'none', description: 'Receivers cannot tell deliveries from forgeries' },
      ],
    });
    if (how === 'generate') out.generateSecret = true;
    if (how === 'file') {
      out.secretFile = await p.input({
        message: 'Secret file',
        flag: '--secret-file',
        validate: async (v) => {
          try {
            const problems = checkSecret(await readSecretFile(v.trim()));
            return problems.length === 0 ? true : problems.join(' ');
          } catch (err) {
            return (err as Error).message;
          }
        },
      });
      out.secretFile = out.secretFile.trim();
    }
  }
  if (!o.inactive) out.inactive = !(await p.confirm({ message: 'Deliver new submissions right away (active)?', flag: '--inactive', default: true }));
  return out;
}
