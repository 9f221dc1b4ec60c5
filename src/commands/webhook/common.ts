import { readFile } from 'node:fs/promises';
import { Argument, type Command } from '@commander-js/extra-typings';
import { completes } from '../../completion/kinds.js';
import type { ApiClient } from '../../api/client.js';
import { getForm, resolveForm } from '../../api/forms.js';
import { type FormNamer, type WebhookIntegration, type WebhookIntegrationBody, getWebhook } from '../../api/webhooks.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { looksNumeric, parseFormRef, parseIdText } from '../../io/ids.js';
import { fsReason } from '../../io/files.js';
import { type IOStreams, readAll } from '../../io/iostreams.js';
import type { Column } from '../../io/output.js';
import { resolveFormArg, resolveIntegrationArg } from '../pickers.js';
import { cleanSecret, maskSecret } from '../../webhooks/secret.js';

/** Top-level JSON fields of a webhook integration (a contract with scripts). */
export const WEBHOOK_FIELDS = ['id', 'form_id', 'integration_id', 'status', 'data', 'logic', 'created_at', 'updated_at'] as const;

/** The numeric form id for a `<form>` argument: digits are used as-is (no request), a slug is looked up. */
export async function formIdOf(client: ApiClient, ref: string): Promise<number> {
  const t = parseFormRef(ref);
  if (looksNumeric(t)) return Number(t);
  return (await resolveForm(client, t)).id;
}

/** Names a form in messages as `form "Contact" (id 42)`; one GET, made only where a message needs it. */
export function formNamer(client: ApiClient): FormNamer {
  return async (formId) => {
    const form = await getForm(client, formId);
    return typeof form.title === 'string' && form.title !== '' ? `form ${JSON.stringify(form.title)} (id ${formId})` : `form ${formId}`;
  };
}

/**
 * The form id and the webhook integration an id names, checked to be a webhook of that form before
 * any write, delete or events read (src/api/webhooks.ts `getWebhook`).
 */
export async function webhookTarget(client: ApiClient, ref: string, id: number): Promise<{ formId: number; webhook: WebhookIntegration; nameForm: FormNamer }> {
  const formId = await formIdOf(client, ref);
  const nameForm = formNamer(client);
  return { formId, webhook: await getWebhook(client, formId, id, nameForm), nameForm };
}

/** A message that follows a colon mid-sentence: its first letter lower-cased, unless it opens an acronym (TLS, HTTP). */
export function afterColon(text: string): string {
  return /^[A-Z](?![A-Z])/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** Parser for a `<id>` argument of an integration. */
export function parseWebhookId(v: string): number {
  return parseIdText('webhook id', v, 'See the ids with `formctl webhook list <form>`.');
}

/** Adds the optional integration `[id]` argument, picked on a terminal when omitted (`resolveIntegrationArg`). */
export function addWebhookIdArgument(cmd: Command) {
  return cmd.addArgument(completes(new Argument('[id]', 'Webhook integration id (prompted on a terminal when omitted)').argParser(parseWebhookId), 'webhook'));
}

/** The `[form] [id]` arguments of a webhook verb, each picked on a terminal when omitted (form first). */
export async function resolveWebhookArgs(f: Factory, formArg: string | undefined, idArg: number | undefined): Promise<{ form: string; id: number }> {
  const form = await resolveFormArg(f, formArg);
  return { form, id: await resolveIntegrationArg(f, form, idArg) };
}

/** Headers as sent: the service may answer `[]` for an empty PHP array. */
export function headersOf(i: WebhookIntegration): Record<string, string> {
  const h = i.data?.webhook_headers;
  return h && typeof h === 'object' && !Array.isArray(h) ? { ...h } : {};
}

/** A copy safe to print: the secret masked (`••••` + last 4) unless the user asked to see it. */
export function webhookView(i: WebhookIntegration, showSecret = false): WebhookIntegration {
  const data = { ...(i.data ?? {}) };
  if ('webhook_secret' in data && !showSecret) data.webhook_secret = maskSecret(data.webhook_secret);
  if (Array.isArray(data.webhook_headers)) data.webhook_headers = {};
  return { ...i, data };
}

/** Table/TSV columns of the webhook list (applied to a masked view). */
export const LIST_COLUMNS: Column<WebhookIntegration>[] = [
  { header: 'ID', value: (i) => i.id, style: 'cyan' },
  { header: 'Status', value: (i) => i.status },
  { header: 'URL', value: (i) => i.data?.webhook_url, keep: true },
  { header: 'Secret', value: (i) => i.data?.webhook_secret ?? '' },
  { header: 'Headers', value: (i) => Object.keys(headersOf(i)).join(', ') },
  { header: 'Updated', value: (i) => i.updated_at, time: true },
];

/** Key/value rows of `webhook get` (applied to a masked view). */
export const DETAIL_COLUMNS: Column<WebhookIntegration>[] = [
  { header: 'ID', value: (i) => i.id, style: 'cyan' },
  { header: 'Form', value: (i) => i.form_id },
  { header: 'Status', value: (i) => i.status },
  { header: 'URL', value: (i) => i.data?.webhook_url, keep: true },
  { header: 'Secret', value: (i) => i.data?.webhook_secret ?? '(none: deliveries are not signed)' },
  { header: 'Headers', value: (i) => Object.entries(headersOf(i)).map(([k, v]) => `${k}: ${v}`).join(', ') },
  { header: 'Logic', value: (i) => (isEmptyLogic(i.logic) ? '(always)' : i.logic) },
  { header: 'Created', value: (i) => i.created_at, time: true },
  { header: 'Updated', value: (i) => i.updated_at, time: true },
];

function isEmptyLogic(logic: unknown): boolean {
  return logic === null || logic === undefined || (typeof logic === 'object' && Object.keys(logic as object).length === 0);
}

/**
 * The full body for an update, built from the current integration (FIDELITY "integration update"):
 * the deployed server rebuilds `data` on every write and erases what is left out, the spec's keeps
 * it, so sending everything behaves the same on both.
 */
export function fullBody(current: WebhookIntegration, change: {
  url?: string;
  /** A new secret; null turns signing off (sent as an explicit null, which both services read as "none"). */
  secret?: string | null;
  headers?: Record<string, string>;
  status?: 'active' | 'inactive';
  logic?: unknown;
}): WebhookIntegrationBody {
  const data: WebhookIntegrationBody['data'] = { webhook_url: change.url ?? String(current.data?.webhook_url ?? '') };
  const secret = change.secret === undefined ? current.data?.webhook_secret : change.secret;
  if (typeof secret === 'string' && secret !== '') data.webhook_secret = secret;
  else if (change.secret === null) data.webhook_secret = null;
  data.webhook_headers = change.headers ?? headersOf(current);
  const status = change.status ?? (String(current.status).toLowerCase() === 'inactive' ? 'inactive' : 'active');
  const body: WebhookIntegrationBody = { integration_id: 'webhook', status, data };
  if (change.logic !== undefined) body.logic = change.logic;
  else if (!isEmptyLogic(current.logic)) body.logic = current.logic;
  return body;
}

/** Collects repeated `--header Name:Value` flags. */
export function collectHeader(value: string, previous: Array<[string, string]> = []): Array<[string, string]> {
  const i = value.indexOf(':');
  if (i <= 0) throw new UsageError(`--header must be Name:Value, got "${value}".`, 'Example: --header "X-Api-Key: abc123"');
  return [...previous, [value.slice(0, i).trim(), value.slice(i + 1).trim()]];
}

/** Header pairs as an object; the same name twice (in any case) is a mistake, not an override. */
export function headerObject(pairs: Array<[string, string]>, base: Record<string, string> = {}): Record<string, string> {
  const out = { ...base };
  const seen = new Set<string>();
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    if (seen.has(lower)) throw new UsageError(`Header "${name}" is given twice.`, 'Pass each --header name once.');
    seen.add(lower);
    for (const k of Object.keys(out)) if (k.toLowerCase() === lower) delete out[k];
    out[name] = value;
  }
  return out;
}

