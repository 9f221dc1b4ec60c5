import type { ServerResponse } from 'node:http';
import { type RecordedRequest, type StubServer, json, startStubServer } from './http.js';

/**
 * A small stand-in for the two services' submission routes, for unit tests (the sandbox runs the
 * same in end-to-end tests). `deployed` follows the deployed OpnForm server as docs/submission-update.md
 * describes it: an update replaces the answers with the top-level field ids (required fields checked,
 * `data` ignored, `is_partial` empties it, captcha forms always 422), path ids are read as their
 * leading digits, the export status route answers 404 {"message":""}, and an export is synchronous
 * only up to 1,000 rows or 1,000 `submissionIds`. `spec` patches with `data` and ignores the rest.
 */
export interface FakeSubmission {
  id: number;
  uuid: string;
  data: Record<string, unknown>;
  completion_time: number | null;
  status: 'completed' | 'partial';
  created_at: string;
}

export interface FakeOptions {
  flavor: 'spec' | 'deployed';
  form: Record<string, unknown> & { id: number; slug: string; properties: Array<Record<string, unknown>> };
  submissions: FakeSubmission[];
  integrations?: Array<Record<string, unknown>>;
  perPage?: number;
  /** Sent as X-RateLimit-Limit on list pages (the general limit). */
  listRateLimit?: number;
}

export interface SubmissionFake extends StubServer {
  subs: Map<number, FakeSubmission>;
  /** PUT/DELETE paths as sent, and the submission ids they reached. */
  puts: Array<{ path: string; target: number; body: Record<string, unknown> }>;
  deletes: Array<{ path: string; target: number }>;
  listRequests: () => number;
  exportRequests: () => RecordedRequest[];
  fired: number;
}

/** PHP's (int) cast of a numeric-looking string: its leading digits, else 0. */
export function phpInt(s: string): number {
  const m = /^\s*(\d+)/.exec(s);
  return m ? Number(m[1]) : 0;
}

/** A UUID whose first characters are digits, as real ones often are (the leading-digits trap). */
export function uuidFor(id: number): string {
  // Two leading digits, so that a path reading it as a number lands on another submission.
  return `${((id * 7) % 90) + 10}b2e9c1-0000-4000-8000-${id.toString(16).padStart(12, '0')}`;
}

export function makeSubmissions(n: number, answers: (i: number) => Record<string, unknown>): FakeSubmission[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + 1;
    return {
      id: i,
      uuid: uuidFor(i),
      data: answers(i),
      completion_time: 30 + i,
      status: 'completed',
      created_at: `2026-01-01 10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
    };
  });
}

function listView(s: FakeSubmission, flavor: 'spec' | 'deployed', form: FakeOptions['form']): Record<string, unknown> {
  if (flavor === 'spec') return { id: s.id, submission_id: String(s.id), submitted_at: `${s.created_at.replace(' ', 'T')}.000Z`, data: { ...s.data } };
  const data: Record<string, unknown> = {};
  const types = new Map(form.properties.map((p) => [p.id as string, p.type as string]));
  for (const [k, v] of Object.entries(s.data)) {
    // The deployed list turns stored file names into [{file_url, file_name}].
    const t = types.get(k);
    if ((t === 'files' || t === 'signature') && v !== null && v !== undefined) {
      const names = Array.isArray(v) ? v : [v];
      data[k] = names.map((n) => ({ file_url: `https://files.example/${String(n)}?sig=x`, file_name: String(n) }));
    } else data[k] = v;
  }
  Object.assign(data, { status: s.status, created_at: s.created_at, id: s.id, submission_id: s.uuid });
  return { data, completion_time: s.completion_time, form_id: form.id, id: s.id, submission_id: s.uuid };
}

function csv(form: FakeOptions['form'], rows: FakeSubmission[], columns: string[]): string {
  const q = (v: unknown) => `"${String(v ?? '').replace(/"/g, '""')}"`;
  const lines = [['id', ...columns].map(q).join(',')];
  for (const r of rows) lines.push([r.id, ...columns.map((c) => (c === 'created_at' ? r.created_at : r.data[c]))].map(q).join(','));
  return `\ufeff${lines.join('\n')}\n`;
}

