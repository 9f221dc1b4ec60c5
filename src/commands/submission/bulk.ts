import type { ApiClient } from '../../api/client.js';
import { type Form, resolveForm } from '../../api/forms.js';
import { activeIntegrations } from '../../api/submissions.js';
import { PartialFailureError, UsageError } from '../../errors.js';
import { confirmSideEffects, sideEffectsRefusal } from '../side-effects.js';
import type { IOStreams } from '../../io/iostreams.js';
import { notice } from '../../io/output.js';
import { type Prompter, confirmDestructive } from '../../io/prompter.js';
import { formLabel } from '../../forms/label.js';
import { assertUpdatable, integrationWarnings } from '../../submissions/answers.js';
import { openBulkInput } from '../../submissions/bulk-input.js';
import { readDoneKeys, resultsSize } from '../../submissions/bulk-log.js';
import { type BulkContext, bulkPacer, bulkSideEffects, runWithResults, scanTargets, surveyInput } from '../../submissions/bulk-update.js';
import type { SubmissionIndex } from '../../submissions/lookup.js';
import { profileWords, shellWord } from '../hint-words.js';
import type { FlagsOf } from '../shared.js';
import { DEFAULT_CONCURRENCY, type submissionUpdateCommand } from './shared.js';

/** Options of a bulk update: the bulk flags of `submission update`'s declaration, the resolved form and default concurrency. */
export type BulkUpdateRunOptions = Pick<FlagsOf<typeof submissionUpdateCommand>, 'rateLimit' | 'results' | 'resume' | 'dryRun' | 'yes'> & {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  signal?: AbortSignal;
  now: () => number;
  form: string;
  from: string;
  concurrency: number;
  prompter?: () => Prompter;
  /** Where the profile came from, so that the command a dry run suggests names it when another shell would not pick it (profileWords). */
  context?: () => Promise<{ profileName: string; profileSource: string }>;
  /** Tests pace with a fake clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

/**
 * Bulk update: paced under the rate limit, per-line results as NDJSON, resumable, exit 10 when any
 * line failed. Its stages live in src/submissions/ (bulk-update.ts); this function orders them and
 * asks before side effects.
 */
export async function bulkUpdateRun(o: BulkUpdateRunOptions): Promise<void> {
  if (o.resume && !o.results) throw new UsageError('--resume needs --results FILE (the log of the earlier run).');
  const input = await openBulkInput(o.io, o.from, o.results);
  // Checked before any request: an existing results file is the log of an earlier run.
  const size = await resultsSize(o.results, o.resume);
  const done = o.resume && o.results ? await readDoneKeys(o.results) : undefined;
  const survey = await surveyInput(input, done);
  // As `submission delete --from`: the list of work was given and holds none, most likely a step
  // before it that went wrong (a wrong file, a filter that matched nothing), so it is refused (exit
  // 2) before any request, instead of a summary of 0/0 lines that read as if something had run.
  if (survey.total === 0)
    throw new UsageError(
      `${input.lines} has no lines: nothing to update.`,
      'One JSON object per line, {"submission_id": 12, "<field>": value}, or lines of `submission list --ndjson`.',
    );
  const client = await o.api();
  const form = await resolveForm(client, o.form);
  assertUpdatable(form);
  const c: BulkContext = { io: o.io, client, form, pacer: bulkPacer(client, o), now: o.now, signal: o.signal };
  // The integrations that would fire again and the submissions the lines name: both before anything is sent.
  // When the integrations alone make --yes mandatory (off a terminal, a real run without it), the run
  // is refused after that one request, before the list is read (which can take many paced requests).
  const cannotAsk = !o.prompter || !o.io.canPrompt;
  const active = !o.dryRun && !o.yes && cannotAsk && survey.ids.size + survey.uuids.size > 0 ? await activeIntegrations(client, form.id, o.signal) : undefined;
  if (active && active.length > 0) {
    for (const w of integrationWarnings(active)) await notice(o.io, w, 'warning');
    if (!o.prompter) throw sideEffectsRefusal(what(form));
    // Off a terminal: refuses as the confirmation after the list would, with the same words.
    await confirmDestructive(o.io, o.prompter(), { message: confirmMessage(form) });
  }
  const index = await scanTargets(c, survey);
  // Nothing left to send (a resumed run that is done, lines naming no submission): nothing to confirm.
  if (index.byId.size > 0) await confirmBulkSideEffects(o, c, index, active);
  const stats = await runWithResults(c, {
    input,
    index,
    done,
    total: survey.total,
    results: o.results,
    resultsSize: size,
    resume: o.resume,
    concurrency: o.concurrency,
    dryRun: o.dryRun,
  });
  if (o.dryRun) return dryRunOutcome(o, form, stats);
  if (stats.failed > 0) {
    throw new PartialFailureError(
      `${stats.failed} of ${stats.ok + stats.failed} line${stats.ok + stats.failed === 1 ? '' : 's'} failed.`,
      o.results
        ? `See the "error" of each failed line in ${o.results}; fix them and rerun with --resume.`
        : 'Rerun with --results FILE to keep a log you can --resume from.',
    );
  }
}

/**
 * What a dry run's user needs next: that nothing was sent, and the command that sends the lines for
 * real (this run without --dry-run; lines from stdin cannot be read again, so then it says so); with
 * failed lines, where their errors are. Not --results or --resume: a dry run has nothing to resume.
 */
async function dryRunOutcome(o: BulkUpdateRunOptions, form: Form, stats: { ok: number; failed: number }): Promise<void> {
  const real =
    o.from === '-'
      ? 'run the same command without --dry-run'
      : `run: formctl${await profileWords(o.context)} submission update ${form.id} --from ${shellWord(o.from)}${o.concurrency !== DEFAULT_CONCURRENCY ? ` --concurrency ${o.concurrency}` : ''}${o.rateLimit !== undefined ? ` --rate-limit ${o.rateLimit}` : ''}`;
  if (stats.failed === 0) {
    if (stats.ok > 0) await notice(o.io, `dry run: nothing was sent; to send ${stats.ok === 1 ? 'the line' : `the ${stats.ok} lines`}, ${real}`);
    return;
  }
  const n = stats.ok + stats.failed;
  throw new PartialFailureError(
    `${stats.failed} of ${n} line${n === 1 ? '' : 's'} failed the dry run; nothing was sent.`,
    `See the "error" of each failed line ${o.results ? `in ${o.results}` : 'on stdout'}; fix them and run the dry run again${stats.ok > 0 ? ` (or, to send the lines that passed as they are, ${real})` : ''}.`,
  );
}

function confirmMessage(form: Form): string {
  return `Update the submissions of form ${formLabel(form)} anyway?`;
}

function what(form: Form): string {
  return `Updating submissions of form ${formLabel(form)}`;
}

/**
 * Says what the run changes on the deployed service besides the fields asked for, and asks (on a
 * terminal) or requires --yes (elsewhere) before a real run goes ahead (docs/submission-update.md).
 */
async function confirmBulkSideEffects(o: BulkUpdateRunOptions, c: BulkContext, index: SubmissionIndex, read?: Record<string, unknown>[]): Promise<void> {
  const active = read ?? (await activeIntegrations(c.client, c.form.id, o.signal));
  const { warnings, needsYes } = bulkSideEffects(c.form, index, active);
  for (const w of warnings) await notice(o.io, w, 'warning');
  await confirmSideEffects(o.io, o.prompter, { what: what(c.form), question: confirmMessage(c.form), needsYes, dryRun: o.dryRun, yes: o.yes });
}