/** Reads a local file for a flag; a missing or unreadable file is a usage error naming the flag. */
export async function readLocalFile(path: string, flag: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new UsageError(`Cannot read ${flag} ${path}: ${fsReason(err)}.`);
  }
}

/** A secret from `--secret-file` (trailing line breaks dropped); never echoed in errors. */
export async function readSecretFile(path: string): Promise<string> {
  const secret = cleanSecret((await readLocalFile(path, '--secret-file')).toString('utf8'));
  if (secret === '') throw new UsageError(`--secret-file ${path} is empty.`);
  return secret;
}

/** The secret for create: from a file, stdin, or freshly generated; at most one source. */
export async function secretFromFlags(io: IOStreams, f: { secretFile?: string; secretStdin?: boolean; generateSecret?: boolean }): Promise<string | undefined> {
  const sources = [f.secretFile !== undefined, f.secretStdin === true, f.generateSecret === true].filter(Boolean).length;
  if (sources > 1) throw new UsageError('Use only one of --secret-file, --secret-stdin and --generate-secret.');
  if (f.secretFile !== undefined) return readSecretFile(f.secretFile);
  if (f.secretStdin) {
    if (io.stdinIsTTY) throw new UsageError('--secret-stdin needs the secret piped in.', 'Example: pass show webhooks/crm | formctl webhook create 42 --url … --secret-stdin');
    const secret = cleanSecret((await readAll(io.stdin)).toString('utf8'));
    if (secret === '') throw new UsageError('--secret-stdin: stdin was empty.');
    return secret;
  }
  return undefined;
}

/** `--logic-file`: a JSON object (or null/{} to remove the condition). */
export async function readLogicFile(path: string): Promise<unknown> {
  const text = (await readLocalFile(path, '--logic-file')).toString('utf8');
  let logic: unknown;
  try {
    logic = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--logic-file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (logic !== null && (typeof logic !== 'object' || Array.isArray(logic))) throw new UsageError(`--logic-file ${path} must hold a JSON object (or null to always deliver).`);
  return logic === null || Object.keys(logic as object).length === 0 ? null : logic;
}

/** Adds `--show-secret` to a command that prints integrations. */
export function addShowSecretOption(cmd: Command) {
  return cmd.option('--show-secret', 'Print the signing secret in full (masked as ••••1234 by default)');
}

/** Adds `--allow-private`. */
export function addAllowPrivateOption(cmd: Command) {
  return cmd.option('--allow-private', 'Skip only the HTTPS and public-address checks (a local receiver and a sandbox run with --allow-private-webhooks)');
}

export const ALLOW_PRIVATE_WARNING =
  '--allow-private: not checking HTTPS or public addresses; only a service that allows private webhook URLs (e.g. `formctl sandbox --allow-private-webhooks`) will accept this URL.';

/** Said whenever a webhook is left without a secret: nothing then proves a delivery came from the service. */
export function unsignedWarning(form: string, id: unknown): string {
  return `deliveries of webhook ${id} are not signed: receivers cannot tell them from forgeries. Sign them with \`formctl webhook rotate-secret ${form} ${id}\` (or \`formctl webhook update ${form} ${id} --secret-file <file>\`).`;
}