export async function startSubmissionFake(o: FakeOptions): Promise<SubmissionFake> {
  const subs = new Map(o.submissions.map((s) => [s.id, s]));
  const puts: SubmissionFake['puts'] = [];
  const deletes: SubmissionFake['deletes'] = [];
  const perPage = o.perPage ?? 100;
  const props = () => o.form.properties.filter((p) => !String(p.type).startsWith('nf-'));
  let fired = 0;
  const fake = await startStubServer((req: RecordedRequest, res: ServerResponse) => {
    const u = new URL(req.url, 'http://x');
    const path = u.pathname;
    const f = `/open/forms/${o.form.id}`;
    if (req.method === 'GET' && (path === f || path === `/open/forms/${o.form.slug}`)) return json(res, 200, o.form);
    if (req.method === 'GET' && path === `${f}/integrations`) return json(res, 200, o.integrations ?? []);
    if (req.method === 'GET' && path === `${f}/submissions`) {
      const all = [...subs.values()].sort((a, b) => b.id - a.id);
      const page = Number(u.searchParams.get('page') ?? 1);
      const per = Math.min(Number(u.searchParams.get('per_page') ?? perPage), perPage);
      const last = Math.max(1, Math.ceil(all.length / per));
      const items = all.slice((page - 1) * per, page * per).map((s) => listView(s, o.flavor, o.form));
      const headers: Record<string, string> = o.listRateLimit
        ? { 'x-ratelimit-limit': String(o.listRateLimit), 'x-ratelimit-remaining': String(o.listRateLimit - 1) }
        : {};
      return json(
        res,
        200,
        { data: items, links: { next: page < last ? 'next' : null }, meta: { current_page: page, last_page: last, per_page: per, total: all.length } },
        headers,
      );
    }
    const m = /^\/open\/forms\/\d+\/submissions\/([^/]+)$/.exec(path);
    if (m && (req.method === 'PUT' || req.method === 'DELETE')) {
      const raw = decodeURIComponent(m[1]!);
      const target = o.flavor === 'deployed' ? phpInt(raw) : /^\d+$/.test(raw) ? Number(raw) : 0;
      const sub = subs.get(target);
      if (req.method === 'DELETE') {
        deletes.push({ path, target });
        if (!sub) return json(res, 404, { message: 'Submission not found.' });
        subs.delete(target);
        return json(res, 200, { message: 'Record successfully removed.' });
      }
      const body = JSON.parse(req.body || '{}') as Record<string, unknown>;
      puts.push({ path, target, body });
      if (!sub) return json(res, 404, { message: 'No query results for model [FormSubmission].' });
      if (o.flavor === 'spec') {
        const data = body.data as Record<string, unknown>;
        const known = new Set(props().map((p) => p.id));
        const bad = Object.keys(data ?? {}).filter((k) => !known.has(k));
        if (!data || bad.length) return json(res, 422, { message: 'Invalid.', errors: { data: ['bad'] } });
        Object.assign(sub.data, data);
        return json(res, 200, { message: 'Record successfully updated.' });
      }
      if (o.form.use_captcha)
        return json(res, 422, { message: 'Please complete the captcha.', errors: { 'h-captcha-response': ['Please complete the captcha.'] } });
      const rules = body.is_partial === true ? [] : props();
      const errors: Record<string, string[]> = {};
      for (const p of rules)
        if (p.required === true && (body[p.id as string] === undefined || body[p.id as string] === null || body[p.id as string] === ''))
          errors[p.id as string] = [`The ${p.name} field is required.`];
      if (Object.keys(errors).length) return json(res, 422, { message: 'The given data was invalid.', errors });
      const next: Record<string, unknown> = {};
      for (const p of rules) {
        const v = body[p.id as string];
        if (v === undefined) continue;
        if (p.type === 'files') {
          // Objects are not stored (the server skips them); URL strings are kept as the file names.
          if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
            next[p.id as string] = v.map((x) =>
              String(x)
                .replace(/^https:\/\/files\.example\//, '')
                .replace(/\?.*$/, ''),
            );
          continue;
        }
        if (p.type === 'signature') {
          if (typeof v === 'string' && /^[\w.-]+$/.test(v)) next[p.id as string] = v;
          continue;
        }
        next[p.id as string] = v;
      }
      sub.data = next;
      sub.completion_time = typeof body.completion_time === 'number' ? body.completion_time : null;
      sub.status = 'completed';
      fired += (o.integrations ?? []).filter((i) => i.status === 'active').length;
      return json(res, 200, { type: 'success', message: 'Record successfully updated.' });
    }
    if (req.method === 'POST' && path === `${f}/submissions/export`) {
      const body = JSON.parse(req.body || '{}') as { columns?: Record<string, boolean>; submissionIds?: number[] };
      const columns = Object.keys(body.columns ?? {});
      const ids = body.submissionIds;
      const count = ids ? ids.length : subs.size;
      if (count > 1000) return json(res, 200, { type: 'success', message: 'Export started.', job_id: '0f6c7d1e-aaaa-4bbb-8ccc-000000000001', is_async: true });
      const rows = ids ? ids.map((id) => subs.get(id)).filter((s): s is FakeSubmission => s !== undefined) : [...subs.values()].sort((a, b) => b.id - a.id);
      res.writeHead(200, { 'content-type': 'text/csv; charset=UTF-8', 'content-disposition': `attachment; filename=${o.form.slug}-submission-data.csv` });
      res.end(csv(o.form, rows, columns));
      return;
    }
    if (req.method === 'GET' && /\/submissions\/export\//.test(path)) {
      // Deployed: the code's path is closed to tokens, the docs' path is no route at all.
      if (o.flavor === 'deployed' && /\/export\/status\/[^/]+$/.test(path)) return json(res, 404, { message: '' });
      if (o.flavor === 'deployed') return json(res, 404, { message: `The route ${path.replace(/^\//, '')} could not be found.` });
      return json(res, 200, { status: 'processing', progress: 10 });
    }
    json(res, 404, { message: `no route ${req.method} ${path}` });
  });
  const out = Object.assign(fake, {
    subs,
    puts,
    deletes,
    listRequests: () => fake.requests.filter((r) => r.method === 'GET' && /\/submissions\?/.test(r.url)).length,
    exportRequests: () => fake.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/submissions/export')),
    fired: 0,
  });
  Object.defineProperty(out, 'fired', { get: () => fired });
  return out;
}
