import { isDeepStrictEqual } from 'node:util';
import type { ApiClient } from '../api/client.js';
import type { IOStreams } from '../io/iostreams.js';
import { notice } from '../io/output.js';
import { type Form, getForm, putForm } from '../api/forms.js';
import { CancelledError, ConflictError, UsageError } from '../errors.js';
import { discardBackup, pruneBackups, saveBackup } from './backups.js';
import { ApiError } from '../api/errors.js';
import { formDiff } from './diff.js';
import { documentText, isObject, toUpdateBody } from './document.js';
import type { Release } from './lock.js';
import { mergePatch } from './merge.js';
import { retentionChange, retentionWarning } from './retention.js';
import { countExpired } from '../submissions/expired.js';
import { retentionCutoff } from '../service/retention.js';
import { deployedFormInput } from '../service/forms.js';
import { type Prompter, confirmByTyping } from '../io/prompter.js';
import { SECRET_KEYS } from './secrets.js';
import { assertBodySize, assertPropertiesKept, assertValidForm, fillRequired } from './validate.js';

type Obj = Record<string, unknown>;

export interface SafeUpdateInput {
  client: ApiClient;
  /** The form as just fetched: every field the change does not mention comes from here. */
  current: Form;
  /** A patch or a whole document; merged over `current` (objects key by key, lists replaced). */
  change: Obj;
  validate: boolean;
  dryRun: boolean;
  /** Skip the re-read that detects a concurrent change. */
  force: boolean;
  /** Directory for this form's backups. */
  backupDir: string;
  now: () => Date;
  color?: boolean;
  /** Called with the diff before anything is written; false cancels (exit 3). */
  confirm?: (diff: string) => Promise<boolean>;
  /**
   * Takes the form's lock after the confirmation, for callers that read the form before a person
   * answered (edit, restore); the re-read then runs under the lock. Callers that hold the lock
   * since before their read (update, apply) leave it out.
   */
  lock?: () => Promise<Release>;
  /** Says something on stderr while the update runs (warnings that must come before the PUT). */
  warn?: (message: string) => Promise<void>;
  /**
   * Asked before a change that sets or shortens the form's submission retention is sent, with the
   * warning of what it deletes (docs/forms.md, "Retention"): resolves to go ahead, throws to refuse
   * (exit 2 off a terminal without --yes, 3 for a wrong answer). Without it such a change is refused.
   */
  confirmRetention?: (warning: string, form: Form) => Promise<void>;
  /**
   * A new slug the user asked for. Slugs are identity and never part of a body otherwise; the
   * deployed service changes one only on a self-hosted server (docs/forms.md, "What the deployed server changes on save").
   */
  slug?: string;
}

/** A block the service dropped from `properties` on save. */
export interface DroppedBlock {
  id: string;
  type: string;
  name: string;
}

/** What every form-changing command (update, edit, apply, restore) maps the same way from its flags and terminal. */
export type SafeUpdateSettings = Pick<SafeUpdateInput, 'validate' | 'dryRun' | 'force' | 'now' | 'color' | 'warn' | 'confirmRetention'>;

/**
 * --no-validate, --dry-run and --force as safeUpdate takes them; colour and warnings follow the
 * terminal; a retention change is confirmed by typing the form's title on a terminal, by --yes
 * elsewhere (refused with exit 2 without it: nothing is sent).
 */
export function safeUpdateSettings(
  io: IOStreams,
  o: { validate?: boolean; dryRun?: boolean; force?: boolean; now: () => Date; yes?: boolean; prompter?: () => Prompter },
): SafeUpdateSettings {
  return {
    validate: o.validate !== false,
    dryRun: o.dryRun === true,
    force: o.force === true,
    now: o.now,
    color: io.colorStdout,
    warn: (m) => notice(io, m, 'warning'),
    confirmRetention: (warning, form) => confirmRetention(io, o, warning, typeof form.title === 'string' && form.title.trim() ? form.title : String(form.id)),
  };
}

/**
 * Confirms a change that sets or shortens a form's retention (docs/forms.md, "Retention"): with
 * --yes the warning is said and the change goes; on a terminal the form's title must be typed;
 * elsewhere it is refused (exit 2) and nothing is sent.
 */
export async function confirmRetention(
  io: IOStreams,
  o: { yes?: boolean; prompter?: () => Prompter },
  warning: string,
  title: string,
  /** The command has --dry-run (create has none: its hint does not offer it). */
  dryRun = true,
): Promise<void> {
  if (o.yes) return notice(io, `${warning}.`, 'warning');
  if (!io.canPrompt || !o.prompter) {
    throw new UsageError(
      `${capitalised(warning)}: refusing without confirmation; nothing was sent.`,
      `Pass --yes to confirm${dryRun ? ', or --dry-run to see the change' : ''} (prompts are off: not a terminal, CI, or --no-input).`,
    );
  }
  await confirmByTyping(io, o.prompter(), { message: `${capitalised(warning)}.`, what: 'the form title', expected: title });
}

