import { join } from 'node:path';
import { Command, Option } from '@commander-js/extra-typings';
import type { ApiClient } from '../../api/client.js';
import { type Form, createForm, getForm, resolveForm } from '../../api/forms.js';
import { type WebhookIntegration, type WebhookIntegrationBody, createWebhook, listWebhooks } from '../../api/webhooks.js';
import { completes } from '../../completion/kinds.js';
import { checkBaseUrl, notLoggedIn, resolveContext } from '../../config/resolve.js';
import { checkProfileName } from '../../config/store.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { backupDir } from '../../forms/backups.js';
import { formDiff } from '../../forms/diff.js';
import { CREATE_DEFAULTS, toDocument, toUpdateBody } from '../../forms/document.js';
import { formLabel } from '../../forms/label.js';
import { type FormLocker, formLocker } from '../../forms/lock.js';
import { safeUpdate, safeUpdateSettings } from '../../forms/safe-update.js';
import { maskedCopy } from '../../forms/secrets.js';
import { assertBodySize, assertPropertiesKept, assertValidForm } from '../../forms/validate.js';
import { parseFormRef, safeId } from '../../io/ids.js';
import { type IOStreams, write } from '../../io/iostreams.js';
import { type OutputFormat, notice, resolveFormat, success, writeObject } from '../../io/output.js';
import type { Prompter } from '../../io/prompter.js';
import { checkHeaders, checkSecret } from '../../webhooks/rules.js';
import { readSecretFile } from '../../webhooks/secret.js';
import { headersOf, isEmptyLogic, webhookView } from '../../webhooks/view.js';
import { resolveFormArg } from '../pickers.js';
import { addFormArgument, addOutputOptions, addYesOption, examples, fileOption, parseId, type FlagsOf } from '../shared.js';
import { addSafeUpdateOptions } from './shared.js';
import { shellWord } from '../hint-words.js';
import { profileFlag as profileFlagOf } from '../../io/shell-word.js';
import { retentionWarning } from '../../forms/retention.js';
import { confirmRetention } from '../../forms/safe-update.js';
import { retentionOf } from '../../service/retention.js';
import { reportSafeUpdate, stripAnsi } from './update.js';

/**
 * Attributes a copy never carries (docs/forms.md, "Copying a form"): the slug is the form's identity
 * on its service (the target makes its own from the title), the password a secret, the custom domain
 * belongs to the source's workspace (`custom_domain`, OpnForm `UserFormRequest.php:192`).
 */
export const NOT_COPIED = ['slug', 'password', 'custom_domain'] as const;

/** Keys of `form copy --json`. */
export const COPY_FIELDS = ['id', 'slug', 'workspace_id', 'share_url', 'profile', 'source_id', 'created', 'dropped', 'webhooks', 'backup'] as const;
/** Keys of `form copy --dry-run --json`. */
const COPY_DRY_RUN_FIELDS = ['dry_run', 'profile', 'workspace_id', 'onto', 'dropped', 'body', 'diff', 'webhooks'] as const;

/** `formctl form copy [form]`: the command and its flags, declared once. */
function formCopyCommand() {
  const base = new Command('copy')
    .description('Copy a form (fields, logic, settings) to another workspace or another service, without its slug, password or custom domain')
    .addOption(
      completes(
        new Option('--to-workspace <id>', 'Workspace of the copy (required unless --onto names an existing form)').argParser(parseId('--to-workspace')),
        'workspace',
      ),
    )
    .addOption(
      completes(new Option('--to-profile <name>', "Create the copy with this saved profile's service and token (default: the current one)"), 'profile'),
    )
    .option('--onto <form>', 'Update this existing form of the target (id or slug) through the safe update, with a backup and a diff, instead of creating one')
    .option('--with-webhooks', "Copy the form's webhooks too, without their signing secrets (asked for on a terminal, else --secret-file, else unsigned)")
    .addOption(fileOption('--secret-file <file>', 'Sign every copied webhook with the secret in this file (with --with-webhooks)'));
  const cmd = addOutputOptions(addYesOption(addSafeUpdateOptions(addFormArgument(base))), { fields: [...new Set([...COPY_FIELDS, ...COPY_DRY_RUN_FIELDS])] });
  return examples(cmd, [
    'formctl form copy contact-us --to-workspace 7 --dry-run',
    'formctl form copy 42 --to-workspace 3 --to-profile production --with-webhooks --secret-file prod-secret.txt',
    'formctl form copy 42 --to-profile production --onto contact-us   # update the production form safely',
  ]);
}

