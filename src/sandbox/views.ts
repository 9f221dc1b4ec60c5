// How records look on the wire. One function per resource shape of the spec.
import type { App } from './context.js';
import type { DispatchEvent, Form, Integration, Invite, Role, Submission, User, Workspace } from './model.js';

/** ISO 8601 rendering of an epoch-ms timestamp. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

const UNITS: [string, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

/** "3 minutes ago", in the wording of Carbon's diffForHumans that the deployed server uses. */
export function humanSince(ms: number, now: number): string {
  const diff = now - ms;
  const future = diff < 0;
  const abs = Math.abs(diff);
  for (const [unit, size] of UNITS) {
    const n = Math.floor(abs / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ${future ? 'from now' : 'ago'}`;
  }
  return 'just now';
}

/** Workspace (spec, Workspace). `settings` is left out of the update response (spec, PUT workspace). */
export function workspaceView(ws: Workspace, role: Role | undefined, withSettings = true): Record<string, unknown> {
  const view: Record<string, unknown> = { id: ws.id, name: ws.name, icon: ws.icon };
  if (withSettings) view.settings = ws.settings;
  view.max_file_size = 10;
  view.is_readonly = role === 'readonly';
  return view;
}

/** Member list entry `{id, name, email, role}` (spec, Workspace user). */
export function memberView(user: User, role: Role): Record<string, unknown> {
  return { id: user.id, name: user.name, email: user.email, role };
}

/** Deployed flavour: the user's public columns and the role in `pivot.role` (no top-level `role`). */
export function deployedMemberView(user: User, workspaceId: number, role: Role): Record<string, unknown> {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    email_verified_at: iso(user.created_at),
    created_at: iso(user.created_at),
    updated_at: iso(user.created_at),
    photo_url: null,
    is_blocked: false,
    pivot: { workspace_id: workspaceId, user_id: user.id, role },
  };
}

/** Invite without its token (spec, Invite). */
export function inviteView(inv: Invite): Record<string, unknown> {
  return {
    id: inv.id,
    workspace_id: inv.workspace_id,
    email: inv.email,
    role: inv.role,
    status: inv.status,
    valid_until: iso(inv.valid_until),
    created_at: iso(inv.created_at),
    updated_at: iso(inv.updated_at),
  };
}

function computed(app: App, form: Form) {
  const now = app.opts.now();
  const submissions = app.store.submissionsOf(form.id).size;
  const closesAt = form.attrs.closes_at as string | null;
  const max = form.attrs.max_submissions_count as number | null;
  return {
    submissions_count: submissions,
    // Sandbox rule: a form is closed when its visibility is `closed` or its closes_at has passed.
    is_closed: form.attrs.visibility === 'closed' || (closesAt !== null && Date.parse(closesAt) <= now),
    max_number_of_submissions_reached: max !== null && submissions >= max,
    share_url: `${app.baseUrl}/forms/${encodeURIComponent(form.slug)}`,
    last_edited_human: humanSince(form.updated_at, now),
  };
}

/** Form summary for the workspace form list: the spec's fields, no `properties`. */
export function formSummary(app: App, form: Form): Record<string, unknown> {
  const c = computed(app, form);
  return {
    id: form.id,
    slug: form.slug,
    title: form.attrs.title,
    visibility: form.attrs.visibility,
    tags: form.attrs.tags,
    views_count: form.views_count,
    submissions_count: c.submissions_count,
    created_at: iso(form.created_at),
    updated_at: iso(form.updated_at),
    last_edited_human: c.last_edited_human,
    closes_at: form.attrs.closes_at,
    is_closed: c.is_closed,
    max_submissions_count: form.attrs.max_submissions_count,
    max_number_of_submissions_reached: c.max_number_of_submissions_reached,
    is_pro: false,
    workspace_id: form.workspace_id,
    share_url: c.share_url,
  };
}

/** Full form (get, create, update): every stored attribute, `properties`, and the summary's computed fields. */
export function formFull(app: App, form: Form): Record<string, unknown> {
  const c = computed(app, form);
  return {
    id: form.id,
    slug: form.slug,
    workspace_id: form.workspace_id,
    ...form.attrs,
    properties: form.properties,
    // The deployed server shows it to members (OpnForm `api/app/Http/Resources/FormResource.php:42`,
    // [] for a form never updated: the column's default); the spec flavour fills the gap the same way.
    removed_properties: form.removed_properties ?? [],
    views_count: form.views_count,
    submissions_count: c.submissions_count,
    is_closed: c.is_closed,
    max_number_of_submissions_reached: c.max_number_of_submissions_reached,
    is_pro: false,
    share_url: c.share_url,
    created_at: iso(form.created_at),
    updated_at: iso(form.updated_at),
    last_edited_human: c.last_edited_human,
  };
}

/** Submission list item: the spec's fields plus the numeric `id` that PUT/DELETE paths take (docs/service.md, Submissions). */
export function submissionView(sub: Submission): Record<string, unknown> {
  return { id: sub.id, submission_id: String(sub.id), submitted_at: iso(sub.created_at), data: sub.data };
}

/** Webhook integration with its stored data (secret and headers echoed, as the spec says). */
export function integrationView(i: Integration): Record<string, unknown> {
  return {
    id: i.id,
    form_id: i.form_id,
    integration_id: i.integration_id,
    status: i.status,
    data: { webhook_url: i.data.webhook_url, webhook_secret: i.data.webhook_secret, webhook_headers: i.data.webhook_headers },
    logic: i.logic,
    created_at: iso(i.created_at),
    updated_at: iso(i.updated_at),
  };
}

/** Deployed flavour: every column of the row, any kind, `logic` `[]` when empty, `oauth_id`, `deleted_at`, `provider`. */
export function deployedIntegrationView(i: Integration): Record<string, unknown> {
  return {
    id: i.id,
    form_id: i.form_id,
    status: i.status,
    integration_id: i.integration_id,
    logic: i.logic ?? [],
    data: i.data,
    oauth_id: null,
    created_at: iso(i.created_at),
    updated_at: iso(i.updated_at),
    deleted_at: null,
    provider: null,
  };
}

/** Dispatch event record in the spec's shape. */
export function eventView(e: DispatchEvent): Record<string, unknown> {
  return {
    id: e.id,
    integration_id: e.integration_id,
    event: e.event,
    status: e.status,
    response_code: e.response_code,
    error_message: e.error_message,
    created_at: iso(e.created_at),
  };
}

/**
 * Laravel's paginated resource envelope `{data, links, meta}` (docs/service-details.md, Pagination), so that a client written
 * against the deployed server pages the sandbox the same way. Other query parameters are kept in links.
 */
export function paginate<T>(items: T[], page: number, perPage: number, app: App, url: URL, render: (item: T) => unknown): Record<string, unknown> {
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const current = Math.max(1, page);
  const start = (current - 1) * perPage;
  const slice = items.slice(start, start + perPage);
  const path = `${app.baseUrl}${url.pathname}`;
  const pageUrl = (n: number): string => {
    const q = new URLSearchParams(url.search);
    q.delete('page');
    q.set('page', String(n));
    return `${path}?${q.toString()}`;
  };
  const prev = current > 1 ? pageUrl(Math.min(current - 1, lastPage)) : null;
  const next = current < lastPage ? pageUrl(current + 1) : null;
  const links: { url: string | null; label: string; active: boolean }[] = [{ url: prev, label: '&laquo; Previous', active: false }];
  for (const n of pageWindow(current, lastPage)) {
    links.push(n === null ? { url: null, label: '...', active: false } : { url: pageUrl(n), label: String(n), active: n === current });
  }
  links.push({ url: next, label: 'Next &raquo;', active: false });
  return {
    data: slice.map(render),
    links: { first: pageUrl(1), last: pageUrl(lastPage), prev, next },
    meta: {
      current_page: current,
      from: slice.length ? start + 1 : null,
      last_page: lastPage,
      links,
      path,
      per_page: perPage,
      to: slice.length ? start + slice.length : null,
      total,
    },
  };
}

/** Page numbers for meta.links: all of them when few, else both ends and a window around the current page. */
function pageWindow(current: number, last: number): (number | null)[] {
  if (last <= 13) return Array.from({ length: last }, (_, i) => i + 1);
  const out: (number | null)[] = [1, 2];
  const from = Math.max(3, Math.min(current - 3, last - 8));
  const to = Math.min(last - 2, Math.max(current + 3, 9));
  if (from > 3) out.push(null);
  for (let n = from; n <= to; n++) out.push(n);
  if (to < last - 2) out.push(null);
  out.push(last - 1, last);
  return out;
}
