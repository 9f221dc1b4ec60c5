import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isLayoutBlock } from './form-rules.js';
import type { Form, FormProperty, Submission } from './model.js';
import type { Store } from './store.js';
import { Errors, isObject } from './validation.js';
import { iso } from './views.js';

const BOM = '\uFEFF';
const ROWS_PER_CHUNK = 500; // the deployed job also works in chunks of 500 (research §4.5)
const STATUS_TTL_MS = 2 * 3_600_000; // research §4.4: the job status is kept for 2 hours
const FILE_TTL_MS = 24 * 3_600_000; // research §4.5: file links expire after 24 h by default

export interface ExportColumns {
  /** Property columns in the order the request listed them. */
  properties: FormProperty[];
  /** `created_at` goes last wherever it was listed (research §4.6). */
  createdAt: boolean;
}

/** Validates `{columns: {propId|created_at: bool}}`; unknown keys are 422 under `columns.<key>`. */
export function parseColumns(form: Form, body: Record<string, unknown>): ExportColumns {
  const errors = new Errors();
  const columns = body.columns;
  if (!isObject(columns) || Object.keys(columns).length === 0) {
    errors.add('columns', 'The columns field is required and must be an object of column ids to true/false.');
    errors.throwIfAny();
  }
  const byId = new Map(form.properties.map((p) => [p.id, p]));
  const out: ExportColumns = { properties: [], createdAt: false };
  for (const [key, include] of Object.entries(columns as Record<string, unknown>)) {
    const p = byId.get(key);
    if (typeof include !== 'boolean') errors.add(`columns.${key}`, `The columns.${key} field must be true or false.`);
    else if (key !== 'created_at' && !p) errors.add(`columns.${key}`, `'${key}' is not a property of this form (use a property id or created_at).`);
    else if (!include) continue;
    else if (key === 'created_at') out.createdAt = true;
    else if (p && !isLayoutBlock(p)) out.properties.push(p);
  }
  errors.throwIfAny();
  return out;
}

/**
 * `submissionIds` (optional): the numeric ids to export, as the deployed server takes them; ids of
 * other forms or unknown ids are simply not exported. Undefined when absent.
 */
export function parseSubmissionIds(body: Record<string, unknown>): Set<number> | undefined {
  const v = body.submissionIds;
  if (v === undefined || v === null) return undefined;
  const errors = new Errors();
  const ids = new Set<number>();
  if (!Array.isArray(v)) errors.add('submissionIds', 'The submission ids field must be an array.');
  else {
    v.forEach((x, i) => {
      const n = typeof x === 'number' ? x : typeof x === 'string' && /^\d{1,15}$/.test(x) ? Number(x) : Number.NaN;
      if (!Number.isSafeInteger(n) || n < 1) errors.add(`submissionIds.${i}`, `The submissionIds.${i} field must be an integer.`);
      else ids.add(n);
    });
  }
  errors.throwIfAny();
  return ids;
}

/** `{slug}-submission-data.csv` (research §4.3). */
export function csvFilename(form: Form): string {
  return `${form.slug}-submission-data.csv`;
}

/**
 * Header text of a property column. The deployed server keys columns as "{name} ({id})" and strips
 * with the greedy /\s\(.*\)/ (research §4.6), so a name like "Age (years)" is exported as "Age".
 */
function headerOf(p: FormProperty): string {
  return `${p.name} (${p.id})`.replace(/\s\(.*\)/, '');
}

/** RFC 4180 quoting: only fields with a comma, quote or line break are quoted. */
function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A stored answer as CSV text: lists joined with ", ", objects as JSON, null as empty. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(cellText).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** `Y-m-d H:i` in UTC, the deployed export's created_at format. */
function exportDate(ms: number): string {
  return iso(ms).slice(0, 16).replace('T', ' ');
}

/**
 * The export CSV in chunks of text: BOM and header first, then rows newest first, 500 at a time.
 * The sync response and the async job both consume this one generator, so their bytes are identical.
 */
export function* csvChunks(store: Store, form: Form, cols: ExportColumns, only?: Set<number>): Generator<{ text: string; rows: number }> {
  const header = ['id', ...cols.properties.map(headerOf), ...(cols.createdAt ? ['created_at'] : [])];
  yield { text: `${BOM}${header.map(csvField).join(',')}\n`, rows: 0 };
  let subs: Submission[] = [...store.submissionsOf(form.id).values()];
  if (only) subs = subs.filter((s) => only.has(s.id));
  for (let end = subs.length; end > 0; end -= ROWS_PER_CHUNK) {
    let text = '';
    const start = Math.max(0, end - ROWS_PER_CHUNK);
    for (let i = end - 1; i >= start; i--) {
      const sub = subs[i]!;
      const row = [String(sub.id)];
      for (const p of cols.properties) row.push(cellText(sub.data[p.id]));
      if (cols.createdAt) row.push(exportDate(sub.created_at));
      text += `${row.map(csvField).join(',')}\n`;
    }
    yield { text, rows: end - start };
  }
}