export type FormCopyOptions = FlagsOf<typeof formCopyCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> & {
    /** The source form's id or slug (the resolved [form] argument). */
    form: string;
    /** The name of the current profile (the source's). */
    profileName: () => Promise<string>;
    /** The client, lock and backups of the target: `--to-profile`'s, or the current profile's. */
    target: (profile: string | undefined) => Promise<CopyTarget>;
    prompter?: () => Prompter;
  };

/** Where a copy goes: a service reached with one profile. */
export interface CopyTarget {
  profile: string;
  /** ` --profile NAME` for a command in a hint that acts on the target, or '' when a bare command reaches it. */
  profileFlag?: string;
  /**
   * The target profile, when it is not the one in effect: what the target raises carries it
   * (CliError.hintProfile, set by onTarget), so its hint names the target's --profile, not the source's.
   */
  hintProfile?: { profileName: string; profileSource: string };
  client: ApiClient;
  lock?: FormLocker;
  backupDir: (formId: number) => string;
}

/** `formctl form copy [form] --to-workspace W [--to-profile P]`. */
export function newFormCopyCommand(f: Factory, runF = formCopyRun) {
  return formCopyCommand().action(async (form, flags) =>
    runF({
      ...flags,
      io: f.io,
      api: f.api,
      now: f.now,
      prompter: f.prompter,
      form: await resolveFormArg(f, form),
      profileName: async () => (await f.context()).profileName,
      target: (profile) => copyTarget(f, profile),
    }),
  );
}

/**
 * The target's client. A `--to-profile` is read from the config alone: FORMCTL_TOKEN, FORMCTL_BASE_URL
 * and FORMCTL_WORKSPACE describe the source (the current profile), and sending the source's token
 * to the target's service would leak it.
 */
export async function copyTarget(f: Factory, profile: string | undefined): Promise<CopyTarget> {
  const own = await f.context();
  let ctx = own;
  let client: ApiClient;
  let profileFlag = profileFlagOf(own);
  let hintProfile: CopyTarget['hintProfile'];
  if (profile === undefined || profile === own.profileName) {
    client = await f.api();
  } else {
    const store = await f.config();
    // The rule --profile follows, with its exception: a name an older formctl saved (`my box`) stays usable.
    checkProfileName(profile, '--to-profile', store.isSaved);
    if (!Object.hasOwn(store.data.profiles, profile)) {
      const saved = Object.keys(store.data.profiles);
      throw new UsageError(
        `No profile named "${profile}" (from --to-profile).`,
        saved.length
          ? `Saved profiles: ${saved.join(', ')}. To create this one: formctl --profile ${shellWord(profile)} auth login`
          : `Create it: formctl --profile ${shellWord(profile)} auth login`,
      );
    }
    // Named on the command line (--to-profile): a hint about it always names it.
    hintProfile = { profileName: profile, profileSource: 'flag' };
    const about = hintProfile;
    ctx = onTargetSync(about, () => resolveContext(store, {}, { profile }));
    const target = ctx;
    onTargetSync(about, () => {
      checkBaseUrl(target);
      // As for --profile (src/factory.ts): a token saved for another host, or none, is exit 4.
      if (target.withheldToken) throw notLoggedIn(target);
      if (!target.token)
        throw new CliError(
          `Profile "${profile}" has no token (from --to-profile).`,
          ExitCode.auth,
          `Log in with it: formctl --profile ${shellWord(profile)} auth login`,
        );
      if (target.tokenProblem) throw target.tokenProblem;
    });
    client = f.apiFor(ctx.baseUrl, ctx.token!);
    profileFlag = ` --profile ${shellWord(ctx.profileName)}`;
  }
  const lock = formLocker(join(f.stateDir(), 'locks'), ctx.baseUrl, (id) => notice(f.io, `waiting for another formctl process that is changing form ${id}…`));
  const { profileName, baseUrl } = ctx;
  return { profile: profileName, profileFlag, hintProfile, client, lock, backupDir: (id) => backupDir(f.stateDir(), profileName, id, baseUrl) };
}

