// Flags, arguments and wording shared by the webhook verbs.
import { Argument, type Command, type OptionValues } from '@commander-js/extra-typings';
import { completes } from '../../completion/kinds.js';
import type { Factory } from '../../factory.js';
import { parseIdText } from '../../io/ids.js';
import { shellWord } from '../../io/shell-word.js';
import type { ResolvedContext } from '../../config/resolve.js';
import { profileWords } from '../hint-words.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type JsonFormat, escapeControls, notice, pickFields, writeJq, writeObject } from '../../io/output.js';
import { resolveFormArg, resolveIntegrationArg } from '../pickers.js';

/** Parser for a `<id>` argument of an integration. */
export function parseWebhookId(v: string): number {
  return parseIdText('webhook id', v, 'See the ids with `formctl webhook list <form>`.');
}

/** Adds the optional integration `[id]` argument, picked on a terminal when omitted (`resolveIntegrationArg`). */
export function addWebhookIdArgument<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd.addArgument(completes(new Argument('[id]', 'Webhook integration id (prompted on a terminal when omitted)').argParser(parseWebhookId), 'webhook'));
}

/** The `[form] [id]` arguments of a webhook verb, each picked on a terminal when omitted (form first). */
export async function resolveWebhookArgs(f: Factory, formArg: string | undefined, idArg: number | undefined): Promise<{ form: string; id: number }> {
  const form = await resolveFormArg(f, formArg);
  return { form, id: await resolveIntegrationArg(f, form, idArg) };
}

/** Adds `--show-secret` to a command that prints integrations. */
export function addShowSecretOption<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd.option(
    '--show-secret',
    "Print the signing secret, the custom header values and the URL in full (masked by default: ••••1234, ••••, and the URL's tokens, password or secret path)",
  );
}

/** Adds `--allow-private`. */
export function addAllowPrivateOption<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd.option('--allow-private', 'Skip only the HTTPS and public-address checks (a local receiver and a sandbox run with --allow-private-webhooks)');
}

export const ALLOW_PRIVATE_WARNING =
  '--allow-private: not checking HTTPS or public addresses; only a service that allows private webhook URLs (e.g. `formctl sandbox --allow-private-webhooks`) will accept this URL.';

/** Said whenever a webhook is left without a secret: nothing then proves a delivery came from the service. */
export function unsignedWarning(form: string, webhookId: unknown, formctl = 'formctl'): string {
  const id = escapeControls(String(webhookId), { all: true });
  const f = escapeControls(shellWord(form), { all: true });
  return `deliveries of webhook ${id} are not signed: receivers cannot tell them from forgeries. Sign them with \`${formctl} webhook rotate-secret ${f} ${id}\` (or \`${formctl} webhook update ${f} ${id} --secret-file <file>\`).`;
}

/** A message that follows a colon mid-sentence: its first letter lower-cased, unless it opens an acronym (TLS, HTTP). */
export function afterColon(text: string): string {
  return /^[A-Z](?![A-Z])/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/**
 * Writes the JSON answer of a command that has just made a signing secret (`rotate-secret`, `create
 * --generate-secret`). When what was printed does not hold the secret (a `--json` field list or a
 * `--jq` that leaves it out), a warning on stderr says so and names the command that prints it:
 * the service keeps the secret and `webhook get --show-secret` reads it back.
 */
export async function writeNewSecret(
  io: IOStreams,
  format: JsonFormat,
  obj: object,
  secret: string,
  webhook: { form: string; id: number; context?: () => Promise<ResolvedContext> },
): Promise<void> {
  let printed = '';
  try {
    if (format.jq !== undefined) {
      await writeJq(io, format.jq, pickFields(obj, format.fields), (text) => {
        printed += text;
        return text;
      });
    } else {
      await writeObject(io, format, obj, []);
      printed = JSON.stringify(pickFields(obj, format.fields));
    }
  } finally {
    if (!printed.includes(secret)) {
      const by = format.jq !== undefined ? '--jq' : `--json ${format.fields?.join(',')}`;
      const getCommand = `formctl${await profileWords(webhook.context)} webhook get ${shellWord(webhook.form)} ${shellWord(String(webhook.id))} --show-secret`;
      await notice(io, `the new signing secret is not in the output (${by} leaves it out); print it with: ${getCommand}`, 'warning');
    }
  }
}
