// The tolerant reader (FIDELITY.md): the spec, the public OpenAPI document and the deployed service
// wrap the same objects differently. Every shape is accepted here, in one place.

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
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
export function unwrapList<T = Obj>(body: unknown): { items: T[]; page?: PageInfo } {
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
  return { items: [] };
}

/** A Form bare, or wrapped as `{form}` / `{data}` (deployed create/update answers). */
export function unwrapForm<T = Obj>(body: unknown): T {
  if (isObj(body)) {
    if (isObj(body.form)) return body.form as T;
    if (isObj(body.data) && ('slug' in body.data || 'properties' in body.data)) return body.data as T;
  }
  return body as T;
}

/** A workspace from create/update answers (`{workspace}`), or bare. */
export function unwrapWorkspace<T = Obj>(body: unknown): T {
  if (isObj(body) && isObj(body.workspace)) return body.workspace as T;
  return body as T;
}

/** A webhook integration from `{form_integration}`, `{integration}`, `{data}` or bare. */
export function unwrapIntegration<T = Obj>(body: unknown): T {
  if (isObj(body)) {
    for (const key of ['form_integration', 'integration', 'data']) {
      if (isObj(body[key])) return body[key] as T;
    }
  }
  return body as T;
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
export function normalizeSubmission(s: Obj): NormalizedSubmission {
  const data = isObj(s.data) ? s.data : {};
  const id = s.id ?? s.submission_id;
  const submissionId = s.submission_id ?? s.id;
  const submittedAt =
    (typeof s.submitted_at === 'string' ? s.submitted_at : undefined) ??
    (typeof data.created_at === 'string' ? data.created_at : undefined) ??
    (typeof s.created_at === 'string' ? s.created_at : null);
  return { ...s, submission_id: String(submissionId ?? ''), submitted_at: submittedAt, data, pathId: String(id ?? '') };
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
    created_at: createdAt,
  };
}

/** Leave answers 204 (spec) or 200 JSON (deployed); both mean success. */
export function messageOf(body: unknown, fallback: string): string {
  return isObj(body) && typeof body.message === 'string' ? body.message : fallback;
}