/** Marks what a step on the copy's target raised as about the target profile (CliError.hintProfile), when it is another one. */
function tagTarget(err: unknown, about: CopyTarget['hintProfile']): unknown {
  if (about !== undefined && err instanceof CliError && err.hintProfile === undefined) err.hintProfile = about;
  return err;
}

function onTargetSync<T>(about: CopyTarget['hintProfile'], step: () => T): T {
  try {
    return step();
  } catch (err) {
    throw tagTarget(err, about);
  }
}

/** Runs a step on the copy's target: its errors' hints name the target profile, never the source's. */
async function onTarget<T>(target: CopyTarget, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw tagTarget(err, target.hintProfile);
  }
}

/** The copy's attributes: the source form's own, less identity, server-computed keys and NOT_COPIED. */
export function copyDocument(form: Form): { doc: Record<string, unknown>; dropped: Record<string, unknown> } {
  const doc = toDocument(form);
  const dropped: Record<string, unknown> = {};
  for (const k of NOT_COPIED) {
    const v = doc[k];
    if (v !== undefined && v !== null && v !== '') dropped[k] = v;
    delete doc[k];
  }
  delete doc.id;
  delete doc.workspace_id;
  return { doc, dropped };
}

/**
 * Reads the source form (and its webhooks), then creates the copy in the target workspace, or
 * updates `--onto` through the safe update; copies the webhooks last, each with the secret chosen
 * for it. Everything a local check can refuse is refused before the first write.
 */
