import { Command } from '@commander-js/extra-typings';
import { type DispatchEvent, listWebhookEvents } from '../../api/webhooks.js';
import { UsageError } from '../../errors.js';
import { MAX_SECONDS, MAX_SECONDS_WORDS, abortableSleep } from '../../sleep.js';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { applyLimit, listLimit, moreNote } from '../../io/limit.js';
import { type Column, escapeControls, loadChalk, notice, resolveFormat, writeList } from '../../io/output.js';
import { type FlagsOf, addFormArgument, addOutputOptions, choiceOption, examples, addLimitOptions } from '../shared.js';
import { addShowSecretOption, addWebhookIdArgument, resolveWebhookArgs } from './shared.js';
import { maskWebhookUrl } from '../../webhooks/secret.js';
import { webhookTarget } from './target.js';

export const EVENT_FIELDS = ['id', 'integration_id', 'event', 'status', 'response_code', 'error_message', 'created_at'] as const;
export const EVENT_STATUSES = ['success', 'failed', 'timeout'] as const;

/** Default poll interval: 12 requests a minute leaves most of the service's 100/min for other work. */
export const DEFAULT_INTERVAL_S = 5;
const MIN_INTERVAL_S = 1;

/** `--interval <seconds>` → milliseconds, at least MIN_INTERVAL_S. */
function parseInterval(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < MIN_INTERVAL_S) throw new UsageError(`--interval must be a number of seconds of at least ${MIN_INTERVAL_S}, got "${v}".`);
  if (n > MAX_SECONDS) throw new UsageError(`--interval must be a number of seconds ${MAX_SECONDS_WORDS}, got "${v}".`);
  return Math.round(n * 1000);
}

/** `formctl webhook events [form] [id]`: the command and its flags, declared once. */
function webhookEventsCommand() {
  const base = new Command('events')
    .description('Show delivery attempts, newest first; --follow prints new ones as they happen')
    .addOption(choiceOption('--status <status>', 'Only records with this status', EVENT_STATUSES))
    .option('-f, --follow', 'Keep polling and print new records as they arrive (oldest first); Ctrl-C stops with exit 0')
    // In milliseconds once parsed.
    .option('--interval <seconds>', `Seconds between polls with --follow (default ${DEFAULT_INTERVAL_S}, at least ${MIN_INTERVAL_S})`, parseInterval);
  return examples(
    addOutputOptions(addShowSecretOption(addWebhookIdArgument(addFormArgument(addLimitOptions(base, 'records')))), { list: true, fields: EVENT_FIELDS }),
    [
      'formctl webhook events contact 7',
      'formctl webhook events 42 7 --status failed',
      'formctl webhook events 42 7 --follow --json | jq -c \'select(.status != "success")\'',
    ],
  );
}

export type WebhookEventsOptions = FlagsOf<typeof webhookEventsCommand> &
  Pick<Factory, 'io' | 'api' | 'now' | 'signal'> & {
    /** Waits between polls; resolves early when the signal aborts. */
    sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
    form: string;
    id: number;
  };

/** `formctl webhook events [form] [id]`. */
export function newWebhookEventsCommand(f: Factory, runF = webhookEventsRun) {
  return webhookEventsCommand().action(async (formArg, idArg, flags) => {
    const { form, id } = await resolveWebhookArgs(f, formArg, idArg);
    return runF({ ...flags, io: f.io, api: f.api, now: f.now, signal: f.signal, form, id });
  });
}

const COLUMNS: Column<DispatchEvent>[] = [
  { header: 'ID', value: (e) => e.id, style: 'cyan' },
  { header: 'Status', value: (e) => e.status },
  { header: 'Code', value: (e) => e.response_code },
  { header: 'Event', value: (e) => e.event },
  { header: 'Error', value: (e) => e.error_message },
  { header: 'When', value: (e) => e.created_at, time: true },
];

/**
 * A record safe to print: the receiver's URL, which the service quotes in a failure's message
 * (`… for https://hooks.example.com/in?token=…`), with its secret parts masked as `webhook get`
 * masks them, unless --show-secret.
 */
function eventView(e: DispatchEvent, showSecret: boolean | undefined): DispatchEvent {
  if (showSecret || typeof e.error_message !== 'string') return e;
  const error_message = maskWebhookUrl(e.error_message);
  return error_message === e.error_message ? e : { ...e, error_message };
}

const MASKED_EVENTS_NOTE = 'URLs in error messages are shown with their secret parts masked (••••). Pass --show-secret to print them in full.';

