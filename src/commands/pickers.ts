// Searchable pickers for a missing workspace, form or integration id. They run only where a person
// can answer (TTY, no --no-input, no CI); everywhere else they fail at once, before any request,
// with the flag or argument to pass instead.
import { ForbiddenError } from '../api/errors.js';
import { UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import { looksNumeric, parseFormRef, parseIdText } from '../io/ids.js';
import { type Choice, promptsOffHint } from '../io/prompter.js';
import { setWorkspaceHint } from '../io/shell-word.js';

/** Largest list offered in a picker: beyond this a person should type the id. */
const PICK_LIMIT = 500;

/** True where a person can answer a prompt: a TTY, no --no-input, no CI. */
export function canAsk(f: Factory): boolean {
  return f.io.canPrompt && !f.globals.noInput;
}

/** The usage error for an omitted positional argument such as `<form>`. */
function missingArg(arg: string, hint: string): UsageError {
  return new UsageError(`Missing ${arg} argument.`, hint);
}

async function pick<T>(f: Factory, o: { message: string; flag: string; choices: Choice<T>[]; empty: string; emptyHint: string }): Promise<T> {
  if (o.choices.length === 0) throw new UsageError(o.empty, o.emptyHint);
  return f.prompter().search({ message: o.message, flag: o.flag, choices: o.choices });
}

/** Picks one of the user's workspaces on a TTY; otherwise throws a usage error naming `flag`. */
export async function pickWorkspace(f: Factory, flag = '--workspace'): Promise<number> {
  if (!canAsk(f)) {
    throw new UsageError(`Missing ${flag}.`, promptsOffHint(`${flag} <id>`, setWorkspaceHint(await f.context().catch(() => undefined))));
  }
  const { listWorkspaces } = await import('../api/workspaces.js');
  let list: Awaited<ReturnType<typeof listWorkspaces>>;
  try {
    list = await listWorkspaces(await f.api());
  } catch (err) {
    // A token scoped to one workspace's members or forms often lacks workspaces-read; the server's
    // text names the ability, but what the person needs is a way round the picker.
    if (err instanceof ForbiddenError) {
      throw new ForbiddenError(
        { status: err.status, method: err.method, path: err.path, serverMessage: err.serverMessage, errors: err.errors, ability: err.ability },
        `This token cannot list workspaces to pick from (that needs \`workspaces-read\`). Pass ${flag} <id>, or set FORMCTL_WORKSPACE=<id>; \`formctl workspace use\` needs the same ability.`,
      );
    }
    throw err;
  }
  return pick(f, {
    message: 'Workspace (type to search)',
    flag,
    choices: list.map((w) => ({ name: `${w.icon ? `${w.icon} ` : ''}${w.name}`, value: w.id, description: `id ${w.id}` })),
    empty: 'You have no workspaces yet.',
    emptyHint: 'Create one: formctl workspace create --name <name>',
  });
}

/** Picks a form of a workspace on a TTY (returns its numeric id); otherwise throws a usage error naming `arg`. */
export async function pickForm(f: Factory, workspaceId: number, arg = '<form>'): Promise<number> {
  if (!canAsk(f)) throw missingArg(arg, promptsOffHint(`the form id or slug as ${arg}`, `See \`formctl form list -w ${workspaceId}\`.`));
  const { listWorkspaceForms } = await import('../api/forms.js');
  const { items } = await import('../api/paginate.js');
  const choices: Choice<number>[] = [];
  for await (const form of items(listWorkspaceForms(await f.api(), workspaceId, { limit: PICK_LIMIT }))) {
    choices.push({ name: form.title, value: form.id, description: `id ${form.id} · ${form.slug} · ${form.visibility}` });
  }
  return pick(f, {
    message: 'Form (type to search)',
    flag: arg,
    choices,
    empty: `Workspace ${workspaceId} has no forms.`,
    emptyHint: `Create one: formctl form create -w ${workspaceId} --file form.json`,
  });
}

/** The URL without query or fragment: those may carry a key, and the picker is on screen. */
function safeUrl(raw: unknown, maskWebhookUrl: (url: string) => unknown): string {
  try {
    const u = new URL(String(raw));
    // A Slack or Discord hook's path is its secret: masked as `webhook list` masks it.
    return String(maskWebhookUrl(`${u.origin}${u.pathname === '/' ? '' : u.pathname}`)).replace(/^[a-z]+:\/\//, '');
  } catch {
    return '';
  }
}

/** Picks a webhook integration of a form on a TTY (returns its id); otherwise throws a usage error naming `arg`. */
export async function pickIntegration(f: Factory, formId: number, arg = '<id>'): Promise<number> {
  if (!canAsk(f)) throw missingArg(arg, promptsOffHint(`the webhook id as ${arg}`, `See \`formctl webhook list ${formId}\`.`));
  const { listWebhooks } = await import('../api/webhooks.js');
  const { maskWebhookUrl } = await import('../webhooks/secret.js');
  const list = await listWebhooks(await f.api(), formId);
  return pick(f, {
    message: 'Webhook (type to search)',
    flag: arg,
    choices: list.map((i) => ({
      name: `${safeUrl(i.data?.webhook_url, maskWebhookUrl) || `webhook ${i.id}`}`,
      value: Number(i.id),
      description: `id ${i.id} · ${i.status}`,
    })),
    empty: `Form ${formId} has no webhooks.`,
    emptyHint: `Create one: formctl webhook create ${formId} --url https://…`,
  });
}

/**
 * The `<form>` argument as given, or (on a terminal) the id of a form picked from the workspace's
 * forms. Without a terminal it fails before resolving the workspace, so a script sees the argument it
 * forgot rather than a workspace error, and no request is sent.
 */
export async function resolveFormArg(f: Factory, arg: string | undefined, workspaceFlag?: number): Promise<string> {
  if (arg !== undefined) return parseFormRef(arg);
  if (!canAsk(f)) throw missingArg('<form>', promptsOffHint('the form id or slug as <form>', 'See `formctl form list`.'));
  return String(await pickForm(f, await f.workspace(workspaceFlag), '<form>'));
}

/**
 * The integration `<id>` argument as given, or (on a terminal) one picked from the form's webhooks.
 * `form` is the already resolved form argument (id or slug); a slug is looked up only when picking.
 */
export async function resolveIntegrationArg(f: Factory, form: string, id: number | undefined): Promise<number> {
  if (id !== undefined) return id;
  if (!canAsk(f)) throw missingArg('<id>', promptsOffHint('the webhook id as <id>', `See \`formctl webhook list ${form}\`.`));
  const client = await f.api();
  const formId = looksNumeric(form) ? parseIdText('form id', form) : (await (await import('../api/forms.js')).resolveForm(client, form.trim())).id;
  return pickIntegration(f, formId, '<id>');
}