export async function formCopyRun(o: FormCopyOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  // An unknown or unusable --to-profile is said first: it is what the other checks are about.
  const early = o.toProfile !== undefined ? await o.target(o.toProfile) : undefined;
  if (o.onto === undefined && o.toWorkspace === undefined) {
    throw new UsageError(
      'Missing --to-workspace.',
      'Name the workspace of the copy (see `formctl workspace list`), or --onto <form> to update an existing form.',
    );
  }
  if (o.secretFile !== undefined && !o.withWebhooks) throw new UsageError('--secret-file signs copied webhooks: it needs --with-webhooks.');
  const onto = o.onto === undefined ? undefined : parseFormRef(o.onto, '--onto');
  const secretFromFile = o.secretFile !== undefined ? await readSecretFile(o.secretFile) : undefined;
  if (secretFromFile !== undefined) {
    const problems = checkSecret(secretFromFile);
    if (problems.length) throw new UsageError(`--secret-file ${o.secretFile}: ${problems.join(' ')}`);
  }

  const target = early ?? (await o.target(o.toProfile));
  const source = await o.api();
  const form = await resolveForm(source, o.form);
  const hooks = o.withWebhooks ? await listWebhooks(source, form.id) : [];
  for (const h of hooks) {
    const problems = checkHeaders(headersOf(h));
    if (problems.length) throw new UsageError(`Webhook ${h.id} of form ${form.id} cannot be copied: ${problems.join(' ')}`);
  }
  const { doc, dropped } = copyDocument(form);
  const sameService = o.toProfile === undefined || target.profile === (await o.profileName());
  const droppedDiff = await formDiff({ ...doc, ...dropped }, doc, { from: `form ${form.id}`, to: 'copy', color: o.io.colorStdout, context: 0 });

  if (onto !== undefined) {
    await onTarget(target, () => copyOnto(o, { form, doc, dropped, droppedDiff, hooks, target, onto, format, secretFromFile, sameService }));
    return;
  }
  const workspaceId = o.toWorkspace!;
  if (sameService && workspaceId === form.workspace_id) {
    await notice(o.io, `the copy goes to the source form's own workspace (${workspaceId}): a second form with the same fields.`);
  }
  const draft: Record<string, unknown> = { ...doc };
  for (const [k, v] of Object.entries(CREATE_DEFAULTS)) if (draft[k] === undefined) draft[k] = v;
  const body = { workspace_id: workspaceId, ...toUpdateBody(draft) };
  assertPropertiesKept(body);
  if (o.validate) assertValidForm(body, 'update');
  assertBodySize(body, `The copy of form ${form.id}`);

  // A copy that keeps the source's retention deletes submissions from the start (docs/forms.md, "Retention").
  const retention = retentionOf(body);
  const retentionNote = retention ? retentionWarning({ title: draft.title }, { before: null, after: retention }, { count: 0, byUpdate: true }) : undefined;
  if (o.dryRun) {
    if (retentionNote) await notice(o.io, `${retentionNote}.`, 'warning');
    await dryRunReport(o, format, { profile: target.profile, workspaceId, body, dropped, droppedDiff, hooks });
    return;
  }
  if (retentionNote) await confirmRetention(o.io, o, retentionNote, String(draft.title));
  const secrets = await chooseSecrets(o, hooks, secretFromFile);
  const created = await onTarget(target, () => createForm(target.client, body));
  if (typeof created?.id !== 'number') throw new CliError('The service accepted the copy but did not return it; check `formctl form list`.');
  const copiedHooks = await onTarget(target, () => copyWebhooks(o, target, created.id, hooks, secrets));
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(
      o.io,
      format,
      {
        id: created.id,
        slug: created.slug,
        workspace_id: created.workspace_id ?? workspaceId,
        share_url: created.share_url ?? null,
        profile: target.profile,
        source_id: form.id,
        created: true,
        dropped: Object.keys(dropped),
        webhooks: copiedHooks,
        backup: null,
      },
      [],
    );
    return;
  }
  if (o.io.stdoutIsTTY) {
    if (droppedDiff) await write(o.io.stdout, droppedDiff);
    await success(
      o.io,
      `Copied form ${formLabel(form)} to workspace ${workspaceId}${sameService ? '' : ` of profile "${target.profile}"`}: new form ${formLabel(created)}.`,
    );
    if (created.share_url) await write(o.io.stdout, `  ${created.share_url}\n`);
  } else {
    await write(o.io.stdout, `${created.id}\t${created.share_url ?? ''}\n`);
    if (droppedDiff) await notice(o.io, `not copied: ${Object.keys(dropped).join(', ')}.`);
  }
}

interface OntoInput {
  form: Form;
  doc: Record<string, unknown>;
  dropped: Record<string, unknown>;
  droppedDiff: string;
  hooks: WebhookIntegration[];
  target: CopyTarget;
  onto: string;
  format: OutputFormat;
  secretFromFile?: string;
  sameService: boolean;
}

/**
 * The copy onto an existing form: the safe update of that form (its lock, a re-read before the PUT,
 * a backup), with the source's attributes merged over it. What a copy never carries is not in the
 * change, so the target keeps its own slug, password and custom domain.
 */
