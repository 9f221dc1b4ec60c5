import { activeByKind, describeKinds } from '../webhooks/integrations.js';
import type { Form } from '../api/forms.js';
import { redactQuerySecrets } from '../api/redact.js';
import type { NormalizedSubmission } from '../api/normalize.js';
import { UsageError } from '../errors.js';
import { formLabel } from '../forms/label.js';
import { choosesOption, inputProperties } from './fields.js';

/**
 * Body keys the deployed service reads itself (docs/submission-update.md): a field id equal to one
 * of them cannot be sent at the top level without changing its meaning, so such a form is refused.
 */
export const RESERVED_KEYS = ['data', 'completion_time', 'submission_id', 'tracking_parameters', 'is_partial'] as const;

/**
 * Keys the deployed list writes over the answers in `data` (docs/submission-update.md): the answer to a
 * field with one of these ids cannot be read back, so it could not be sent back unchanged.
 */
export const LIST_OVERWRITTEN_KEYS = ['status', 'created_at', 'id', 'submission_id', 'ip_address'] as const;

/** Keys the list adds inside `data` that are not answers (docs/submission-update.md). */
export const META_KEYS = [
  'status',
  'created_at',
  'updated_at',
  'id',
  'submission_id',
  'ip_address',
  'form_id',
  'meta',
  'submitted_at',
  'completion_time',
] as const;

/** The body of one submission update: the full answers at the top level, the patch under `data`. */
export interface UpdateBody {
  data: Record<string, unknown>;
  completion_time?: number;
  [fieldId: string]: unknown;
}

/** What sending the body will change besides the patch, on the deployed service. */
export interface UpdateSideEffects {
  /** The submission is partial: the update stores it as completed. */
  partial: boolean;
  /** Keys of answers to fields the form no longer has; the deployed service drops them. */
  removed: string[];
}

/**
 * Refuses, before anything is sent, a form whose submissions no API client can change as the user
 * means: captcha forms (the deployed service demands a captcha answer on every update), forms with
 * a field id that is also a body key of the update, and forms with a field id the deployed list
 * shows its own value under (the answer cannot be read back).
 */
export function assertUpdatable(form: Form): void {
  if (form.use_captcha === true) {
    throw new UsageError(
      `Form ${formLabel(form)} uses a captcha, and the service asks for a solved captcha on every submission update, so no API client can update its submissions.`,
      'Edit the submission in the web interface, or turn the captcha off for the time of the update.',
    );
  }
  const reserved = new Set<string>(RESERVED_KEYS);
  const clash = inputProperties(form).filter((p) => reserved.has(p.id));
  if (clash.length > 0) {
    throw new UsageError(
      `Form ${formLabel(form)} has a field whose id is a reserved key of the update body (${clash.map((p) => p.id).join(', ')}), so its answers cannot be sent unambiguously; nothing was sent.`,
      'Edit the submission in the web interface.',
    );
  }
  // On the deployed service the list shows the submission's status, creation time, ids and IP in
  // place of these fields' answers: sending back what it shows would overwrite the real answers.
  const overwritten = new Set<string>(LIST_OVERWRITTEN_KEYS);
  const hidden = inputProperties(form).filter((p) => overwritten.has(p.id) && !reserved.has(p.id));
  if (hidden.length > 0) {
    throw new UsageError(
      `Form ${formLabel(form)} has a field whose id the service's submission list uses for its own values (${hidden.map((p) => p.id).join(', ')}), so its current answers cannot be read back and sending them would overwrite them; nothing was sent.`,
      'Edit the submission in the web interface.',
    );
  }
}

/** A file answer as the update takes it: the list gives `[{file_url, file_name}]`, the service wants the URL strings. */
function fileValue(v: unknown): unknown {
  if (!Array.isArray(v)) return typeof v === 'object' && v !== null ? (pick(v, 'file_url') ?? v) : v;
  return v.map((x: unknown) => (typeof x === 'object' && x !== null ? (pick(x, 'file_url') ?? x) : x));
}

/** A signature answer as the update takes it: its stored file name (a URL would be stored as nothing). */
function signatureValue(v: unknown): unknown {
  const first: unknown = Array.isArray(v) ? v[0] : v;
  if (typeof first === 'object' && first !== null) return pick(first, 'file_name') ?? v;
  return first ?? v;
}

