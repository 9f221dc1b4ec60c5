import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { ApiClient } from '../../api/client.js';
import { whileChanging } from '../../closed-stdout.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../api/errors.js';
import { type Form, resolveForm } from '../../api/forms.js';
import { deleteSubmission } from '../../api/submissions.js';
import { CliError, ExitCode, InterruptedError, UsageError } from '../../errors.js';
import { WindowBudget } from '../../export/chunked.js';
import { csvHeaderCells } from '../../export/csv-check.js';
import { exportIds } from '../../export/selected.js';
import { type ExportAnswerKey, SYSTEM_COLUMNS, exportAnswerKeys, exportHeader, removedProperties } from '../../service/export.js';
import { type TargetFlags, TargetTakenError, inspectPart, precheckTarget } from '../../export/sink.js';
import type { Factory } from '../../factory.js';
import { formLabel } from '../../forms/label.js';
import { cannotWrite } from '../../io/files.js';
import { write } from '../../io/iostreams.js';
import { redactQuerySecrets } from '../../api/redact.js';
import { escapeControls, jsonFormat, notice, success, writeObject } from '../../io/output.js';
import { confirmByTyping } from '../../io/prompter.js';
import { createStatusLine } from '../../io/status-line.js';
import { RATE_LIMIT_PER_MINUTE } from '../../service/limits.js';
import {
  type DeletePlan,
  type DeleteRecord,
  type DeleteSelection,
  readDeleteLog,
  readIdFile,
  selectForDelete,
  whereField,
} from '../../submissions/bulk-delete.js';
import { bulkPacer } from '../../submissions/bulk-update.js';
import { inputProperties } from '../../submissions/fields.js';
import type { WholeListState } from '../../submissions/whole-list.js';
import { profileWords, shellWord } from '../hint-words.js';
import type { FlagsOf } from '../shared.js';
import { DEFAULT_POLL_MS, DEFAULT_WAIT_TIMEOUT_MS, type submissionDeleteCommand } from './shared.js';

// `submission delete --from | --before | --where`: preview, confirm, back up, then delete, paced and
// resumable (docs/submission-update.md, "Bulk delete").

export type SubmissionBulkDeleteOptions = FlagsOf<typeof submissionDeleteCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    form: string;
    /** Where the profile came from, so that the resume command names it when another shell would not pick it (profileWords). */
    context?: () => Promise<{ profileName: string; profileSource: string }>;
    now: () => number;
    sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
    signal?: AbortSignal;
  };

/** The flags that make `submission delete` a bulk delete. */
export function isBulk(f: { from?: string; before?: unknown; where?: unknown; resume?: boolean }): boolean {
  return f.from !== undefined || f.before !== undefined || f.where !== undefined || f.resume === true;
}

/** The `--json` (or `--jq`) answer, on one line, through the output layer; nothing without either. */
async function printJson(o: SubmissionBulkDeleteOptions, obj: Record<string, unknown>): Promise<void> {
  const json = jsonFormat(o);
  if (json) await writeObject(o.io, json, obj, [], { compact: true });
}

/** How many sample rows the preview shows. */
const SAMPLE = 5;

interface Tally {
  deleted: number;
  gone: number;
  failed: number;
}

/** The default name of a run's files: `<slug>-deleted-<UTC time>` in the current directory (+ `.csv` for the backup). */
function defaultStem(form: Form, now: number): string {
  return `${form.slug}-deleted-${new Date(now)
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d{3}Z$/, 'Z')}`;
}

/**
 * A backup chunk answered with an export job (a service whose async threshold is below 1,000 ids;
 * never the deployed one) is waited for as `submission export` waits by default.
 */
const BACKUP_JOBS = {
  pollMs: DEFAULT_POLL_MS,
  timeoutMs: DEFAULT_WAIT_TIMEOUT_MS,
  timeoutHint: `A chunk of the backup went to an export job that did not finish within ${DEFAULT_WAIT_TIMEOUT_MS / 1000} s; nothing was deleted: run the command again later.`,
};

/** The flag that names the backup, for the hints; delete has no flag to replace an existing file. */
const BACKUP_FLAGS: TargetFlags = { file: '--backup' };

