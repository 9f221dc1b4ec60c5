import type { ApiClient } from '../api/client.js';
import { type ExportStatus, type StatusPathMemo, getExportStatus } from '../api/exports.js';
import { NetworkError } from '../api/errors.js';
import { CliError, ExitCode, InterruptedError } from '../errors.js';
import { escapeControls } from '../io/output.js';
import { progressBar } from './progress.js';

export interface WaitOptions {
  client: ApiClient;
  formId: number;
  jobId: string;
  pollMs: number;
  /** Overall wait; exceeded → exit 11 (the service stopped answering in time). */
  timeoutMs: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** The command that fetches the job later, for the wait-timeout hint (export's resumeCommand: its words quoted, its profile named). */
  resumeCommand?: string;
  /** The wait-timeout hint when there is no job to fetch later (a chunk's job: its file alone is not the export). */
  timeoutHint?: string;
  /** Which status path answered, kept across the jobs of one export (a chunked export may start several). */
  memo?: StatusPathMemo;
  onStatus?: (s: ExportStatus) => void;
}

/** Polls an export job until it completes (→ its status with file_url), fails (exit 1) or the wait runs out (exit 11). */
export async function waitForExport(o: WaitOptions): Promise<ExportStatus & { file_url: string }> {
  const memo: StatusPathMemo = o.memo ?? {};
  const deadline = o.now() + o.timeoutMs;
  let polls = 0;
  for (;;) {
    if (o.signal?.aborted) throw new InterruptedError();
    const s = await getExportStatus(o.client, o.formId, o.jobId, memo, o.signal);
    o.onStatus?.(s);
    if (s.status === 'completed') {
      if (typeof s.file_url !== 'string' || !s.file_url) {
        throw new CliError(`Export job ${o.jobId} completed without a file_url.`, ExitCode.error, 'Rerun with --debug and report the response.');
      }
      return s as ExportStatus & { file_url: string };
    }
    if (s.status === 'failed') {
      const why = typeof s.error_message === 'string' && s.error_message ? `: ${s.error_message}` : '';
      throw new CliError(
        `Export job ${o.jobId} failed${why}.`,
        ExitCode.error,
        'Start a new export; if it keeps failing, export fewer columns or ask the service operator.',
      );
    }
    const left = deadline - o.now();
    if (left <= 0) {
      throw new NetworkError(
        `Gave up waiting for export job ${o.jobId} after ${Math.round(o.timeoutMs / 1000)} s (last status: ${s.status}).`,
        o.resumeCommand !== undefined
          ? `It may still finish: run \`${o.resumeCommand}\`, or raise --wait-timeout.`
          : (o.timeoutHint ?? 'Raise --wait-timeout and run the command again.'),
      );
    }
    // A small job is often done within a second: the first polls come sooner, then every pollMs.
    await o.sleep(Math.min(o.pollMs, FIRST_POLL_MS * 2 ** polls++, left), o.signal);
  }
}

/** The first wait between polls; it doubles up to the poll interval. */
const FIRST_POLL_MS = 250;

/**
 * One human line for a job status: the rows done out of the total with a bar when the job reports
 * them ("processing ▕████░░░░░░▏ 480/1,200 rows"), else the percentage as a bar. The status is
 * the service's text: its control characters are shown as escapes, never obeyed (a line break
 * included: it is one line, redrawn in place on a terminal).
 */
export function describeStatus(s: ExportStatus): string {
  const status = escapeControls(s.status);
  const done = num(s.processed_submissions);
  const total = num(s.total_submissions);
  if (done !== undefined && total !== undefined && total > 0) {
    return `${status} ${progressBar(done / total)} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} rows`;
  }
  if (typeof s.progress === 'number') return `${status} ${progressBar(s.progress / 100)} ${Math.round(s.progress)}%`;
  return status;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}