/** Record identity: the spec's id, or (deployed records have none) position from the oldest. */
function newRecords(previous: DispatchEvent[], current: DispatchEvent[]): DispatchEvent[] {
  if (current.every((e) => e.id !== null && e.id !== undefined)) {
    const seen = new Set(previous.map((e) => String(e.id)));
    return current.filter((e) => !seen.has(String(e.id)));
  }
  return current.slice(0, Math.max(0, current.length - previous.length));
}

/** Lists dispatch records; with --follow, polls within the rate budget until Ctrl-C. */
export async function webhookEventsRun(o: WebhookEventsOptions): Promise<void> {
  try {
    await eventsRun(o);
  } catch (err) {
    // --follow promises exit 0 on Ctrl-C, also when it lands during the first reads (a request it
    // aborts may surface as an interruption or as a cut connection).
    if (o.follow && o.signal.aborted) return;
    throw err;
  }
}

async function eventsRun(o: WebhookEventsOptions): Promise<void> {
  let format = resolveFormat(o.io, o);
  // With --follow the limit applies to the records already there when it starts (the newest ones).
  const limit = listLimit(format, o);
  const client = await o.api();
  // The id must be a webhook of this form: the events of another integration kind are not deliveries.
  const { formId } = await webhookTarget(client, o.form, o.id);
  const keep = (e: DispatchEvent) => o.status === undefined || e.status === o.status;
  const first = await listWebhookEvents(client, formId, o.id);
  const { rows: shown, cut } = applyLimit(first.filter(keep), limit);
  let noted = false;
  /** The records as printed, and the note the first time a URL in them was masked. */
  const masked = async (batch: DispatchEvent[]): Promise<DispatchEvent[]> => {
    const out = batch.map((e) => eventView(e, o.showSecret));
    if (!noted && out.some((e, i) => e !== batch[i])) {
      noted = true;
      await notice(o.io, MASKED_EVENTS_NOTE);
    }
    return out;
  };

  if (!o.follow) {
    await writeList(o.io, format, await masked(shown), COLUMNS, {
      now: o.now(),
      empty: o.status ? `No ${o.status} deliveries for webhook ${o.id}.` : `No deliveries yet for webhook ${o.id}.`,
    });
    if (cut) await notice(o.io, moreNote(shown.length, 'delivery records', o.status !== undefined));
    return;
  }

  // A stream has no closing bracket: --json becomes one object per line.
  if (format.kind === 'json') format = { kind: 'ndjson', fields: format.fields };
  const chalk = await loadChalk(o.io.colorStdout);
  const print = async (batch: DispatchEvent[]) => {
    const oldestFirst = await masked(batch.filter(keep).reverse());
    if (format.kind !== 'table') {
      await writeList(o.io, format, oldestFirst, COLUMNS);
      return;
    }
    for (const e of oldestFirst) {
      const color = e.status === 'success' ? chalk.green : chalk.red;
      // Every field comes from the service (error_message quotes the receiver): show escapes, never obey them.
      const t = (v: unknown) => escapeControls(String(v));
      const parts = [t(e.created_at ?? '-'), color(t(e.status).padEnd(7)), t(e.response_code ?? '-').padEnd(3), t(e.event ?? '-')];
      if (e.error_message) parts.push(chalk.dim(t(e.error_message)));
      await write(o.io.stdout, parts.join('  ') + '\n');
    }
  };
  if (o.io.stderrIsTTY) await write(o.io.stderr, `Following deliveries of webhook ${o.id} (Ctrl-C to stop)…\n`);
  await print(shown);
  if (cut) await notice(o.io, `showed the newest ${shown.length} earlier delivery records; pass --all or --limit N for more.`);
  // Ctrl-C ends the wait, not the command: the loop below then stops quietly.
  const sleep = o.sleep ?? ((ms: number, signal: AbortSignal) => abortableSleep(ms, signal).catch(() => undefined));
  const interval = o.interval ?? DEFAULT_INTERVAL_S * 1000;
  let previous = first;
  while (!o.signal.aborted) {
    let wait = interval;
    // Near the end of the rate window, wait for it to reset rather than spend the last requests.
    const rl = client.rateLimit;
    if (rl.remaining !== undefined && rl.limit !== undefined && rl.remaining < Math.max(5, rl.limit / 10) && rl.resetAt !== undefined) {
      wait = Math.max(wait, rl.resetAt - o.now().getTime());
    }
    await sleep(wait, o.signal);
    if (o.signal.aborted) break;
    const current = await listWebhookEvents(client, formId, o.id);
    await print(newRecords(previous, current));
    previous = current;
  }
}
