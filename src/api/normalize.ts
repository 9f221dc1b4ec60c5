// The tolerant reader: the spec, the public OpenAPI document and the deployed service wrap the
// same objects differently. Every known shape is accepted here, in one place, and anything else
// (an HTML page with status 200, an empty body, a bare string, a `data` that is not a list) is
// refused with one clear error instead of becoming an empty list or a crash later
// (docs/security.md, "A broken server cannot fool formctl").
import { CliError, ExitCode } from '../errors.js';

type Obj = Record<string, unknown>;

/** Where an answer came from, for the error: an ApiResponse carries all three. */
export interface Answered {
  status: number;
  method: string;
  path: string;
}

/** An answer without the shape the command needs (exit 1). */
export class UnexpectedAnswerError extends CliError {
  /** What the body was, in a few words (describeBody), for a caller that words the error for its own case. */
  readonly got: string;
  /** True when the body was JSON other than a string (an object, a list, a number, null): a real answer, not a page or a blank. */
  readonly gotJson: boolean;
  constructor(from: Answered | undefined, expected: string, got: unknown) {
    const where = from ? ` (HTTP ${from.status}, ${from.method} ${from.path})` : '';
    super(
      `The service sent an unexpected answer${where}: ${expected} was expected, it sent ${describeBody(got)}.`,
      ExitCode.error,
      from && from.method !== 'GET'
        ? `The service may have applied the ${from.method} anyway: check before you retry. Rerun with --debug to see the exchange.`
        : "Check the base URL (formctl auth status): it must point at the form service's API. Rerun with --debug to see the exchange.",
      { hintChecksBaseUrl: !(from && from.method !== 'GET') },
    );
    this.got = describeBody(got);
    this.gotJson = got !== undefined && typeof got !== 'string';
  }
}

/** A few words on what a body was, never its content (it may hold anything). */
function describeBody(v: unknown): string {
  if (v === undefined || v === '') return 'an empty body';
  if (typeof v === 'string') return /^\s*</.test(v) ? 'an HTML page' : 'a string';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') {
    const keys = Object.keys(v);
    if (isObj(v) && 'data' in v)
      return `an object whose data is ${Array.isArray(v.data) ? 'a list' : v.data === null ? 'null' : typeof v.data === 'object' ? 'an object' : `a ${typeof v.data}`}`;
    return keys.length ? 'an object without the expected fields' : 'an empty object';
  }
  return `a JSON ${typeof v}`;
}

/** True for a plain JSON object (not null, not an array). */
export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Pagination facts from a Laravel `{data, links, meta}` envelope or the spec's `{data, meta}`. */
export interface PageInfo {
  currentPage?: number;
  lastPage?: number;
  perPage?: number;
  total?: number;
  nextUrl?: string | null;
}

/** A list body: a bare array, or an envelope with `data` (and maybe `meta`/`links`). */
export function unwrapList<T = Obj>(body: unknown, from?: Answered): { items: T[]; page?: PageInfo } {
  if (Array.isArray(body)) return { items: body as T[] };
  if (isObj(body) && Array.isArray(body.data)) {
    const meta = isObj(body.meta) ? body.meta : body;
    const links = isObj(body.links) ? body.links : undefined;
    const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
    return {
      items: body.data as T[],
      page: {
        currentPage: num(meta.current_page),
        lastPage: num(meta.last_page),
        perPage: num(meta.per_page),
        total: num(meta.total),
        nextUrl: links ? (typeof links.next === 'string' ? links.next : null) : typeof body.next_page_url === 'string' ? body.next_page_url : undefined,
      },
    };
  }
  for (const key of ['forms', 'submissions', 'users', 'invites', 'integrations', 'events', 'workspaces']) {
    if (isObj(body) && Array.isArray(body[key])) return { items: body[key] as T[] };
  }
  throw new UnexpectedAnswerError(from, 'a list', body);
}

/** A Form bare, or wrapped as `{form}` / `{data}` (deployed create/update answers). */
export function unwrapForm<T = Obj>(body: unknown, from?: Answered): T {
  let form: unknown = body;
  if (isObj(body)) {
    if (isObj(body.form)) form = body.form;
    else if (isObj(body.data) && ('slug' in body.data || 'properties' in body.data)) form = body.data;
  }
  // A form always has an id, and `properties` is a list when present (update sends it back whole).
  if (!isObj(form) || !hasId(form) || ('properties' in form && !Array.isArray(form.properties))) throw new UnexpectedAnswerError(from, 'a form', body);
  return form as T;
}

