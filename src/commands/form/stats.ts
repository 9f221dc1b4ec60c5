import { Command, Option } from '@commander-js/extra-typings';
import { type Form, resolveForm } from '../../api/forms.js';
import type { WholeListState } from '../../submissions/whole-list.js';
import type { Factory } from '../../factory.js';
import { formLabel } from '../../forms/label.js';
import { write } from '../../io/iostreams.js';
import { loadChalk, notice, resolveFormat, writeObject } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { TIME_HINT, type TimeRange, parseTimeFlag, resolveRange } from '../../io/time-range.js';
import { isPartial, submittedAtMs } from '../../submissions/dates.js';
import { inputProperties } from '../../submissions/fields.js';
import { type RangeReading, readListInRange } from '../../submissions/range.js';
import { resolveFormArg } from '../pickers.js';
import { type FlagsOf, addFormArgument, addOutputOptions, examples } from '../shared.js';

/** Keys of `form stats --json` (a contract with scripts). */
export const STATS_FIELDS = ['form_id', 'title', 'since', 'until', 'days', 'submissions', 'views', 'fields', 'requests', 'complete_list'] as const;

const DAY = 86_400_000;
/** The default range: today and the 29 days before it (UTC). */
const DEFAULT_DAYS = 30;

/** `formctl form stats [form]`: the command and its flags, declared once. */
function formStatsCommand() {
  const base = new Command('stats')
    .description('Submissions per day, complete vs partial, views vs submissions and per-field fill rate, computed from the list')
    .addOption(
      new Option('--since <when>', `Start of the range: ISO date/time or a duration back from now (default: ${DEFAULT_DAYS} days ago, UTC)`).argParser(
        parseTimeFlag('--since'),
      ),
    )
    .addOption(new Option('--until <when>', 'End of the range (exclusive; a date alone includes that day; default: now)').argParser(parseTimeFlag('--until')));
  const cmd = addOutputOptions(addFormArgument(base), { fields: STATS_FIELDS });
  cmd.addHelpText('after', `\n${TIME_HINT}\nThe list is read newest first and the reading stops at --since; the request count is said on stderr.`);
  return examples(cmd, [
    'formctl form stats contact-us',
    'formctl form stats 42 --since 7d',
    'formctl form stats 42 --since 2026-01-01 --until 2026-03-31 --json days',
  ]);
}

export type FormStatsOptions = FlagsOf<typeof formStatsCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> & {
    /** The form's id or slug (the resolved [form] argument). */
    form: string;
  };

/** `formctl form stats [form]`. */
export function newFormStatsCommand(f: Factory, runF = formStatsRun) {
  return formStatsCommand().action(async (form, flags) => runF({ ...flags, io: f.io, api: f.api, now: f.now, form: await resolveFormArg(f, form) }));
}

/** What `form stats` computes (its `--json`). */
export interface FormStats {
  form_id: number;
  title: string;
  since: string;
  until: string;
  /** Every UTC day of the range, oldest first, with the submissions made that day. */
  days: { date: string; submissions: number }[];
  submissions: { total: number; complete: number; partial: number };
  /** The form's all-time counters; conversion = submissions_count / views_count (null without views). */
  views: { views_count: number | null; submissions_count: number | null; conversion: number | null };
  /** Per answerable field: submissions of the range with an answer, and that share of them. */
  fields: { id: string; name: string; filled: number; rate: number | null }[];
  /** Requests made: the form read and the list pages. */
  requests: number;
  /** False when the list read fewer distinct submissions than the service counts (the numbers may be low). */
  complete_list: boolean;
}

function blank(v: unknown): boolean {
  return (
    v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0)
  );
}

const dayOf = (ms: number) => new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10);

