import { Argument, Command } from '@commander-js/extra-typings';
import { completes } from '../../completion/kinds.js';
import type { ApiClient } from '../../api/client.js';
import { type ExportStatus, getExportStatus } from '../../api/exports.js';
import { resolveForm } from '../../api/forms.js';
import { precheckTarget } from '../../export/sink.js';
import { abortableSleep } from '../../sleep.js';
import { UsageError } from '../../errors.js';
import type { ResolvedContext } from '../../config/resolve.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type Column, resolveFormat, writeObject } from '../../io/output.js';
import { type FlagsOf, examples } from '../shared.js';
import { downloadJob } from './export.js';
import { addDownloadOptions } from './shared.js';

/** `formctl submission export-status <form> <job-id>`: the command and its flags, declared once. */
function submissionExportStatusCommand() {
  const base = new Command('export-status')
    .description('Show an async export job, or wait for it and download its CSV')
    .addArgument(completes(new Argument('<form>', 'Form id or slug'), 'form'))
    .argument('<job-id>', 'Job id printed by `submission export --no-wait`')
    .option('--download', 'Wait until the job completes, then download the CSV');
  return examples(addDownloadOptions(base), [
    'formctl submission export-status 42 0f6c…-job-id',
    'formctl submission export-status 42 0f6c…-job-id --download -o answers.csv',
  ]);
}

export type SubmissionExportStatusOptions = FlagsOf<typeof submissionExportStatusCommand> & {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  signal?: AbortSignal;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Names a non-default profile in the resume command printed on Ctrl-C. */
  context?: () => Promise<Pick<ResolvedContext, 'profileName' | 'profileSource'>>;
  form: string;
  jobId: string;
};

/** `formctl submission export-status <form> <job-id>`. */
export function newSubmissionExportStatusCommand(f: Factory, runF = submissionExportStatusRun) {
  return submissionExportStatusCommand().action((form, jobId, flags) =>
    runF({ ...flags, io: f.io, api: f.api, signal: f.signal, now: () => f.now().getTime(), sleep: abortableSleep, context: () => f.context(), form, jobId }),
  );
}

const STATUS_COLUMNS: Column<ExportStatus>[] = [
  { header: 'Job', value: (s) => s.job_id },
  { header: 'Status', value: (s) => s.status },
  { header: 'Progress', value: (s) => (typeof s.progress === 'number' ? `${s.progress}%` : null) },
  { header: 'File URL', value: (s) => s.file_url },
  { header: 'Expires', value: (s) => s.expires_at, time: true },
  { header: 'Error', value: (s) => s.error_message },
];

/** Prints the job's status, or (with --download) waits for it and saves the file. */
export async function submissionExportStatusRun(o: SubmissionExportStatusOptions): Promise<void> {
  if ((o.output || o.clobber) && !o.download) throw new UsageError('-o and --clobber need --download.');
  if (o.output === '-' && o.json) throw new UsageError('--json cannot be used with -o - (stdout carries the CSV).');
  // Checked before any request.
  if (o.download && o.output && o.output !== '-') await precheckTarget(o.output, o.clobber, o.now);
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  if (!o.download) {
    const status = await getExportStatus(client, form.id, o.jobId, {}, o.signal);
    const format = resolveFormat(o.io, { json: o.json });
    await writeObject(o.io, format, { job_id: o.jobId, ...status }, STATUS_COLUMNS, { now: new Date(o.now()) });
    return;
  }
  await downloadJob(o, client, form, o.jobId, `${form.slug}-submission-data.csv`);
}
