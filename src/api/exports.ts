import type { ApiClient, StreamResponse } from './client.js';
import { NotFoundError, closedToTokens } from './errors.js';
import { CliError, ExitCode, InterruptedError } from '../errors.js';
import { apiPath } from './path.js';

/** The async answer to an export request (spec: `message`, `job_id`, `is_async`). */
export interface ExportJob {
  message?: string;
  job_id: string;
  is_async?: boolean;
  [key: string]: unknown;
}

/** Job status (docs/service-details.md, Export); only `status` is relied on, the rest is shown when present. */
export interface ExportStatus {
  job_id?: string;
  status: string;
  progress?: number | null;
  file_url?: string | null;
  expires_at?: string | null;
  error_message?: string | null;
  [key: string]: unknown;
}

/** The service decides sync or async by form size; the Content-Type says which one came back. */
export type ExportStart = { kind: 'csv'; response: StreamResponse } | { kind: 'job'; job: ExportJob; headers: StreamResponse['headers'] };

/**
 * Starts an export; a CSV answer is handed back unread so it can be streamed to disk. With
 * `submissionIds` (at most 1,000) the deployed service answers with the CSV of those rows at once.
 */
export async function startExport(
  c: ApiClient,
  formId: number,
  columns: Record<string, boolean>,
  signal?: AbortSignal,
  submissionIds?: number[],
): Promise<ExportStart> {
  const request = {
    method: 'POST' as const,
    path: apiPath`/open/forms/${formId}/submissions/export`,
    body: submissionIds ? { columns, submissionIds } : { columns },
    headers: { accept: 'text/csv, application/json' },
    ability: 'forms-read',
    // The export route's own limiter (10 a minute on the deployed service), on top of the general one.
    bucket: 'export' as const,
    signal,
  };
  const res = await c.stream(request);
  const type = String(res.headers['content-type'] ?? '').toLowerCase();
  if (!type.includes('json')) return { kind: 'csv', response: res };
  // A job answer is JSON: capped and bounded by --timeout like any other (docs/security.md).
  const text = await c.readStreamedJson(res, request);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CliError(`The service sent invalid JSON for the export job (HTTP ${res.status}).`);
  }
  const job = body as Partial<ExportJob> | null;
  if (!job || typeof job !== 'object' || (typeof job.job_id !== 'string' && typeof job.job_id !== 'number')) {
    throw new CliError('The service answered the export with JSON but no job_id.', ExitCode.error, 'Rerun with --debug and report the response.');
  }
  return { kind: 'job', job: { ...job, job_id: String(job.job_id) }, headers: res.headers };
}

/**
 * Which status path worked for a client: the docs path first, then the deployed code's path (docs/service-details.md, Export).
 * Remembered per form so polling does not pay two requests every time.
 */
export interface StatusPathMemo {
  style?: 'docs' | 'code';
}

/** Reads an export job's status from the docs path, falling back to the code path; a 404 on both names the job. */
export async function getExportStatus(c: ApiClient, formId: number, jobId: string, memo: StatusPathMemo = {}, signal?: AbortSignal): Promise<ExportStatus> {
  const paths = {
    docs: apiPath`/open/forms/${formId}/submissions/export/${jobId}/status`,
    code: apiPath`/open/forms/${formId}/submissions/export/status/${jobId}`,
  };
  const order: Array<'docs' | 'code'> = memo.style === 'code' ? ['code', 'docs'] : ['docs', 'code'];
  for (const style of order) {
    try {
      const res = await c.request<ExportStatus>({ path: paths[style], ability: 'forms-read', signal });
      memo.style = style;
      return normalizeStatus(res.data);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      // The code's path closed to tokens (src/api/errors.ts, closedToTokens; the route is OpnForm
      // `api.php:257-260`): the job may be running, a token can never read it. An unknown route gets
      // Laravel's "The route … could not be found." and a missing job a message that says so. What the
      // docs path answers decides nothing: on the deployed server it is no route.
      if (style === 'code' && closedToTokens(err)) throw new ExportStatusClosedError(formId, jobId);
    }
  }
  throw new CliError(
    `Export job ${jobId} was not found (tried ${paths.docs} and ${paths.code}).`,
    ExitCode.notFound,
    'Export jobs expire (about 2 hours on the hosted service); start a new one with `formctl submission export`.',
  );
}

/** A job id no service hands out (the nil UUID): what a probe of the status route asks for. */
const PROBE_JOB_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Whether this service closes the export status route to tokens, asked before an export is
 * started (`submission export --no-wait`): the code's path asked for a job id no service hands out.
 * A route open to tokens answers such an id with a 404 that says why (or with a status), a service
 * without that path with Laravel's "route could not be found"; the deployed service answers 404
 * with an empty message, whatever the id (docs/service.md, "Export"). Anything else (an error, an
 * odd answer) is not taken as closed: the export then goes as before. One request.
 */
export async function exportStatusClosed(c: ApiClient, formId: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await c.request<unknown>({ path: apiPath`/open/forms/${formId}/submissions/export/status/${PROBE_JOB_ID}`, ability: 'forms-read', signal });
    return false;
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    return closedToTokens(err);
  }
}

/**
 * The job's status cannot be read with a token: 404 with an empty message on the status route,
 * which is how the deployed service answers a route closed to tokens (docs/submission-update.md).
 * The job itself may well be running; `submission export` falls back to a chunked export.
 */
export class ExportStatusClosedError extends CliError {
  constructor(
    readonly formId: number,
    readonly jobId: string,
  ) {
    super(
      `This service does not let API tokens read the status of export job ${jobId} (HTTP 404 with an empty message on its status route); the job may be running, but its file cannot be fetched with a token.`,
      ExitCode.notFound,
      `Run \`formctl submission export ${formId}\` without --no-wait: when the status cannot be read, formctl exports the rows in chunks of ${1000} instead.`,
    );
  }
}

function normalizeStatus(body: unknown): ExportStatus {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  // Some deployments wrap resources in `data`.
  const s = (b.data && typeof b.data === 'object' && !('status' in b) ? b.data : b) as Record<string, unknown>;
  return { ...s, status: typeof s.status === 'string' ? s.status.toLowerCase() : 'unknown' } as ExportStatus;
}

/** Opens a finished export's file (an absolute, usually pre-signed URL; the token goes only to the API's own origin). */
export async function openExportFile(c: ApiClient, fileUrl: string, signal?: AbortSignal): Promise<StreamResponse> {
  return c.stream({ path: fileUrl, headers: { accept: 'text/csv, */*' }, signal });
}