/** Whether `file` and its `.part` are free: neither exists (a `.part` a killed run left counts as free). */
async function isFree(file: string, now: () => number): Promise<boolean> {
  if (await stat(file).catch(() => undefined)) return false;
  const part = await inspectPart(file, now);
  return part.state === 'absent' || part.state === 'stale';
}

/** How many numbered variants of the default names are tried before the first one is used (and refused). */
const MAX_VARIANTS = 100;

/** A run's files: the backup (none with --no-backup), the log, and which numbered variant of the default names they are. */
interface RunFiles {
  backup?: string;
  results: string;
  variant: number;
}

/** The run's log: --results, else beside the backup, or `<stem>.log.ndjson` without one. Always a file (--resume needs it, and stdout is left to --json). */
function logFile(o: SubmissionBulkDeleteOptions, backupOrStem: string): string {
  return o.results ?? `${backupOrStem}.log.ndjson`;
}

/** A run's log must be new: one that exists is an earlier run's, which --resume continues. */
async function refuseExistingLog(results: string): Promise<void> {
  if (await stat(results).catch(() => undefined)) {
    throw new UsageError(
      `${results} already exists: it is the log of an earlier run.`,
      `Continue it with --resume --results ${shellWord(results)}, or choose another name with --results.`,
    );
  }
}

/**
 * The run's backup (none with --no-backup) and log. A name given (--backup, --results) is used as it
 * is; a default one that is taken (a run in the same second, or an earlier run's files) gets the first
 * free `-2`, `-3`, … suffix instead, so two runs never collide on a name they did not choose. When
 * none up to MAX_VARIANTS is free: the first names (which the checks then refuse with the reason), or
 * undefined when `from`, the first variant to try, is past 1 (a default backup another run took
 * meanwhile moves on past it; no variant left, that run's refusal stands).
 */
async function runFiles(o: SubmissionBulkDeleteOptions, stem: string, from = 1): Promise<RunFiles | undefined> {
  const pick = (n: number): RunFiles => {
    const s = n === 1 ? stem : `${stem}-${n}`;
    const backup = o.backup === false ? undefined : typeof o.backup === 'string' ? o.backup : `${s}.csv`;
    return { backup, results: logFile(o, backup ?? s), variant: n };
  };
  const defaultBackup = o.backup === undefined;
  if (!defaultBackup && o.results !== undefined) return pick(1);
  for (let n = from; n <= MAX_VARIANTS; n++) {
    const files = pick(n);
    if (defaultBackup && files.backup !== undefined && !(await isFree(files.backup, o.now))) continue;
    if (o.results === undefined && (await stat(files.results).catch(() => undefined))) continue;
    return files;
  }
  return from === 1 ? pick(1) : undefined;
}

/**
 * Preview (count and sample), confirmation (the count typed on a terminal, --yes elsewhere), the
 * backup CSV of exactly the rows to delete, then one DELETE per row, each logged. With --resume, the
 * logged plan is continued: nothing is selected, backed up or asked again.
 */
