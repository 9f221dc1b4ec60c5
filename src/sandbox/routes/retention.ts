import { ok } from '../context.js';
import type { RouteTable } from '../context.js';
import { retentionCutoff, retentionOf } from '../../service/retention.js';

/**
 * Sandbox-only, deployed flavour (not part of the service): `POST /sandbox/run-retention` runs what
 * the deployed server runs every hour (`forms:purge-expired-submissions`, OpnForm
 * `app/Console/Kernel.php:27`): for every form with a retention, each submission last updated at or
 * before the cutoff is deleted for good (`SubmissionRetentionService.php:17-63`, `where('updated_at',
 * '<=', $cutoff)`). Answers `{deleted, forms}`. Any valid token may call it. docs/service.md, "Retention".
 */
export function registerRetention(r: RouteTable): void {
  if (r.flavor !== 'deployed') return;
  r.api('POST', '/sandbox/run-retention', (ctx) => {
    const { store, opts } = ctx.app;
    const now = opts.now();
    let deleted = 0;
    let forms = 0;
    for (const form of store.forms.values()) {
      const retention = retentionOf(form.attrs);
      if (!retention) continue;
      forms++;
      const cutoff = retentionCutoff(now, retention);
      for (const sub of [...store.submissionsOf(form.id).values()]) {
        if ((sub.updated_at ?? sub.created_at) <= cutoff) {
          store.deleteSubmission(form.id, sub.id);
          deleted++;
        }
      }
    }
    if (deleted > 0) store.changed();
    return ok({ deleted, forms });
  });
}