export interface SafeUpdateResult {
  outcome: 'unchanged' | 'dry-run' | 'updated';
  /** Unified diff of what is (or would be) sent, secrets masked; '' when unchanged. */
  diff: string;
  /** The form after the update, or the current form when nothing was sent. */
  form: Form;
  backup?: string;
  /** Top-level keys that were sent but are absent from the service's answer (it does not store them). */
  ignored?: string[];
  /** Ids of the fields the change removes (a `properties` list in a patch replaces the whole list). */
  removedFields: string[];
  /** Required attributes the service did not return, sent with their create defaults. */
  filled: string[];
  /** Blocks sent but missing from the service's answer (nf-code blocks without custom-code rights). */
  droppedBlocks: DroppedBlock[];
  /** True when `no_branding: true` was sent and the service answered false (its plan lacks the feature). */
  brandingNotApplied?: boolean;
  /** The slug sent and the one the form has after the update (or would be sent, in a dry run). */
  slug?: { sent: string; now: string };
  /** The warning of a change that sets or shortens retention (said on stderr before anything is sent). */
  retention?: string;
}

/**
 * The only way formctl changes a form (docs/forms.md): merge the change into the current form, fill
 * required attributes the service did not return, refuse an empty field list, check what the change
 * touches, diff, back up, check nobody changed the form meanwhile, PUT the complete body, then check
 * that every attribute changed holds what was sent (exit 9 otherwise). Nothing is sent when there
 * is no difference.
 */