export async function submissionBulkDeleteRun(o: SubmissionBulkDeleteOptions): Promise<void> {
  if (o.resume) {
    if (o.results === undefined) throw new UsageError('--resume needs --results: the log of the run to continue.');
    if (o.from !== undefined || o.before !== undefined || o.where !== undefined)
      throw new UsageError('--resume continues the logged plan: leave out --from, --before and --where.');
  }
  // The ids come on stdin, so the confirmation cannot: a real run needs --yes, known before stdin is read and any request.
  if (o.from === '-' && !o.yes && !o.dryRun)
    throw new UsageError(
      '--from - reads the ids from stdin, so the deletion cannot be confirmed there.',
      'Add --yes to delete them (--dry-run to see them first).',
    );
  // A --backup named by the user is knowable now (taken, no directory, a running export's .part):
  // refused before any request. A default name needs the form's slug, so it is checked below.
  if (!o.resume && typeof o.backup === 'string') await precheckTarget(o.backup, false, o.now, BACKUP_FLAGS);
  // So is a log named by the user: --results, or the one beside a --backup named by the user.
  const namedLog = typeof o.backup === 'string' ? logFile(o, o.backup) : o.results;
  if (!o.resume && namedLog !== undefined) await refuseExistingLog(namedLog);
  const sel: DeleteSelection = {};
  if (o.from !== undefined) sel.ids = await readIdFile(o.from, o.io);
  const client = await o.api();
  if (o.resume) return resume(o, client);

  if (o.before !== undefined) sel.before = o.before.kind === 'ago' ? o.now() - o.before.ms : o.before.ms;
  const form = await resolveForm(client, o.form);
  if (o.where !== undefined) sel.where = whereField(form, o.where);
  const stem = defaultStem(form, o.now());
  let files = (await runFiles(o, stem))!;
  const { results } = files;
  // Checked before the list is read: a run never starts that could not keep its backup or its log.
  if (files.backup !== undefined) await precheckTarget(files.backup, false, o.now, BACKUP_FLAGS);
  await refuseExistingLog(results);

  const listBudget = new WindowBudget(o.rateLimit ?? client.rateLimit.limit ?? RATE_LIMIT_PER_MINUTE, o.now, o.sleep);
  const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
  const { rows, missing } = await selectForDelete(client, form.id, sel, {
    state,
    signal: o.signal,
    pace: () => listBudget.take(o.signal),
    observe: (h) => listBudget.observe(h),
  });
  if (missing.length > 0)
    await notice(
      o.io,
      `${missing.length} id${missing.length === 1 ? '' : 's'} of ${o.from === '-' ? 'stdin' : o.from} ${missing.length === 1 ? 'is' : 'are'} not in form ${form.id} (already deleted?): ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}.`,
    );
  await preview(o, form, rows);
  if (rows.length === 0) {
    await printJson(o, { form_id: form.id, selected: 0, deleted: 0, gone: 0, failed: 0, backup: null, results: null });
    return;
  }
  if (o.dryRun) {
    await printJson(o, { dry_run: true, form_id: form.id, selected: rows.length, ids: rows.map((r) => Number(r.id ?? r.pathId)) });
    await notice(o.io, 'dry run: nothing was deleted.');
    return;
  }
  await confirmByTyping(o.io, o.prompter(), {
    yes: o.yes,
    message: `Delete ${rows.length} submission${rows.length === 1 ? '' : 's'} of form ${formLabel(form)} for good?`,
    warning: files.backup !== undefined ? `A CSV backup is written first (${files.backup}).` : 'There is no backup (--no-backup): this cannot be undone.',
    what: 'the count',
    expected: String(rows.length),
  });

  let ids = rows.map((r) => Number(r.id ?? r.pathId));
  if (files.backup !== undefined) {
    // Every answer the rows hold: the current fields, and those of fields the form no longer has (its
    // removed_properties, which the export takes: docs/service-details.md, Export), else lost with the rows.
    const fields = exportAnswerKeys(inputProperties(form), removedProperties(form));
    const columns: Record<string, boolean> = {};
    for (const { property } of fields) columns[property.id] = true;
    columns.created_at = true;
    let saved: Awaited<ReturnType<typeof exportIds>>;
    for (;;) {
      const output = files.backup!;
      try {
        saved = await exportIds(
          { io: o.io, client, form, columns, output, flags: BACKUP_FLAGS, signal: o.signal, now: o.now, sleep: o.sleep, jobs: BACKUP_JOBS },
          ids,
        );
        break;
      } catch (err) {
        // A default name another run took since it was chosen (its export holds the .part, or its
        // backup was saved under it first): nothing was written, so the next free variant is taken.
        // A name the user gave is theirs to change: refused as before.
        const next = err instanceof TargetTakenError && o.backup === undefined ? await runFiles(o, stem, files.variant + 1) : undefined;
        if (!next) throw err;
        await notice(o.io, `${output} was taken by another run meanwhile; the backup goes to ${next.backup} instead.`);
        files = next;
      }
    }
    const backup = files.backup!;
    await assertBackupComplete(form, fields, saved.header, backup);
    // Only what the backup holds is deleted: a row the export could not give (deleted meanwhile) is not touched.
    const kept = new Set(saved.exported);
    const skipped = ids.filter((id) => !kept.has(id));
    ids = ids.filter((id) => kept.has(id));
    await notice(
      o.io,
      `backup of ${ids.length} row${ids.length === 1 ? '' : 's'} saved to ${backup}${skipped.length ? `; ${skipped.length} gone meanwhile, not in it` : ''}.`,
    );
  } else await notice(o.io, 'no backup (--no-backup): the deleted answers cannot be recovered.', 'warning');

  const { backup } = files;
  const log = await openLog(files.results, false);
  const plan: DeletePlan = { plan: { form_id: form.id, ids, backup: backup ?? null, created: new Date(o.now()).toISOString() } };
  log.stream.write(JSON.stringify(plan) + '\n');
  await whileChanging(() => execute(o, client, form, ids, new Set(), log, { backup, results: files.results }));
}

