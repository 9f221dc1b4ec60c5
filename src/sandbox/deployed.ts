// Helpers for the deployed flavour: how the deployed OpnForm server reads path ids, renders
// submissions and events, and answers routes that personal access tokens may not use
// (docs/service.md, "The deployed flavour").
import { createHmac } from 'node:crypto';
import type { App } from './context.js';
import { HttpError } from './errors.js';
import { isLayoutBlock, laravelInput } from '../service/forms.js';

// The middleware's reading of a body (src/service/forms.ts), applied to every body on this flavour.
export { laravelInput };
import type { DispatchEvent, Form, FormProperty, Submission } from './model.js';
import { iso } from './views.js';

/**
 * A path id as PHP's `(int)` cast (and MySQL's string-to-number comparison) reads it: the longest
 * numeric prefix, an exponent included, truncated; no prefix is 0. "4b2e…" → 4, "2026e1f3…" → 20260,
 * "e3b0…" → 0. Never a valid id when negative or beyond the safe range.
 */
export function phpInt(raw: string): number {
  const m = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(raw);
  if (!m) return 0;
  const n = Math.trunc(Number(m[0]));
  return Number.isSafeInteger(n) ? n : 0;
}

/** 404 `{"message":""}`: what the deployed server answers a personal access token on a route not open to tokens. */
export function closedToTokens(): HttpError {
  return new HttpError(404, '');
}

/**
 * The deployed server's admin check (`WorkspacePolicy::adminAction`, OpnForm
 * `app/Policies/WorkspacePolicy.php:163-176`): a token without `workspaces-write` fails it like a
 * non-admin (or a non-member). Workspace delete and member add reach it through policies that word
 * the refusal (`::delete`, `::inviteUser`, :96-100,129-133): 403 "You need to be an admin of this
 * workspace to do this." Member role change and removal (`WorkspaceUserController.php:94,118`) and
 * the invite routes (`Auth/UserInviteController.php:20,27,44`) authorize `adminAction` itself, which
 * only returns false: Laravel's own 403 "This action is unauthorized." (docs/service.md, "Workspaces
 * and members").
 */
export function requireAdminAction(
  app: App,
  caller: { user: { id: number }; token: { abilities: readonly string[] } },
  workspaceId: number,
  message = 'You need to be an admin of this workspace to do this.',
): void {
  if (!caller.token.abilities.includes('workspaces-write') || app.store.roleOf(workspaceId, caller.user.id) !== 'admin') {
    throw new HttpError(403, message);
  }
}

/** Laravel's message for a policy that returns false (Illuminate\Auth\Access\AuthorizationException's default). */
export const UNAUTHORIZED = 'This action is unauthorized.';

/** `Y-m-d H:i:s` in UTC, the deployed list's `data.created_at`. */
export function sqlDate(ms: number): string {
  return iso(ms).slice(0, 19).replace('T', ' ');
}

/** `Y-m-d H:i` in UTC: the deployed event's `date` and the deployed export's created_at. */
export function minuteDate(ms: number): string {
  return iso(ms).slice(0, 16).replace('T', ' ');
}

/** The stand-in's alphabet: Hashids' default letters and digits without its separators (cfhistuCFHISTU), in a fixed shuffled order. */
const EXPORT_ID_ALPHABET = '32Dgd4wr8ek5oV1L9OGvzaxlQmNbZXyMBKRYJWPE67p0Anqj';
const EXPORT_ID_STEP = 7919;
const EXPORT_ID_OFFSET = EXPORT_ID_ALPHABET.length ** 2;

/**
 * The deployed export's `id` cell: an opaque code, never the number. The server writes
 * `Hashids::encode($submission->id)` (api/app/Service/Forms/FormExportService.php:55) with the
 * vinkla/hashids package's default connection (api/composer.lock:13467-13473, version 12.0.0; OpnForm
 * ships no config/hashids.php, so the package's own config applies: salt '', minimum length 0, the
 * 62-character alphabet). The sandbox does not reproduce Hashids: it writes `id * 7919 + 48²` in base 48
 * over EXPORT_ID_ALPHABET, a code of 3 or more letters and digits, different for every id, that may be
 * all digits (as a Hashids code may) and is never the id itself (docs/service.md, "Export").
 */
export function exportIdCode(id: number): string {
  let v = id * EXPORT_ID_STEP + EXPORT_ID_OFFSET;
  let out = '';
  while (v > 0) {
    out = EXPORT_ID_ALPHABET[v % EXPORT_ID_ALPHABET.length]! + out;
    v = Math.floor(v / EXPORT_ID_ALPHABET.length);
  }
  return out;
}