async function copyOnto(o: FormCopyOptions, c: OntoInput): Promise<void> {
  const client = c.target.client;
  const lock = o.dryRun ? undefined : c.target.lock;
  const id = safeId(c.onto) ?? (await resolveForm(client, c.onto)).id;
  if (c.sameService && id === c.form.id) throw new UsageError(`--onto names form ${id}, the form being copied.`);
  const release = lock ? await lock(id) : undefined;
  try {
    const current = await getForm(client, id);
    if (o.toWorkspace !== undefined && current.workspace_id !== undefined && current.workspace_id !== o.toWorkspace) {
      throw new UsageError(
        `--onto form ${current.id} is in workspace ${String(current.workspace_id)}, not ${o.toWorkspace}; nothing was sent.`,
        'Leave out --to-workspace, or name a form of that workspace.',
      );
    }
    const result = await safeUpdate({ ...safeUpdateSettings(o.io, o), client, current, change: c.doc, backupDir: c.target.backupDir(current.id) });
    if (o.dryRun) {
      if (c.format.kind === 'json' || c.format.kind === 'ndjson') {
        await writeObject(
          o.io,
          c.format,
          {
            dry_run: true,
            profile: c.target.profile,
            workspace_id: current.workspace_id,
            onto: current.id,
            dropped: Object.keys(c.dropped),
            diff: stripAnsi(result.diff),
            webhooks: c.hooks.map((h) => ({ source_id: h.id, body: webhookView(bodyFor(h, undefined) as unknown as WebhookIntegration).data })),
          },
          [],
        );
      } else {
        if (c.droppedDiff) await write(o.io.stdout, c.droppedDiff);
        await write(o.io.stdout, result.diff);
        for (const h of c.hooks) await write(o.io.stdout, webhookBodyText(h));
        await notice(
          o.io,
          `dry run: would update form ${formLabel(current)}${result.outcome === 'unchanged' ? ' (it already matches)' : ''}; nothing was sent.`,
        );
      }
      return;
    }
    const secrets = await chooseSecrets(o, c.hooks, c.secretFromFile);
    if (c.format.kind !== 'json' && c.format.kind !== 'ndjson') {
      if (c.droppedDiff && o.io.stdoutIsTTY) await write(o.io.stdout, c.droppedDiff);
      await reportSafeUpdate(o.io, o, result, { showDiff: true, formctl: `formctl${c.target.profileFlag ?? ''}` });
    }
    const existing = c.hooks.length ? await listWebhooks(client, current.id) : [];
    const fresh = c.hooks.filter((h) => {
      const there = existing.some((e) => e.data?.webhook_url === h.data?.webhook_url);
      return !there;
    });
    if (fresh.length < c.hooks.length) {
      await notice(o.io, `${c.hooks.length - fresh.length} of the webhooks already deliver to the same URL on form ${current.id}; left as they are.`);
    }
    const copied = await copyWebhooks(o, c.target, current.id, fresh, secrets);
    if (c.format.kind === 'json' || c.format.kind === 'ndjson') {
      await writeObject(
        o.io,
        c.format,
        {
          id: result.form.id,
          slug: result.form.slug,
          workspace_id: result.form.workspace_id,
          share_url: result.form.share_url ?? null,
          profile: c.target.profile,
          source_id: c.form.id,
          created: false,
          dropped: Object.keys(c.dropped),
          webhooks: copied,
          backup: result.backup ?? null,
        },
        [],
      );
    }
  } finally {
    await release?.();
  }
}

/** A new webhook's body from the source's: URL, headers, status and logic; the secret only as chosen. */
function bodyFor(h: WebhookIntegration, secret: string | undefined): WebhookIntegrationBody {
  const body: WebhookIntegrationBody = {
    integration_id: 'webhook',
    status: String(h.status).toLowerCase() === 'inactive' ? 'inactive' : 'active',
    data: { webhook_url: String(h.data?.webhook_url ?? ''), webhook_headers: headersOf(h) },
  };
  if (secret !== undefined) body.data.webhook_secret = secret;
  if (!isEmptyLogic(h.logic)) body.logic = h.logic;
  return body;
}

/** A webhook body for a person, masked as `webhook get` shows it. */
function webhookBodyText(h: WebhookIntegration): string {
  const view = webhookView(bodyFor(h, undefined) as unknown as WebhookIntegration);
  return `webhook ${h.id} → ${JSON.stringify(view, null, 2)}\n`;
}

