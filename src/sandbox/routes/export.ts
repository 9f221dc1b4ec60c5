import { ok } from '../context.js';
import type { Ctx, RouteTable } from '../context.js';
import { closedToTokens } from '../deployed.js';
import { HttpError, notFound } from '../errors.js';
import { flavorOf } from '../flavor.js';
import { csvChunks, csvFilename, csvHeaders, csvTexts, parseColumns, parseSubmissionIds } from '../export/csv.js';
import { streamBody } from '../stream.js';
import { formFor } from './common.js';

function exportStatus(ctx: Ctx) {
  // Deployed flavour: the code's path exists (OpnForm `api/routes/api.php:257-260`, route name
  // `open.forms.submissions.export.status`) but is not in the token whitelist
  // (`api/config/sanctum-routes.php:4-41`), so a token gets 404 {"message":""}
  // (`app/Http/Middleware/AuthenticateWithJwtOrSanctum.php:30-37`). The docs' path is not registered
  // there at all: the router answers it as Laravel does (server.ts). docs/service.md, "Export".
  if (flavorOf(ctx.app).exportStatusClosed) throw closedToTokens();
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
    const cols = { ...parseColumns(form, body, { substring: flavorOf(app).exportColumnsBySubstring }), idCell: flavorOf(app).exportIdCell };
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

  // The spec flavour answers on the docs' path and the deployed code's path alike (docs/service-details.md,
  // Export); the deployed server has only the code's path.
  if (r.flavor !== 'deployed') r.api('GET', '/open/forms/:form/submissions/export/:job/status', exportStatus);
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