/** Reads the form and the part of its list in the range, and counts. */
export async function computeStats(o: FormStatsOptions): Promise<FormStats> {
  const now = o.now();
  const given = resolveRange(o, now);
  const range: Required<TimeRange> = {
    since: given.since ?? Math.floor(now.getTime() / DAY) * DAY - (DEFAULT_DAYS - 1) * DAY,
    until: given.until ?? now.getTime() + 1,
  };
  const client = await o.api();
  const form: Form = await resolveForm(client, o.form);
  const state: WholeListState = { pages: 0, distinct: 0, rereads: 0 };
  const info: RangeReading = { stoppedEarly: false, outOfOrder: false, undated: 0 };
  const perDay = new Map<string, number>();
  const fields = inputProperties(form);
  const filled = new Map<string, number>(fields.map((p) => [p.id, 0]));
  const counts = { total: 0, complete: 0, partial: 0 };
  for await (const page of readListInRange(client, form.id, range, { state }, info)) {
    for (const s of page.items) {
      counts.total++;
      if (isPartial(s)) counts.partial++;
      else counts.complete++;
      const day = dayOf(submittedAtMs(s)!);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
      for (const p of fields) if (!blank(s.data[p.id])) filled.set(p.id, filled.get(p.id)! + 1);
    }
  }
  const days: FormStats['days'] = [];
  for (let t = Math.floor(range.since / DAY) * DAY; t < range.until; t += DAY) days.push({ date: dayOf(t), submissions: perDay.get(dayOf(t)) ?? 0 });
  const views = typeof form.views_count === 'number' ? form.views_count : null;
  const subs = typeof form.submissions_count === 'number' ? form.submissions_count : null;
  return {
    form_id: form.id,
    title: String(form.title ?? ''),
    since: new Date(range.since).toISOString(),
    until: new Date(range.until).toISOString(),
    days,
    submissions: counts,
    views: { views_count: views, submissions_count: subs, conversion: views && subs !== null ? round(subs / views) : null },
    fields: fields.map((p) => ({
      id: p.id,
      name: String(p.name ?? p.id),
      filled: filled.get(p.id)!,
      rate: counts.total ? round(filled.get(p.id)! / counts.total) : null,
    })),
    requests: 1 + state.pages,
    complete_list: info.stoppedEarly || state.complete !== false,
  };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1).replace(/\.0$/, '')}%`);

/**
 * On a terminal: a bar chart of the days and the other numbers as short tables. Piped: the numbers
 * as tab-separated lines (`day`, `submissions`, `views`, `field` records). `--json`: FormStats.
 */
export async function formStatsRun(o: FormStatsOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const stats = await withSpinner(o.io, 'Reading submissions…', () => computeStats(o));
  if (format.kind === 'json' || format.kind === 'ndjson') await writeObject(o.io, format, stats, []);
  else if (o.io.stdoutIsTTY) await write(o.io.stdout, await chart(stats, o.io.columns, o.io.colorStdout));
  else {
    const lines = [
      ...stats.days.map((d) => `day\t${d.date}\t${d.submissions}`),
      `submissions\t${stats.submissions.total}\t${stats.submissions.complete}\t${stats.submissions.partial}`,
      `views\t${stats.views.views_count ?? ''}\t${stats.views.submissions_count ?? ''}\t${stats.views.conversion ?? ''}`,
      ...stats.fields.map((f) => `field\t${f.id}\t${f.filled}\t${f.rate ?? ''}`),
    ];
    await write(o.io.stdout, lines.join('\n') + '\n');
  }
  if (!stats.complete_list) await notice(o.io, `the submission list could not be read completely; the counts may be low (run again).`, 'warning');
  await notice(
    o.io,
    `${stats.requests} request${stats.requests === 1 ? '' : 's'} (the form, and ${stats.requests - 1} page${stats.requests === 2 ? '' : 's'} of its submission list).`,
  );
}

async function chart(s: FormStats, width: number, color: boolean): Promise<string> {
  const chalk = await loadChalk(color);
  const max = Math.max(1, ...s.days.map((d) => d.submissions));
  const barWidth = Math.max(10, Math.min(50, width - 20));
  const out: string[] = [];
  out.push(
    chalk.bold(`Form ${formLabel({ id: s.form_id, title: s.title })}: submissions per day (UTC), ${s.days[0]?.date ?? ''} to ${s.days.at(-1)?.date ?? ''}`),
  );
  for (const d of s.days) {
    const n = d.submissions;
    const bar = n === 0 ? '' : '█'.repeat(Math.max(1, Math.round((n / max) * barWidth)));
    out.push(`${d.date} ${chalk.cyan(bar)}${n === 0 ? chalk.dim('·') : ''} ${n}`);
  }
  out.push('');
  out.push(`${chalk.bold('Submissions')}  ${s.submissions.total} in the range: ${s.submissions.complete} complete, ${s.submissions.partial} partial`);
  out.push(
    `${chalk.bold('Views')}        ${s.views.views_count ?? '–'} views, ${s.views.submissions_count ?? '–'} submissions in all: conversion ${pct(s.views.conversion)}`,
  );
  if (s.fields.length) {
    out.push('');
    out.push(chalk.bold('Fill rate (answered, of the submissions in the range)'));
    const nameWidth = Math.min(30, Math.max(...s.fields.map((f) => f.name.length)));
    for (const f of s.fields) out.push(`  ${f.name.slice(0, nameWidth).padEnd(nameWidth)}  ${pct(f.rate).padStart(6)}  ${f.filled}`);
  }
  return out.join('\n') + '\n';
}