function pick(o: object, key: string): string | undefined {
  const v = (o as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
}

/**
 * The submission's current answers in the form the update takes back: only answers to the form's
 * current input fields, meta keys left out, files as URL strings and signatures as file names.
 */
export function currentAnswers(form: Form, item: Pick<NormalizedSubmission, 'data'>): { answers: Record<string, unknown>; removed: string[] } {
  const props = new Map(inputProperties(form).map((p) => [p.id, p]));
  const meta = new Set<string>(META_KEYS);
  const answers: Record<string, unknown> = {};
  const removed: string[] = [];
  for (const [key, value] of Object.entries(item.data ?? {})) {
    const p = props.get(key);
    if (!p) {
      if (!meta.has(key)) removed.push(key);
      continue;
    }
    answers[key] = takeBack(p.type, value);
  }
  return { answers, removed };
}

/**
 * An answer as the update takes it back: files as URL strings, a signature as its file name, a
 * multi-select list without the null or blank items the deployed service refuses (a partial
 * submission may hold `[null]`: docs/service.md, Submissions), others as they are.
 */
function takeBack(type: string | undefined, value: unknown): unknown {
  if (type === 'multi_select' && Array.isArray(value)) return value.filter(choosesOption);
  return type === 'files' ? fileValue(value) : type === 'signature' ? signatureValue(value) : value;
}

/** The completion time the submission holds, when it holds one the service would take back (a whole number of seconds). */
function completionTime(item: NormalizedSubmission): number | undefined {
  const raw = item.completion_time ?? (item.data as Record<string, unknown> | undefined)?.completion_time;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** Whether the list marks the submission as partial (`status` sits inside `data` on the deployed service). */
export function isPartial(item: NormalizedSubmission): boolean {
  const s = (item.data as Record<string, unknown> | undefined)?.status ?? item.status;
  return typeof s === 'string' && s.toLowerCase() === 'partial';
}

/**
 * The one body both services read as "change these fields, keep the rest" (docs/submission-update.md):
 * the spec's service patches with `data` and ignores the rest; the deployed one ignores `data` and
 * replaces the answers with the top-level keys, which are the current answers with the patch laid over
 * them, and the completion time. `is_partial` is never sent: on the deployed service it empties the
 * validated answers.
 */
export function buildUpdateBody(form: Form, item: NormalizedSubmission, patch: Record<string, unknown>): { body: UpdateBody; effects: UpdateSideEffects } {
  const { answers, removed } = currentAnswers(form, item);
  const ct = completionTime(item);
  // A patch may hold files and signatures as the list shows them (a saved list record given to --file or
  // --from): as objects the deployed service drops them, erasing the files, so they are converted like the
  // current answers (docs/submission-update.md).
  const types = new Map(inputProperties(form).map((p) => [p.id, p.type]));
  const top = Object.fromEntries(Object.entries(patch).map(([k, v]) => [k, takeBack(types.get(k), v)]));
  // A url field with file_upload is a file field to the deployed service (it stores the value as a file).
  const uploads = new Set(
    inputProperties(form)
      .filter((p) => p.type === 'url' && p.file_upload === true)
      .map((p) => p.id),
  );
  for (const [k, v] of Object.entries(top)) {
    const type = uploads.has(k) ? 'file upload' : types.get(k);
    if (type === 'files' || type === 'signature' || type === 'file upload') {
      assertHeldFiles(form, k, type, v, (item.data as Record<string, unknown> | undefined)?.[k]);
    }
  }
  assertStorableIds(form, answers, patch);
  // A field called `data` or `completion_time` was refused by assertUpdatable, so nothing is overwritten here.
  const body: UpdateBody = { ...answers, ...top, ...(ct !== undefined ? { completion_time: ct } : {}), data: { ...patch } };
  return { body, effects: { partial: isPartial(item), removed } };
}

/**
 * Refuses an update that sets, or would erase, the answer to a field whose id holds a `.` or `*`. The
 * deployed service validates answers under rules keyed by field id, and Laravel reads those characters
 * in a rule's key as a path into nested input: such an answer never reaches what the service stores
 * (docs/submission-update.md). Setting it would be dropped without a word; a stored one (from another
 * server, or from before the field was renamed) would be erased by any update.
 */
function assertStorableIds(form: Form, answers: Record<string, unknown>, patch: Record<string, unknown>): void {
  const held = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
  const ids = inputProperties(form)
    .map((p) => p.id)
    .filter((id) => /[.*]/.test(id) && (Object.hasOwn(patch, id) || held(answers[id])));
  if (ids.length === 0) return;
  const which = ids.map((id) => `"${id}"`).join(', ');
  throw new UsageError(
    `The service cannot store an answer to a field whose id holds a "." or "*" (${which}): its validation reads the id as a path, so the update would drop that answer and erase any answer stored there; nothing was sent.`,
    'No update through the service, the web interface included, keeps such an answer; leave the submission as it is.',
  );
}

/** A URL without its query (a file's signed URL changes with every list; the file does not). */
function withoutQuery(s: string): string | undefined {
  try {
    const u = new URL(s);
    return /^https?:$/.test(u.protocol) ? `${u.origin}${u.pathname}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a file or signature answer that names a file the submission does not hold. The deployed
 * service keeps only files it stored itself (uploaded through its form): any other URL or name is
 * stored as nothing, so the answer would be erased rather than set (docs/submission-update.md). A
 * patch may clear the answer, or keep some of the files it has.
 */
function assertHeldFiles(form: Form, id: string, type: string, value: unknown, current: unknown): void {
  const held = new Set<string>();
  const hold = (s: unknown) => {
    if (typeof s !== 'string' || s === '') return;
    held.add(s);
    const bare = withoutQuery(s);
    if (bare) held.add(bare);
  };
  for (const c of Array.isArray(current) ? current : [current]) {
    if (c !== null && typeof c === 'object') {
      hold((c as Record<string, unknown>).file_url);
      hold((c as Record<string, unknown>).file_name);
    } else hold(c);
  }
  const wanted = (Array.isArray(value) ? value : [value]).filter((x) => x !== null && x !== undefined && x !== '');
  const foreign = wanted.filter((w) => typeof w !== 'string' || !(held.has(w) || held.has(withoutQuery(w) ?? '')));
  if (foreign.length === 0) return;
  const p = inputProperties(form).find((x) => x.id === id);
  const name = p?.name && p.name !== id ? `"${p.name}" (${id})` : `"${id}"`;
  // A signed file URL (the deployed list signs each file's URL: api/app/Http/Resources/FormSubmissionResource.php:104
  // in OpnForm) carries its signature: an error never shows it.
  throw new UsageError(
    `Field ${name} is a ${type} field, and ${redactQuerySecrets(JSON.stringify(foreign[0]))} is not one of the files this submission holds: the deployed OpnForm service keeps only files it stored itself, and stores anything else as nothing, erasing the answer; nothing was sent.`,
    `A file answer can be cleared (an empty value) or keep some of its files; upload new files in the web interface.`,
  );
}

/** Whether every patched field already holds the value the patch gives it (a resumed line that was applied). */
export function patchApplied(item: NormalizedSubmission, patch: Record<string, unknown>): boolean {
  const data = (item.data ?? {}) as Record<string, unknown>;
  return Object.entries(patch).every(([k, v]) => sameJson(data[k], v));
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // `--set` sends numbers and booleans the service may echo as strings, and the other way round.
  if ((typeof a === 'number' || typeof a === 'boolean') && typeof b === 'string') return String(a) === b;
  if ((typeof b === 'number' || typeof b === 'boolean') && typeof a === 'string') return String(b) === a;
  if (a === undefined || b === undefined) return a === b || (a ?? null) === (b ?? null);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Top-level keys of a `submission list --json` record (either service's); any other key means a plain object of field values. */
const LIST_RECORD_KEYS = new Set(['data', 'id', 'submission_id', 'submitted_at', 'form_id', 'completion_time', 'status', 'created_at', 'updated_at', 'meta']);

/** The answers of a record saved from `submission list --json`, without the keys the list adds inside `data`; undefined for a plain object. */
export function listRecordAnswers(o: Record<string, unknown>): Record<string, unknown> | undefined {
  const data = o.data;
  if (!data || typeof data !== 'object' || Array.isArray(data) || !Object.keys(o).every((k) => LIST_RECORD_KEYS.has(k))) return undefined;
  const meta = new Set<string>(META_KEYS);
  return Object.fromEntries(Object.entries(data as Record<string, unknown>).filter(([k]) => !meta.has(k)));
}

/**
 * Whether an update changes stored data beyond its patch on the deployed service, for good
 * (docs/submission-update.md): a partial submission becomes completed, answers to removed fields are
 * dropped. Such an update needs a yes before it is sent, single or bulk (a bulk run also needs one
 * for active integrations, which run again once per submission).
 */
export function changesBeyondPatch(effects: Pick<UpdateSideEffects, 'partial' | 'removed'>): boolean {
  return effects.partial || effects.removed.length > 0;
}

/** Warnings for what an update changes on the deployed service besides the fields asked for (docs/submission-update.md). */
export function sideEffectWarnings(
  label: string,
  effects: Pick<UpdateSideEffects, 'partial' | 'removed'>,
  active: readonly Record<string, unknown>[] | undefined,
): string[] {
  const out: string[] = [];
  if (effects.partial) out.push(`${label} is a partial submission; on the deployed OpnForm service an update stores it as completed.`);
  if (effects.removed.length > 0) {
    out.push(`${label} holds answers to fields the form no longer has (${effects.removed.join(', ')}); the deployed OpnForm service drops them on update.`);
  }
  out.push(...integrationWarnings(active));
  return out;
}

/**
 * The integrations warning, said once per run, naming the active ones by kind: "the form has 4
 * active integrations; on the deployed OpnForm service they run again for each updated submission:
 * 2 webhooks, 1 Slack, 1 e-mail will fire again."
 */
export function integrationWarnings(active: readonly Record<string, unknown>[] | undefined): string[] {
  if (active === undefined)
    return ["the form's integrations could not be read with this token; on the deployed OpnForm service any active one runs again for each update."];
  if (active.length === 0) return [];
  const n = active.length;
  return [
    `the form has ${n} active integration${n === 1 ? '' : 's'}; on the deployed OpnForm service ${n === 1 ? 'it runs' : 'they run'} again for each updated submission: ${describeKinds(activeByKind(active))} will fire again.`,
  ];
}