/** --resume: the plan of the log, less the ids it records as done. */
async function resume(o: SubmissionBulkDeleteOptions, client: ApiClient): Promise<void> {
  const { plan, done } = await readDeleteLog(o.results!);
  const form = await resolveForm(client, o.form);
  if (plan.form_id !== form.id) throw new UsageError(`${o.results} is the log of a delete in form ${plan.form_id}, not form ${form.id}.`);
  const left = plan.ids.filter((id) => !done.has(id));
  await notice(o.io, `resuming: ${done.size} of ${plan.ids.length} already done, ${left.length} to go${plan.backup ? ` (backup: ${plan.backup})` : ''}.`);
  const log = await openLog(o.results!, true);
  await whileChanging(() => execute(o, client, form, left, done, log, { backup: plan.backup ?? undefined, results: o.results, total: plan.ids.length }));
}

/** The count and a few rows (id, time, the first two fields), on stderr: it is for the person deciding. */
async function preview(
  o: SubmissionBulkDeleteOptions,
  form: Form,
  rows: { id?: unknown; pathId: string; submitted_at: string | null; data: Record<string, unknown> }[],
): Promise<void> {
  const fields = inputProperties(form).slice(0, 2);
  const lines = [
    `${rows.length} submission${rows.length === 1 ? '' : 's'} of form ${formLabel(form)} match${rows.length === 1 ? 'es' : ''}${rows.length ? ':' : '; nothing to delete.'}`,
  ];
  for (const r of rows.slice(0, SAMPLE)) {
    // A file answer's signed URL carries its signature: the preview shows the file, never the signature.
    const answers = fields.map((p) => `${p.name ?? p.id}: ${redactQuerySecrets(JSON.stringify(r.data[p.id] ?? null))}`).join(', ');
    lines.push(`  ${String(r.id ?? r.pathId).padStart(6)}  ${r.submitted_at ?? ''}  ${answers}`);
  }
  if (rows.length > SAMPLE) lines.push(`  … and ${rows.length - SAMPLE} more`);
  await write(o.io.stderr, lines.join('\n') + '\n');
}

interface Log {
  stream: Writable;
  close(): Promise<void>;
}

/** The run's log file (appended to by --resume). */
async function openLog(file: string, append: boolean): Promise<Log> {
  const stream = createWriteStream(file, { flags: append ? 'a' : 'wx', mode: 0o600 });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (e) => reject(cannotWrite(file, e)));
  });
  return {
    stream,
    close: () => new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(cannotWrite(file, err)) : resolve()))),
  };
}

