// Asynchronous exports of the sandbox: the job store, its status view and the download links.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readSync, readdirSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Form } from '../model.js';
import type { Store } from '../store.js';
import { iso } from '../views.js';
import { type ExportColumns, csvChunks, csvFilename } from './csv.js';

// docs/service-details.md, "Export": the job status is kept for 2 hours, file links expire after 24 h.
const STATUS_TTL_MS = 2 * 3_600_000;
const FILE_TTL_MS = 24 * 3_600_000;
/**
 * At most this many jobs are kept: starting one more forgets the oldest (its status then answers 404
 * "Export job not found or has expired.", as the server's cache does once a job's entry is gone,
 * FormSubmissionController.php:127-131; its file link answers 404). Their files are on disk, so
 * memory stays flat whatever the exports' size (docs/sandbox.md).
 */
export const MAX_EXPORT_JOBS = 50;

/** The job files' directory: this prefix, the sandbox's process id, a random part (under the system's temp directory). */
export const EXPORT_DIR_PREFIX = 'formctl-sandbox-exports-';

/**
 * Removes the export directories of sandboxes whose process is gone: one killed with SIGKILL could not
 * remove its own (docs/sandbox.md). A process id that answers, or that this user may not signal, counts
 * as running; a directory without a process id in its name is left alone.
 */
function sweepDeadExportDirs(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^formctl-sandbox-exports-(\d+)-/.exec(name)?.[1] ?? NaN);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || running(pid)) continue;
    try {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // Another user's directory (the temp directory's sticky bit): not ours to remove.
    }
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
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
  /** The finished file on disk (in the sandbox's temporary export directory), once completed. */
  file: string | null;
  /** Forgotten (over the cap): a run still rendering stops and removes its file. */
  gone?: boolean;
  errorMessage: string | null;
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * Asynchronous exports (above the threshold). A job is `queued` for one step, then `processing`
 * while it renders the CSV in chunks (progress 0..90) and for one more step, then `completed`
 * (progress 100) with a file_url. Jobs live in memory only, like the deployed server's cache; their
 * files are in a temporary directory, removed when the sandbox closes or its process ends.
 */
export class ExportJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  /** Where job files are written: a temporary directory made on the first job, removed on close (or at process exit). */
  private dir: string | undefined;
  private readonly removeDir = (): void => {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  };

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
    // Over the cap, the oldest jobs are forgotten (Map iteration follows insertion order).
    for (const old of this.jobs.values()) {
      if (this.jobs.size <= MAX_EXPORT_JOBS) break;
      this.forget(old);
    }
    this.after(this.stepMs, () => void this.run(job, form, cols, only));
    return job.id;
  }

  /** The job of this form, unless unknown or older than the status lifetime. */
  find(formId: number, jobId: string): Job | undefined {
    const job = this.jobs.get(jobId);
    if (!job || job.formId !== formId || this.now() - job.createdAt > STATUS_TTL_MS) return undefined;
    return job;
  }

  /** Status body: the ten keys of the spec's status answer (docs/service-details.md, "Export"), always present, null when unknown. */
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
  download(jobId: string, token: string): { filename: string; size: number; file: Iterable<Uint8Array> } | 'missing' | 'expired' {
    const job = this.jobs.get(jobId);
    if (!job || !job.file || !sameToken(job.token, token)) return 'missing';
    if (job.expiresAt !== null && this.now() >= job.expiresAt) return 'expired';
    const size = statSync(job.file, { throwIfNoEntry: false })?.size;
    if (size === undefined) return 'missing';
    return { filename: job.filename, size, file: fileChunks(job.file) };
  }

  /** Jobs kept (at most MAX_EXPORT_JOBS). */
  get size(): number {
    return this.jobs.size;
  }

  /** Stops all timers and running jobs, and removes the job files (sandbox close). */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.removeDir();
    process.off('exit', this.removeDir);
  }

  private forget(job: Job): void {
    this.jobs.delete(job.id);
    job.gone = true;
    if (job.file) unlinkQuietly(job.file);
  }

  private fileFor(job: Job): string {
    if (!this.dir) {
      sweepDeadExportDirs();
      this.dir = mkdtempSync(join(tmpdir(), `${EXPORT_DIR_PREFIX}${process.pid}-`));
      // A sandbox that is not closed (its process ends) still leaves no files behind.
      process.on('exit', this.removeDir);
    }
    return join(this.dir, `${job.id}.csv`);
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
    if (job.gone) return;
    this.set(job, { status: 'processing', progress: 0 });
    const path = this.fileFor(job);
    const fd = openSync(path, 'w', 0o600);
    let kept = false;
    try {
      for (const chunk of csvChunks(this.store, form, cols, only)) {
        const bytes = Buffer.from(chunk.text, 'utf8');
        for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
        if (chunk.rows > 0) {
          const processed = job.processed + chunk.rows;
          this.set(job, { processed, progress: job.total ? Math.floor((processed / job.total) * 90) : 90 });
          // Yield between chunks so a big export never stalls other requests.
          await new Promise((resolve) => setImmediate(resolve));
          if (this.closed || job.gone) return;
        }
      }
      kept = true;
    } finally {
      closeSync(fd);
      if (!kept) unlinkQuietly(path);
    }
    if (!this.store.forms.has(form.id)) {
      unlinkQuietly(path);
      this.set(job, { status: 'failed', errorMessage: 'The form was deleted during the export.' });
      return;
    }
    this.set(job, { progress: 90 });
    this.after(this.stepMs, () => {
      if (job.gone) return unlinkQuietly(path);
      this.set(job, { status: 'completed', progress: 100, file: path, expiresAt: this.now() + FILE_TTL_MS });
    });
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, job] of this.jobs) {
      if (now - job.createdAt > STATUS_TTL_MS && (job.expiresAt === null || now >= job.expiresAt)) this.forget(this.jobs.get(id)!);
    }
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone (the directory removed on close).
  }
}

/** A job file in 64 KiB pieces, read as the response takes them. */
function* fileChunks(path: string): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return;
      yield buf.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
