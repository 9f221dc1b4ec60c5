import type { ApiClient } from '../api/client.js';
import { type ExportStatus, type StatusPathMemo, getExportStatus } from '../api/exports.js';
import { NetworkError } from '../api/errors.js';
import { CliError, ExitCode, InterruptedError } from '../errors.js';

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
  /** The command that fetches the job later, for the wait-timeout hint. */
  resumeCommand?: string;
  onStatus?: (s: ExportStatus) => void;
}

/** Polls an export job until it completes (→ its status with file_url), fails (exit 1) or the wait runs out (exit 11). */
export async function waitForExport(o: WaitOptions): Promise<ExportStatus & { file_url: string }> {
  const memo: StatusPathMemo = {};
  const deadline = o.now() + o.timeoutMs;
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
      throw new CliError(`Export job ${o.jobId} failed${why}.`, ExitCode.error, 'Start a new export; if it keeps failing, export fewer columns or ask the service operator.');
    }
    const left = deadline - o.now();
    if (left <= 0) {
      throw new NetworkError(
        `Gave up waiting for export job ${o.jobId} after ${Math.round(o.timeoutMs / 1000)} s (last status: ${s.status}).`,
        `It may still finish: run \`${o.resumeCommand ?? `formctl submission export-status ${o.formId} ${o.jobId} --download`}\`, or raise --wait-timeout.`,
      );
    }
    await o.sleep(Math.min(o.pollMs, left), o.signal);
  }
}

/** One human line for a job status: "processing 45%". */
export function describeStatus(s: ExportStatus): string {
  const pct = typeof s.progress === 'number' ? ` ${Math.round(s.progress)}%` : '';
  return `${s.status}${pct}`;
}