/** One DELETE per id, paced under the general limit, each logged before and after; 404 counts as done. */
async function execute(
  o: SubmissionBulkDeleteOptions,
  client: ApiClient,
  form: Form,
  ids: number[],
  done: Set<number>,
  log: Log,
  where: { backup?: string; results?: string; total?: number },
): Promise<void> {
  const tally: Tally = { deleted: 0, gone: 0, failed: 0 };
  const total = where.total ?? ids.length;
  // Paced as bulk update is (a steady rate a little under the limit, --rate-limit as the limit when
  // given: a service that announces none is paced at 100/min), so the budget shared with other
  // formctl processes never has to make a DELETE wait, and a long run never spends --max-wait on it.
  const pacer = bulkPacer(client, { rateLimit: o.rateLimit, now: o.now, sleep: o.sleep });
  const line = createStatusLine(o.io, o.now);
  const record = (r: DeleteRecord) => log.stream.write(JSON.stringify(r) + '\n');
  // Pasted into another shell, it continues this very run: the profile named when that shell would not pick it, the log's path quoted.
  const resumeCommand = where.results
    ? `formctl${await profileWords(o.context)} submission delete ${form.id} --resume --results ${shellWord(where.results)}${o.rateLimit !== undefined ? ` --rate-limit ${o.rateLimit}` : ''}`
    : undefined;
  try {
    for (const id of ids) {
      if (o.signal?.aborted) throw new InterruptedError();
      await pacer.take(o.signal);
      record({ id, status: 'deleting' });
      try {
        await deleteSubmission(client, form.id, id);
        record({ id, status: 'deleted' });
        tally.deleted++;
      } catch (err) {
        if (err instanceof NotFoundError) {
          record({ id, status: 'gone', http_status: 404 });
          tally.gone++;
        } else if (err instanceof UnauthorizedError || err instanceof ForbiddenError || err instanceof InterruptedError || !(err instanceof CliError)) {
          throw err;
        } else {
          record({ id, status: 'failed', http_status: (err as { status?: number }).status, error: err.message });
          tally.failed++;
        }
      }
      pacer.observe(client.rateLimit);
      line.update(
        `Deleting ${done.size + tally.deleted + tally.gone + tally.failed}/${total} · ${tally.deleted} deleted · ${tally.gone} already gone · ${tally.failed} failed`,
      );
    }
  } catch (err) {
    line.done();
    await log.close().catch(() => undefined);
    if (resumeCommand) await notice(o.io, `stopped after ${tally.deleted + tally.gone} of ${ids.length}; continue with: ${resumeCommand}`);
    throw err;
  }
  line.done();
  await log.close();
  await printJson(o, {
    form_id: form.id,
    selected: total,
    deleted: tally.deleted,
    gone: tally.gone,
    failed: tally.failed,
    backup: where.backup ?? null,
    results: where.results ?? null,
  });
  const summary = `Deleted ${tally.deleted} submission${tally.deleted === 1 ? '' : 's'} of form ${formLabel(form)}${tally.gone ? ` (${tally.gone} already gone)` : ''}${where.backup ? `; backup: ${where.backup}` : ''}.`;
  if (tally.failed > 0) {
    throw new CliError(
      `${summary} ${tally.failed} failed (see ${where.results ?? 'the log'}).`,
      ExitCode.partial,
      resumeCommand ? `Retry them: ${resumeCommand}` : undefined,
    );
  }
  if (!jsonFormat(o)) await success(o.io, summary);
}

/**
 * Refuses to delete when the backup lacks a field's column. The deployed server's export picks the
 * column for a field id by the first answer key ("Name (id)", exportAnswerKeys) that contains the id
 * (OpnForm FormExportService.php:64, `str_contains`), so a field whose id is part of an earlier
 * field's key (`name` in "Username (user)") gets no column of its own, and its answers would be lost
 * with the rows. Every field's header (exportHeader) must be there, as many times as fields have it.
 * A service that names its columns otherwise (no field's header there) is held to one column per
 * field. The incomplete file is removed.
 */
async function assertBackupComplete(form: Form, fields: readonly ExportAnswerKey[], header: Buffer | undefined, backup: string): Promise<void> {
  const cells = header === undefined ? [] : ((await csvHeaderCells(header)) ?? []);
  const left = new Map<string, number>();
  for (const c of cells) left.set(c, (left.get(c) ?? 0) + 1);
  const missing = fields.filter(({ key }) => {
    const n = left.get(exportHeader(key)) ?? 0;
    if (n > 0) left.set(exportHeader(key), n - 1);
    return n === 0;
  });
  if (missing.length === 0) return;
  if (missing.length === fields.length && cells.filter((c) => c !== 'id' && !(SYSTEM_COLUMNS as readonly string[]).includes(c)).length >= fields.length) return;
  await rm(backup, { force: true });
  const names = missing
    .map(({ property: p }) => `"${escapeControls(String(p.name ?? p.id), { all: true })}" (${escapeControls(p.id, { all: true })})`)
    .join(', ');
  throw new CliError(
    `The backup would not hold every answer: the service's export wrote no column of its own for ${names} (the deployed server picks a field's column by a part of its id), so nothing was deleted and the incomplete backup was removed.`,
    ExitCode.error,
    `Save the rows another way first (formctl submission list ${form.id} --all --json > rows.json), then delete with --no-backup.`,
  );
}