export async function safeUpdate(o: SafeUpdateInput): Promise<SafeUpdateResult> {
  const before = toUpdateBody(o.current);
  const wanted = toUpdateBody(mergePatch(o.current, o.change));
  const body = structuredClone(wanted);
  const filled = fillRequired(body, before);
  assertPropertiesKept(body);
  if (o.validate) assertValidForm(body, 'update', before);
  assertBodySize(body, `The form ${o.current.id}`);

  const newSlug = o.slug !== undefined && o.slug !== o.current.slug ? o.slug : undefined;
  // The diff shows the slug only when it changes (it is otherwise not part of a body).
  const shownBefore = newSlug === undefined ? before : { ...before, slug: o.current.slug };
  if (newSlug !== undefined) wanted.slug = body.slug = newSlug;

  const removedFields = fieldIds(before).filter((id) => !fieldIds(body).includes(id));
  const base = { removedFields, filled: [] as string[], droppedBlocks: [] as DroppedBlock[] };
  // A change is what the user asked for; a filled default alone is no reason to send anything.
  if ((await formDiff(shownBefore, wanted)) === '') return { outcome: 'unchanged', diff: '', form: o.current, ...base };
  const diff = await formDiff(shownBefore, body, { from: `form ${o.current.id} (current)`, to: `form ${o.current.id} (new)`, color: o.color });
  await warnBeforeSending(o, before, body);
  const retention = await retentionNotice(o, before, body);
  const slug = newSlug === undefined ? undefined : { sent: newSlug, now: o.current.slug };
  if (o.dryRun) {
    if (retention) await o.warn?.(retention);
    return { outcome: 'dry-run', diff, form: o.current, ...base, filled, slug, retention };
  }
  if (retention) {
    if (!o.confirmRetention)
      throw new UsageError(`${capitalised(retention)}; refusing: this command cannot confirm it.`, 'Change the retention with `formctl form update`.');
    await o.confirmRetention(retention, o.current);
  }
  if (o.confirm && !(await o.confirm(diff))) throw new CancelledError('Cancelled; nothing was sent.');

  const release = o.lock ? await o.lock() : undefined;
  try {
    // The backup is pruned into the kept ones only once the PUT went out; a change that was never
    // sent, or that the service refused, takes its backup back (docs/forms.md, "Backups").
    const saved = await saveBackup(o.backupDir, o.current, o.now());
    const backup = saved.path;
    let sent = false;
    let form: Form;
    try {
      if (!o.force) {
        const latest = await getForm(o.client, o.current.id);
        // updated_at has one-second resolution on the deployed server, so the content is compared too.
        if (latest.updated_at !== o.current.updated_at || documentText(toUpdateBody(latest)) !== documentText(before)) {
          throw new ConflictError(
            `Form ${o.current.id} changed since it was read (updated_at ${o.current.updated_at ?? '?'} → ${latest.updated_at ?? '?'}); nothing was sent.`,
            'Run the command again to apply your change on top of the new version, or pass --force to overwrite it.',
          );
        }
      }
      sent = true;
      form = await putForm(o.client, o.current.id, body);
    } catch (err) {
      if (!sent || refused(err)) await discardBackup(saved);
      else await pruneBackups(o.backupDir, undefined, backup);
      throw err;
    }
    await pruneBackups(o.backupDir, undefined, backup);

    // An answer without the form (an empty 200) says nothing about what was stored: read it back.
    if (!isObject(form) || !Array.isArray(form.properties)) form = await getForm(o.client, o.current.id);
    const ignored = Object.keys(body).filter((k) => !(k in form) && body[k] !== null);
    const droppedBlocks = dropped(body, form);
    if (droppedBlocks.length > 0 && o.warn) {
      await o.warn(
        `the service dropped ${droppedBlocks.length === 1 ? 'a block' : `${droppedBlocks.length} blocks`} of form ${o.current.id} on save: ${droppedBlocks
          .map((b) => `"${b.name}" (${b.type}, id ${b.id})`)
          .join(
            ', ',
          )}${droppedBlocks.some((b) => b.type === 'nf-code') ? ' (code blocks need custom-code rights: a custom domain, or self-hosted with custom code allowed)' : ''}; the version before the update is in ${backup}.`,
      );
    }
    const brandingNotApplied = body.no_branding === true && form.no_branding === false;
    // The slug is reported, not checked: the service keeps it unless it is self-hosted.
    const notHeld = unheld(before, body, form, new Set([...ignored, 'no_branding', 'slug']));
    if (notHeld.length > 0) {
      throw new ConflictError(
        `Form ${o.current.id} was updated, but ${notHeld.join('; ')}: another change may have come in at the same moment, or the service changed the value.`,
        `The version before this update is in ${backup}. Check the form (\`formctl form get ${o.current.id}\`) and run the command again if needed.`,
      );
    }
    if (!o.force) {
      // The service has no conditional update, so a write from elsewhere between the re-read above
      // and the PUT, or just after the PUT, is not refused. Read once more: a form that no longer
      // holds the change lost it to such a write (docs/forms.md, "Concurrent updates").
      // A write that lands after this read cannot be seen from here.
      const after = await getForm(o.client, o.current.id);
      const lost = unheld(before, body, after, new Set([...ignored, 'no_branding', 'slug']));
      if (lost.length > 0) {
        throw new ConflictError(
          `Form ${o.current.id} was updated, but read again right after, it no longer holds the change (${lost.join('; ')}; updated_at ${form.updated_at ?? '?'} → ${after.updated_at ?? '?'}): another change came in at the same moment and replaced it.`,
          `The version before this update is in ${backup}. Check the form (\`formctl form get ${o.current.id}\`) and run the command again if your change is still wanted.`,
        );
      }
      form = after;
    }
    if (slug) slug.now = typeof form.slug === 'string' ? form.slug : slug.now;
    return { outcome: 'updated', diff, form, backup, ignored, removedFields, filled, droppedBlocks, brandingNotApplied, slug, retention };
  } finally {
    await release?.();
  }
}

/**
 * True when the service answered the PUT with a refusal (4xx but 408), which stores nothing: the
 * deployed service validates the body (UpdateFormRequest, 422) and checks the policy (403) before
 * it updates the form (OpnForm api/routes/api.php:245, api/app/Http/Controllers/Forms/FormController.php:157-161).
 * A 5xx, a timeout or a lost connection may have applied the change: its backup is kept.
 */
function refused(err: unknown): boolean {
  return err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 408;
}

/**
 * The warning for a change that sets or shortens the submission retention: the service's hourly job
 * then deletes every submission older than it for good (docs/forms.md, "Retention"); the number it
 * would delete today is counted from the submission list. undefined for any other change.
 */