/** Resolves when the response can take more data (or is gone). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Streams a body with backpressure, so a big export never becomes one big string. */
export async function streamBody(res: ServerResponse, headers: Record<string, string>, chunks: Iterable<string | Uint8Array>): Promise<void> {
  res.writeHead(200, headers);
  for (const chunk of chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await drained(res);
  }
  res.end();
}

/** The text of each CSV chunk. */
export function* csvTexts(chunks: Iterable<{ text: string }>): Generator<string> {
  for (const chunk of chunks) yield chunk.text;
}

/** Response headers of a CSV download (sync export and async file alike). */
export function csvHeaders(filename: string): Record<string, string> {
  return { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="${filename}"` };
}

type JobStatus = 'queued' | 'processing' | 'completed' | 'failed';

interface Job {
  id: string;
  formId: number;
  status: JobStatus;
  progress: number;
  processed: number;
  total: number;
  /** Capability in the download URL; the file link needs no Authorization header (like a pre-signed URL). */
  token: string;
  filename: string;
  file: Buffer[] | null;
  errorMessage: string | null;
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * Asynchronous exports (above the threshold). A job is `queued` for one step, then `processing`
 * while it renders the CSV in chunks (progress 0..90) and for one more step, then `completed`
 * (progress 100) with a file_url. Jobs live in memory only, like the deployed server's cache.
 */
export class ExportJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly stepMs: number,
    private readonly baseUrl: () => string,
  ) {}

  /** Starts a job for the form and columns; returns its id. */
  start(form: Form, cols: ExportColumns, only?: Set<number>): string {
    this.sweep();
    const now = this.now();
    const job: Job = {
      id: randomUUID(),
      formId: form.id,
      status: 'queued',
      progress: 0,
      processed: 0,
      total: only ? [...this.store.submissionsOf(form.id).keys()].filter((id) => only.has(id)).length : this.store.submissionsOf(form.id).size,
      token: randomBytes(24).toString('base64url'),
      filename: csvFilename(form),
      file: null,
      errorMessage: null,
      expiresAt: null,
      createdAt: now,
      updatedAt: now,
    };
    this.jobs.set(job.id, job);
    this.after(this.stepMs, () => void this.run(job, form, cols, only));
    return job.id;
  }

  /** The job of this form, unless unknown or older than the status lifetime. */
  find(formId: number, jobId: string): Job | undefined {
    const job = this.jobs.get(jobId);
    if (!job || job.formId !== formId || this.now() - job.createdAt > STATUS_TTL_MS) return undefined;
    return job;
  }

  /** Status body: the research's ten keys (§4.5), always present, null when unknown. */
  statusView(job: Job): Record<string, unknown> {
    return {
      job_id: job.id,
      status: job.status,
      progress: job.progress,
      processed_submissions: job.processed,
      total_submissions: job.total,
      file_url: job.status === 'completed' ? `${this.baseUrl()}/exports/${job.id}?token=${job.token}` : null,
      error_message: job.errorMessage,
      expires_at: job.expiresAt === null ? null : iso(job.expiresAt),
      created_at: iso(job.createdAt),
      updated_at: iso(job.updatedAt),
    };
  }

  /** The finished file for a download link, or why not: 'missing' (→ 404) or 'expired' (→ 410). */
  download(jobId: string, token: string): { filename: string; file: Buffer[] } | 'missing' | 'expired' {
    const job = this.jobs.get(jobId);
    if (!job || !job.file || !sameToken(job.token, token)) return 'missing';
    if (job.expiresAt !== null && this.now() >= job.expiresAt) return 'expired';
    return { filename: job.filename, file: job.file };
  }

  /** Stops all timers and running jobs (sandbox close). */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private after(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
    }, ms);
    this.timers.add(t);
  }

  private set(job: Job, patch: Partial<Job>): void {
    Object.assign(job, patch, { updatedAt: this.now() });
  }

  private async run(job: Job, form: Form, cols: ExportColumns, only?: Set<number>): Promise<void> {
    this.set(job, { status: 'processing', progress: 0 });
    const file: Buffer[] = [];
    for (const chunk of csvChunks(this.store, form, cols, only)) {
      file.push(Buffer.from(chunk.text, 'utf8'));
      if (chunk.rows > 0) {
        const processed = job.processed + chunk.rows;
        this.set(job, { processed, progress: job.total ? Math.floor((processed / job.total) * 90) : 90 });
        // Yield between chunks so a big export never stalls other requests.
        await new Promise((resolve) => setImmediate(resolve));
        if (this.closed) return;
      }
    }
    if (!this.store.forms.has(form.id)) {
      this.set(job, { status: 'failed', errorMessage: 'The form was deleted during the export.' });
      return;
    }
    this.set(job, { progress: 90 });
    this.after(this.stepMs, () => {
      this.set(job, { status: 'completed', progress: 100, file, expiresAt: this.now() + FILE_TTL_MS });
    });
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, job] of this.jobs) {
      if (now - job.createdAt > STATUS_TTL_MS && (job.expiresAt === null || now >= job.expiresAt)) this.jobs.delete(id);
    }
  }
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