/** The dry run of a new copy: the bodies that would be sent, secrets masked, and what is not copied. */
async function dryRunReport(
  o: FormCopyOptions,
  format: OutputFormat,
  d: {
    profile: string;
    workspaceId: number;
    body: Record<string, unknown>;
    dropped: Record<string, unknown>;
    droppedDiff: string;
    hooks: WebhookIntegration[];
  },
): Promise<void> {
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(
      o.io,
      format,
      {
        dry_run: true,
        profile: d.profile,
        workspace_id: d.workspaceId,
        onto: null,
        dropped: Object.keys(d.dropped),
        body: maskedCopy(d.body),
        webhooks: d.hooks.map((h) => ({ source_id: h.id, body: webhookView(bodyFor(h, undefined) as unknown as WebhookIntegration).data })),
      },
      [],
    );
  } else {
    if (d.droppedDiff) await write(o.io.stdout, d.droppedDiff);
    await write(o.io.stdout, `form → ${JSON.stringify(maskedCopy(d.body), null, 2)}\n`);
    for (const h of d.hooks) await write(o.io.stdout, webhookBodyText(h));
  }
  await notice(
    o.io,
    `dry run: would create a form in workspace ${d.workspaceId} of profile "${d.profile}"${d.hooks.length ? ` and ${d.hooks.length} webhook(s)` : ''}; nothing was sent.`,
  );
}

/**
 * The signing secret of each copied webhook, chosen before anything is written: `--secret-file` for
 * all; else, on a terminal, asked for each webhook that was signed (or left unsigned on request);
 * else none, and `copyWebhooks` warns. A source's secret is never read into a copy.
 */
async function chooseSecrets(o: FormCopyOptions, hooks: WebhookIntegration[], fromFile: string | undefined): Promise<Map<number, string | undefined>> {
  const out = new Map<number, string | undefined>();
  for (const h of hooks) {
    if (fromFile !== undefined) out.set(h.id, fromFile);
    else if (o.io.canPrompt && o.prompter) out.set(h.id, await askSecret(o.io, o.prompter(), h));
    else out.set(h.id, undefined);
  }
  return out;
}

async function askSecret(io: IOStreams, p: Prompter, h: WebhookIntegration): Promise<string | undefined> {
  const how = await p.select<'type' | 'none'>({
    message: `Signing secret for the copy of webhook ${h.id} (${String(webhookView(h).data?.webhook_url ?? '')})`,
    flag: '--secret-file',
    choices: [
      { name: 'Type one', value: 'type', description: 'At least 12 characters; the receiver must know it' },
      { name: 'None (deliveries are not signed)', value: 'none', description: 'Receivers cannot tell deliveries from forgeries' },
    ],
  });
  if (how === 'none') return undefined;
  for (;;) {
    const secret = await p.password({ message: 'Secret', flag: '--secret-file' });
    const problems = checkSecret(secret);
    if (problems.length === 0) return secret;
    await notice(io, problems.join(' '), 'warning');
  }
}

/** Creates the webhooks on the new (or updated) form; an unsigned one gets a warning. */
async function copyWebhooks(
  o: { io: IOStreams },
  target: CopyTarget,
  formId: number,
  hooks: WebhookIntegration[],
  secrets: Map<number, string | undefined>,
): Promise<{ id: number; source_id: number; signed: boolean }[]> {
  const out: { id: number; source_id: number; signed: boolean }[] = [];
  for (const h of hooks) {
    const secret = secrets.get(h.id);
    const created = await createWebhook(target.client, formId, bodyFor(h, secret));
    out.push({ id: created.id, source_id: h.id, signed: secret !== undefined });
    if (secret === undefined) {
      await notice(
        o.io,
        `webhook ${created.id} (copy of ${h.id}) on form ${formId} delivers unsigned: receivers cannot tell its deliveries from forgeries. Give it a secret: formctl${target.profileFlag ?? ''} webhook rotate-secret ${formId} ${created.id}`,
        'warning',
      );
    }
  }
  return out;
}