async function retentionNotice(o: SafeUpdateInput, before: Obj, body: Obj): Promise<string | undefined> {
  const now = o.now().getTime();
  const change = retentionChange(before, body, now);
  if (!change) return undefined;
  const count = await countExpired(o.client, o.current.id, retentionCutoff(now, change.after));
  return retentionWarning({ id: o.current.id, title: body.title ?? o.current.title }, change, count);
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Code blocks are deleted on save by the deployed service unless the workspace may use custom code. */
async function warnBeforeSending(o: SafeUpdateInput, before: Obj, body: Obj): Promise<void> {
  if (!o.warn) return;
  const codeBlocks = (Array.isArray(body.properties) ? body.properties : []).filter((p) => isObject(p) && p.type === 'nf-code').length;
  const workspace = isObject(o.current.workspace) ? o.current.workspace : undefined;
  const customDomain = Array.isArray(workspace?.custom_domains) && workspace.custom_domains.length > 0;
  if (codeBlocks > 0 && !customDomain) {
    await o.warn(
      `form ${o.current.id} has ${codeBlocks === 1 ? 'a code block' : `${codeBlocks} code blocks`} (nf-code): the deployed service deletes them on save unless the workspace may use custom code (a custom domain, or self-hosted with custom code allowed); formctl checks the answer.`,
    );
  }
  // The deployed service reports the effective no_branding (false on a plan without branding
  // removal, even when true is stored); sending that value back stores false. Its forms name their
  // plan in `plan_tier`; the spec's service stores what it is sent and has no plan_tier.
  if (o.current.plan_tier === 'free' && before.no_branding === false && body.no_branding === false) {
    await o.warn(
      `no_branding is sent back as false, the value the service reports on the free plan even when true is stored: this update stores false (set it again after an upgrade).`,
    );
  }
}

function fieldIds(form: Obj): string[] {
  const props = Array.isArray(form.properties) ? (form.properties as Obj[]) : [];
  return props.map((p) => (p && typeof p.id === 'string' ? p.id : '')).filter(Boolean);
}

/** Blocks sent that the answer does not have. */
function dropped(body: Obj, form: Obj): DroppedBlock[] {
  const answered = new Set(fieldIds(form));
  const sent = Array.isArray(body.properties) ? (body.properties as unknown[]) : [];
  return sent
    .filter((p): p is Obj => isObject(p) && typeof p.id === 'string' && !answered.has(p.id))
    .map((p) => ({ id: String(p.id), type: String(p.type ?? '?'), name: String(p.name ?? '') }));
}

/**
 * What the change set that the answer does not hold, as "title (sent …, the form holds …)" lines.
 * Only attributes the change touched are checked, and `holds` forgives what services do to a value
 * (a date written out in full, an empty value stored as null, keys added to an object). What the
 * deployed service does to every form body it is sent (strings trimmed, blanks null, tags stripped
 * from block names: `deployedFormInput`, docs/service.md "Forms") is what it was asked to store, not
 * another change: a value equal to the body so normalised is held too.
 */
function unheld(before: Obj, body: Obj, form: Obj, skip: Set<string>): string[] {
  const out: string[] = [];
  const stored = deployedFormInput(body);
  for (const k of Object.keys(body)) {
    if (skip.has(k) || isDeepStrictEqual(before[k], body[k])) continue;
    if (k === 'properties') {
      const answered = new Map<string, unknown>();
      for (const p of Array.isArray(form.properties) ? form.properties : []) if (isObject(p) && typeof p.id === 'string') answered.set(p.id, p);
      const old = new Map<string, unknown>();
      for (const p of Array.isArray(before.properties) ? before.properties : []) if (isObject(p) && typeof p.id === 'string') old.set(p.id, p);
      const sent = Array.isArray(body.properties) ? body.properties : [];
      const normalised = Array.isArray(stored.properties) ? stored.properties : [];
      sent.forEach((p: unknown, i) => {
        if (!isObject(p) || typeof p.id !== 'string' || !answered.has(p.id) || isDeepStrictEqual(old.get(p.id), p)) return;
        const got = answered.get(p.id);
        if (!holds(p, got) && !holds(normalised[i], got)) out.push(`field "${p.id}" does not hold what was sent`);
      });
      continue;
    }
    if (holds(body[k], form[k]) || holds(stored[k], form[k])) continue;
    out.push(
      SECRET_KEYS.includes(k)
        ? `${k} does not hold the value sent (a secret, not shown)`
        : `${k} holds ${JSON.stringify(form[k]) ?? 'nothing'}, not the ${JSON.stringify(body[k])} sent`,
    );
  }
  return out;
}

const DATE = /^\d{4}-\d{2}-\d{2}/;

function empty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

/** True when `got` holds `sent`, allowing for how a service stores values (see `unheld`). */
export function holds(sent: unknown, got: unknown): boolean {
  if (isDeepStrictEqual(sent, got)) return true;
  if (empty(sent) && empty(got)) return true;
  if (typeof sent === 'string' && typeof got === 'string' && DATE.test(sent) && DATE.test(got)) return Date.parse(sent) === Date.parse(got);
  if ((typeof sent === 'number' || typeof sent === 'string') && (typeof got === 'number' || typeof got === 'string')) return String(sent) === String(got);
  if (Array.isArray(sent)) return Array.isArray(got) && got.length === sent.length && sent.every((v, i) => holds(v, got[i]));
  if (isObject(sent)) return isObject(got) && Object.entries(sent).every(([k, v]) => (k in got ? holds(v, got[k]) : empty(v)));
  return false;
}
