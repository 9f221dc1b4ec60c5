import { Argument, Command } from '@commander-js/extra-typings';
import { completes } from '../../completion/kinds.js';
import { type ExportStatus, getExportStatus } from '../../api/exports.js';
import { resolveForm } from '../../api/forms.js';
import { precheckTarget } from '../../export/sink.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { type Column, notice, resolveFormat, writeObject } from '../../io/output.js';
import { type FlagsOf, examples, jqOption, jsonOption } from '../shared.js';
import { downloadJob, resumeCommand } from './export.js';
import { type ExportDeps, addDownloadOptions, exportDeps } from './shared.js';

/** `formctl submission export-status <form> <job-id>`: the command and its flags, declared once. */
function submissionExportStatusCommand() {
  const base = new Command('export-status')
    .description('Show an async export job, or wait for it and download its CSV')
    .addArgument(completes(new Argument('<form>', 'Form id or slug'), 'form'))
    .argument('<job-id>', 'Job id printed by `submission export --no-wait`')
    .option('--download', 'Wait until the job completes, then download the CSV');
  const cmd = addDownloadOptions(base)
    .addOption(
      jsonOption(STATUS_FIELDS, {
        description: `Print the status as JSON; optionally only these comma-separated fields (fields: ${STATUS_FIELDS.join(', ')}; file_url only when named). With --download: {file, bytes, job_id} when done`,
      }),
    )
    .addOption(jqOption());
  return examples(cmd, [
    'formctl submission export-status 42 0f6c…-job-id',
    'formctl submission export-status 42 0f6c…-job-id --download -o answers.csv',
    'formctl submission export-status 42 0f6c…-job-id --json status,progress',
  ]);
}

/** Keys of the status as JSON. `file_url` is printed only when named (docs/security.md, "Secrets in output"). */
export const STATUS_FIELDS = ['job_id', 'status', 'progress', 'file_url', 'expires_at', 'error_message'] as const;

export type SubmissionExportStatusOptions = FlagsOf<typeof submissionExportStatusCommand> & ExportDeps & { form: string; jobId: string };

/** `formctl submission export-status <form> <job-id>`. */
export function newSubmissionExportStatusCommand(f: Factory, runF = submissionExportStatusRun) {
  return submissionExportStatusCommand().action((form, jobId, flags) => runF({ ...flags, ...exportDeps(f), form, jobId }));
}

const STATUS_COLUMNS: Column<ExportStatus>[] = [
  { header: 'Job', value: (s) => s.job_id },
  { header: 'Status', value: (s) => s.status },
  { header: 'Progress', value: (s) => (typeof s.progress === 'number' ? `${s.progress}%` : null) },
  // The link itself downloads every answer without a token: the human view only says it is there.
  { header: 'File', value: (s) => (hasFile(s) ? 'ready' : null) },
  { header: 'Expires', value: (s) => s.expires_at, time: true },
  { header: 'Error', value: (s) => s.error_message },
];

function hasFile(s: ExportStatus): boolean {
  return typeof s.file_url === 'string' && s.file_url !== '';
}

/** Prints the job's status, or (with --download) waits for it and saves the file. */
export async function submissionExportStatusRun(o: SubmissionExportStatusOptions): Promise<void> {
  if ((o.output || o.clobber) && !o.download) throw new UsageError('-o and --clobber need --download.');
  const json = o.json !== undefined || o.jq !== undefined;
  if (o.output === '-' && json) throw new UsageError('--json cannot be used with -o - (stdout carries the CSV).');
  if (o.download && Array.isArray(o.json)) throw new UsageError('--json takes no fields with --download: it prints {file, bytes, job_id}.');
  const format = o.download ? undefined : resolveFormat(o.io, { json: o.json, jq: o.jq });
  // Checked before any request.
  if (o.download && o.output && o.output !== '-') await precheckTarget(o.output, o.clobber, o.now);
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  if (format) {
    const status = await getExportStatus(client, form.id, o.jobId, {}, o.signal);
    const doc: ExportStatus = { job_id: o.jobId, ...status };
    // The file's URL is a bearer link to every answer of the form (a signed or token-carrying URL):
    // like a form's password, JSON holds it only when the field is named (`--json file_url`).
    // A field list without it asks for other things: nothing is left out that was asked for.
    const withheld = format.kind === 'json' && format.fields === undefined && hasFile(doc);
    if (withheld) delete doc.file_url;
    await writeObject(o.io, format, doc, STATUS_COLUMNS, { now: new Date(o.now()) });
    if (hasFile(status)) {
      const download = await resumeCommand(o, form.id, o.jobId);
      if (format.kind === 'json') {
        if (withheld)
          await notice(
            o.io,
            `the job's file_url is left out (anyone holding it can download every answer); name it to print it: --json file_url. To download the file: ${download}`,
          );
      } else await notice(o.io, `the file is ready; download it with: ${download}`);
    }
    return;
  }
  await downloadJob({ ...o, json: json || undefined }, client, form, o.jobId, `${form.slug}-submission-data.csv`);
}
