import { isDeployed, ok } from '../context.js';
import type { Ctx, RouteTable } from '../context.js';
import { closedToTokens } from '../deployed.js';
import { HttpError, notFound } from '../errors.js';
import { csvChunks, csvFilename, csvHeaders, csvTexts, parseColumns, parseSubmissionIds } from '../export/csv.js';
import { streamBody } from '../stream.js';
import { formFor } from './common.js';

function exportStatus(ctx: Ctx) {
  // Deployed flavour: the docs' path does not exist and the code's path is closed to tokens; both
  // answer as a token sees them, 404 {"message":""} (docs/service.md).
  if (isDeployed(ctx.app)) throw closedToTokens();
  const form = formFor(ctx, 'forms-read');
  const job = ctx.app.exports.find(form.id, ctx.params.job ?? '');
  if (!job) throw notFound('Export job not found or has expired.');
  return ok(ctx.app.exports.statusView(job));
}

/** Submission export: start (sync CSV or async job), job status on both known paths, file download. */
export function registerExport(r: RouteTable): void {
  r.api('POST', '/open/forms/:form/submissions/export', async (ctx) => {
    const { app } = ctx;
    const form = formFor(ctx, 'forms-read');
    const body = await ctx.body();
    const cols = parseColumns(form, body);
    // `submissionIds` limits the export to those ids, and then their number decides sync or async.
    const only = parseSubmissionIds(body, app.store.submissionsOf(form.id));
    const count = only ? only.size : app.store.submissionsOf(form.id).size;
    // Async strictly above the threshold (the deployed server: > 1000).
    if (count > app.opts.exportAsyncThreshold) {
      const jobId = app.exports.start(form, cols, only);
      return ok({ message: 'Export started. Large export will be processed in the background.', job_id: jobId, is_async: true });
    }
    await streamBody(ctx.res, { ...ctx.baseHeaders, ...csvHeaders(csvFilename(form)) }, csvTexts(csvChunks(app.store, form, cols, only)));
    return undefined;
  });

  // The docs' path and the deployed code's path answer alike (docs/service-details.md, Export).
  r.api('GET', '/open/forms/:form/submissions/export/:job/status', exportStatus);
  r.api('GET', '/open/forms/:form/submissions/export/status/:job', exportStatus);

  // file_url target: a capability link (token in the query), fetched without Authorization.
  r.open('GET', '/exports/:job', async (ctx) => {
    const got = ctx.app.exports.download(ctx.params.job ?? '', ctx.url.searchParams.get('token') ?? '');
    if (got === 'missing') throw notFound('Export file not found.');
    if (got === 'expired') throw new HttpError(410, 'This export link has expired.');
    await streamBody(ctx.res, { ...ctx.baseHeaders, ...csvHeaders(got.filename), 'Content-Length': String(got.size) }, got.file);
    return undefined;
  });
}