/** The id an exportIdCode stands for, or undefined for a string that is not one (for tests and tools that read the sandbox's CSV). */
export function exportIdOf(code: string): number | undefined {
  let v = 0;
  for (const ch of code) {
    const d = EXPORT_ID_ALPHABET.indexOf(ch);
    if (d < 0) return undefined;
    v = v * EXPORT_ID_ALPHABET.length + d;
  }
  const id = (v - EXPORT_ID_OFFSET) / EXPORT_ID_STEP;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * PHP's `empty()` as the deployed server's submission job uses it to leave blank answers out of a new
 * submission: null, an empty list or object, an empty string; 0, "0" and false are kept
 * (api/app/Jobs/Form/StoreFormSubmissionJob.php:303-306).
 */
export function emptyAnswer(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

/** Property types whose answers are stored files, rendered in lists as `[{file_url, file_name}]`. */
export function isFileType(p: FormProperty | undefined): boolean {
  return p?.type === 'files' || p?.type === 'signature';
}

/** A signed, short-lived-looking URL for a stored file name (the sandbox serves no files). */
function fileUrl(app: App, form: Form, name: string): string {
  const sig = createHmac('sha256', 'formctl-sandbox').update(`${form.id}/${name}`).digest('hex').slice(0, 32);
  return `${app.baseUrl}/storage/forms/${form.id}/${encodeURIComponent(name)}?expires=600&signature=${sig}`;
}

function fileNames(v: unknown): string[] {
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x): x is string => typeof x === 'string' && x !== '');
}

/**
 * A submission as the deployed list renders it: numeric `id`, UUID `submission_id`, `completion_time`,
 * `form_id`, and `data` holding the stored answers (also to fields removed since) plus `status`,
 * `created_at` (`Y-m-d H:i:s`), `id` and `submission_id`; files and signatures as `[{file_url, file_name}]`.
 */
export function deployedSubmissionView(app: App, form: Form, sub: Submission): Record<string, unknown> {
  const props = new Map(form.properties.map((p) => [p.id, p]));
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sub.data)) {
    const p = props.get(key);
    if (p && isLayoutBlock(p)) continue;
    data[key] = isFileType(p) ? fileNames(value).map((name) => ({ file_url: fileUrl(app, form, name), file_name: name })) : value;
  }
  const uuid = sub.uuid ?? '';
  Object.assign(data, { status: sub.status ?? 'completed', created_at: sqlDate(sub.created_at), id: sub.id, submission_id: uuid });
  return { data, completion_time: sub.completion_time ?? null, form_id: sub.form_id, id: sub.id, submission_id: uuid };
}

/** The names of the files the form's submissions hold: the files the deployed server has stored for it. */
export function storedFileNames(form: Form, subs: Iterable<Submission>): Set<string> {
  const names = new Set<string>();
  const fileFields = form.properties.filter(isFileType).map((p) => p.id);
  for (const sub of subs) {
    for (const n of sub.files ?? []) names.add(n);
    for (const id of fileFields) for (const n of fileNames(sub.data[id])) names.add(n);
  }
  return names;
}

/**
 * A sent answer to a file field as the deployed server stores it on update: only strings survive,
 * and only when they name a file the server has stored for the form (`stored`): a `file_url` of the
 * server's own origin is reduced to its file name, a name is kept; any other URL or name (the server
 * can neither find it in its storage nor among uploads) is stored as nothing, and objects are dropped,
 * as the server skips them. A signature must be its file name: a URL fails the server's file-name
 * rule and is null.
 */
export function storedFileValue(app: App, p: FormProperty, value: unknown, stored: ReadonlySet<string>): unknown {
  const toName = (s: string): string | null => {
    if (!/^https?:\/\//i.test(s)) return stored.has(s) ? s : null;
    if (p.type === 'signature') return null;
    try {
      const url = new URL(s);
      if (url.origin !== new URL(app.baseUrl).origin) return null;
      const last = url.pathname.split('/').pop() ?? '';
      const name = last ? decodeURIComponent(last) : '';
      return stored.has(name) ? name : null;
    } catch {
      return null;
    }
  };
  if (p.type === 'signature') {
    const s: unknown = Array.isArray(value) ? value[0] : value;
    return typeof s === 'string' ? toName(s) : null;
  }
  const names = (Array.isArray(value) ? value : [value])
    .filter((x): x is string => typeof x === 'string')
    .map(toName)
    .filter((x): x is string => !!x);
  return names;
}

/** A dispatch event as the deployed server renders it: `{date, status: "Success"|"Error", data}`. */
export function deployedEventView(e: DispatchEvent): Record<string, unknown> {
  const ok = e.status === 'success';
  const data = e.data !== undefined ? e.data : ok ? null : { message: e.error_message, status: e.response_code, response: null };
  return { date: minuteDate(e.created_at), status: ok ? 'Success' : 'Error', data };
}