/** A workspace from create/update answers (`{workspace}`), or bare. */
export function unwrapWorkspace<T = Obj>(body: unknown, from?: Answered): T {
  const ws = isObj(body) && isObj(body.workspace) ? body.workspace : body;
  if (!isObj(ws) || !hasId(ws)) throw new UnexpectedAnswerError(from, 'a workspace', body);
  return ws as T;
}

/** A webhook integration from `{form_integration}`, `{integration}`, `{data}` or bare. */
export function unwrapIntegration<T = Obj>(body: unknown, from?: Answered): T {
  let found: unknown = body;
  if (isObj(body)) {
    for (const key of ['form_integration', 'integration', 'data']) {
      if (isObj(body[key])) {
        found = body[key];
        break;
      }
    }
  }
  if (!isObj(found) || !hasId(found)) throw new UnexpectedAnswerError(from, 'a webhook integration', body);
  return found as T;
}

function hasId(o: Obj): boolean {
  return (typeof o.id === 'number' && Number.isFinite(o.id)) || (typeof o.id === 'string' && o.id !== '');
}

/** A workspace member: role at top level (spec) or in `pivot.role` (deployed). */
export function normalizeMember<T extends Obj>(m: T): T & { role: string | null } {
  const pivot = isObj(m.pivot) ? m.pivot : undefined;
  const role = typeof m.role === 'string' ? m.role : typeof pivot?.role === 'string' ? (pivot.role as string) : null;
  return { ...m, role };
}

/** A submission: `submitted_at` may be absent (deployed keeps `data.created_at`); ids may be numeric or UUID. */
export interface NormalizedSubmission extends Obj {
  submission_id: string;
  submitted_at: string | null;
  data: Obj;
  /** The id to put in PUT/DELETE paths: numeric `id` when present, else `submission_id`. */
  pathId: string;
}

/** Normalises a submission list item from any of the known shapes. */
const BARE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/;
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A time from the service as ISO-8601 UTC (`2026-11-27T15:28:03Z`), whichever way it was sent. The
 * deployed service sends a submission's time as `2026-11-27 15:28:03` (Laravel's toDateTimeString:
 * api/app/Http/Resources/FormSubmissionResource.php:60) and an event's to the minute (`date('Y-m-d
 * H:i', …)`: api/app/Http/Resources/FormIntegrationsEventResource.php:18), both without a zone: they
 * are in the application's zone, UTC (api/config/app.php:106, 'timezone' => 'UTC'). A time with an
 * offset is moved to UTC; one already in UTC (`…Z`), or anything that is no time, is left as it is.
 */
export function isoTime<T>(v: T): T | string {
  if (typeof v !== 'string') return v;
  const bare = BARE_TIME.exec(v);
  if (bare) return `${bare[1]}T${bare[2]}${bare[3] ?? ':00'}Z`;
  if (ZONED_TIME.test(v) && !/Z$/i.test(v)) {
    const t = Date.parse(v.replace(' ', 'T'));
    if (Number.isFinite(t)) return new Date(t).toISOString().replace('.000Z', 'Z');
  }
  return v;
}

export function normalizeSubmission(s: Obj): NormalizedSubmission {
  const data = isObj(s.data) ? s.data : {};
  const id = s.id ?? s.submission_id;
  const submissionId = s.submission_id ?? s.id;
  const submittedAt =
    (typeof s.submitted_at === 'string' ? s.submitted_at : undefined) ??
    (typeof data.created_at === 'string' ? data.created_at : undefined) ??
    (typeof s.created_at === 'string' ? s.created_at : null);
  const times = 'created_at' in s ? { created_at: isoTime(s.created_at) } : {};
  return { ...s, ...times, submission_id: String(submissionId ?? ''), submitted_at: isoTime(submittedAt), data, pathId: String(id ?? '') };
}

/** A dispatch event: spec shape `{id, status success|failed|timeout, response_code, …}` or deployed `{date, status Success|Error, data}`. */
export function normalizeEvent(e: Obj): Obj & { status: string; created_at: string | null } {
  const rawStatus = typeof e.status === 'string' ? e.status.toLowerCase() : 'unknown';
  const status = rawStatus === 'error' ? 'failed' : rawStatus;
  const inner = isObj(e.data) ? e.data : {};
  const createdAt = (e.created_at ?? e.date ?? null) as string | null;
  return {
    id: e.id ?? null,
    integration_id: e.integration_id ?? null,
    event: e.event ?? null,
    status,
    response_code: e.response_code ?? inner.response_code ?? inner.status ?? null,
    error_message: e.error_message ?? inner.error_message ?? inner.message ?? null,
    created_at: isoTime(createdAt),
  };
}

/** Leave answers 204 (spec) or 200 JSON (deployed); both mean success. */
export function messageOf(body: unknown, fallback: string): string {
  return isObj(body) && typeof body.message === 'string' ? body.message : fallback;
}
