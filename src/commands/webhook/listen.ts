import { Command, Option } from '@commander-js/extra-typings';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { write } from '../../io/iostreams.js';
import { type OutputFormat, escapeControls, loadChalk, writeObject } from '../../io/output.js';
import { type Delivery, startListener } from '../../webhooks/listener.js';
import { WEBHOOK_ANSWER_LIMIT } from '../../webhooks/http.js';
import { type FlagsOf, directoryOption, examples, fileOption, jqOption } from '../shared.js';
import { afterColon } from './shared.js';
import { readSecretFile } from './files.js';

export const DEFAULT_LISTEN_PORT = 8787;
/** The address `webhook listen` binds when --host is not given: this machine only. */
const DEFAULT_LISTEN_HOST = '127.0.0.1';

/** `--port <port>`: a port number from 0 (any free one) to 65535. */
function parsePort(v: string): number {
  const port = Number(v);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number from 0 to 65535, got "${v}".`);
  return port;
}

/** `formctl webhook listen`: the command and its flags, declared once. */
function webhookListenCommand() {
  const cmd = new Command('listen')
    .description('Run a local receiver that prints every delivery and checks its signature')
    .option('--port <port>', 'Port to listen on; 0 picks a free one', parsePort, DEFAULT_LISTEN_PORT)
    .option('--host <address>', `Address to bind (default ${DEFAULT_LISTEN_HOST})`)
    .addOption(fileOption('--secret-file <file>', 'Verify X-Webhook-Signature with this secret (answers 401 when it is wrong)'))
    .option('--forward-to <url>', 'Forward each delivery unchanged to this URL and pass its answer back')
    .addOption(directoryOption('--save-dir <dir>', 'Write each raw body and its headers here (for `webhook verify --body-file`)'))
    .option('--ndjson', 'One JSON object per delivery on stdout, streamed')
    // The flag's first name, kept working for scripts written before it streamed under --ndjson.
    .addOption(new Option('--json').hideHelp())
    .addOption(jqOption('--ndjson'));
  return examples(cmd, [
    'formctl webhook listen --port 8787 --secret-file secret.txt',
    'formctl webhook listen --secret-file secret.txt --forward-to http://127.0.0.1:3000/webhooks/formctl',
    "formctl webhook listen --port 0 --ndjson --save-dir ./deliveries | jq -c '{seq, verdict: .signature.verdict}'",
  ]);
}

export type WebhookListenOptions = Omit<FlagsOf<typeof webhookListenCommand>, 'host'> & {
  io: IOStreams;
  now: () => Date;
  /** Aborted on Ctrl-C: the listener stops and the command exits 0. */
  signal: AbortSignal;
  /** The --host value, its default filled in (help states it in its own words: docs/architecture.md). */
  host: string;
  /** Tests learn the URL here instead of parsing stderr. */
  onListening?: (url: string) => void;
};

/** `formctl webhook listen`. */
export function newWebhookListenCommand(f: Factory, runF = webhookListenRun) {
  return webhookListenCommand().action((flags) => runF({ ...flags, io: f.io, now: f.now, signal: f.signal, host: flags.host ?? DEFAULT_LISTEN_HOST }));
}

/** What a local listener can and cannot receive, said once at start. */
export const PRIVATE_NOTE =
  'This address is private: the hosted service delivers only to public https:// URLs and cannot reach it. It receives from ' +
  '`formctl sandbox --allow-private-webhooks` and from self-hosted instances that allow private webhook URLs. For the hosted ' +
  "service, expose the port with a tunnel of your choice and give the tunnel's https:// URL to `formctl webhook create --url`.";

/** Loopback, private, link-local or unspecified: not reachable from the hosted service. */
export async function isPrivateHost(host: string): Promise<boolean> {
  const h = host.replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  // Loaded here, as in src/webhooks/rules.ts, so that start-up does not pay for it.
  const ipaddr = (await import('ipaddr.js')).default;
  if (!ipaddr.isValid(h)) return false;
  const range = ipaddr.process(h).range();
  return range !== 'unicast';
}

/** The body as JSON when it is JSON, else as text (listen prints and verifies any body). */
function parsedBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The NDJSON record of one delivery (a contract with scripts). */
export function deliveryRecord(d: Delivery): Record<string, unknown> {
  const headers: Record<string, string> = {};
  for (const [k, v] of d.rawHeaders) headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`;
  return {
    seq: d.seq,
    received_at: d.receivedAt.toISOString(),
    method: d.method,
    path: d.path,
    headers,
    body: parsedBody(d.body),
    body_bytes: d.body.length,
    signature: { verdict: d.signature.verdict, reason: d.signature.reason ?? null, message: d.signature.message ?? null },
    forward: d.forward
      ? {
          url: d.forward.url,
          status: d.forward.status ?? null,
          error: d.forward.error ?? null,
          code: d.forward.code ?? null,
          response_truncated: d.forward.truncated === true,
        }
      : null,
    response_status: d.responseStatus,
    saved: d.saved ?? null,
  };
}

async function printHuman(io: IOStreams, d: Delivery): Promise<void> {
  const c = await loadChalk(io.colorStdout);
  // Whoever can reach the listener (and every form answer in a delivery) controls these bytes.
  const e = (s: string) => escapeControls(s);
  const verdict =
    d.signature.verdict === 'valid'
      ? c.green('signature valid')
      : d.signature.verdict === 'invalid'
        ? c.red(`signature INVALID (${d.signature.reason}): ${afterColon(d.signature.message ?? '')}`)
        : c.dim('signature not checked (no --secret-file)');
  const lines = [c.bold(`#${d.seq} ${e(d.method)} ${e(d.path)}  ${d.receivedAt.toISOString()}  ${d.body.length} bytes`), `  ${verdict}`];
  for (const [k, v] of d.rawHeaders) lines.push(`  ${c.dim(`${e(k)}:`)} ${e(v)}`);
  const body = parsedBody(d.body);
  lines.push('', escapeControls(typeof body === 'string' ? body : JSON.stringify(body, null, 2), { newlines: true }));
  if (d.forward) {
    lines.push(
      d.forward.error
        ? c.red(`→ forward to ${e(d.forward.url)} failed: ${e(afterColon(d.forward.error))}`)
        : `→ forwarded to ${e(d.forward.url)}: HTTP ${d.forward.status}${d.forward.truncated ? c.yellow(` (answer cut: only its first ${WEBHOOK_ANSWER_LIMIT / 1024 / 1024} MiB passed back)`) : ''}`,
    );
  }
  if (d.held) lines.push(c.yellow(`→ not forwarded to ${e(d.held)}: the signature is not valid`));
  if (d.saved) lines.push(c.dim(`→ saved ${d.saved.body} and ${d.saved.headers}`));
  lines.push(c.dim(`→ answered HTTP ${d.responseStatus}`), '');
  await write(io.stdout, lines.join('\n') + '\n');
}

/** Listens until Ctrl-C, printing each delivery as it arrives. */
export async function webhookListenRun(o: WebhookListenOptions): Promise<void> {
  // --jq implies --ndjson here: the expression runs on each delivery as it arrives.
  const format: OutputFormat | undefined =
    o.ndjson || o.json || o.jq !== undefined ? { kind: 'ndjson', ...(o.jq !== undefined ? { jq: o.jq } : {}) } : undefined;
  const secret = o.secretFile !== undefined ? await readSecretFile(o.secretFile) : undefined;
  let forwardTo: URL | undefined;
  if (o.forwardTo !== undefined) {
    if (!URL.canParse(o.forwardTo) || !/^https?:$/.test(new URL(o.forwardTo).protocol)) {
      throw new UsageError(`--forward-to must be an http:// or https:// URL, got "${o.forwardTo}".`);
    }
    forwardTo = new URL(o.forwardTo);
  }
  let listener;
  try {
    listener = await startListener({
      host: o.host,
      port: o.port,
      secret,
      forwardTo,
      saveDir: o.saveDir,
      now: o.now,
      onDelivery: async (d) => {
        if (format) await writeObject(o.io, format, deliveryRecord(d), []);
        else await printHuman(o.io, d);
      },
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // A --port or --host this machine cannot listen on is bad input, fixed by another value: exit 2, as `formctl sandbox`.
    if (e.code === 'EADDRINUSE') throw new CliError(`Port ${o.port} is in use.`, ExitCode.usage, 'Pick another --port (0 picks a free one).');
    if (e.code === 'EACCES') throw new CliError(`Not allowed to listen on port ${o.port}.`, ExitCode.usage, 'Pick a port above 1023 (0 picks a free one).');
    if (e.code === 'EADDRNOTAVAIL')
      throw new CliError(`Cannot listen on ${o.host}: no such local address.`, ExitCode.usage, 'Pass a --host this machine has, such as 127.0.0.1.');
    throw err;
  }
  // Scripts read this first stderr line to learn the URL (with --port 0 especially).
  await write(o.io.stderr, `Listening on ${listener.url}\n`);
  const notes = [secret !== undefined ? 'Checking signatures' : 'Not checking signatures (pass --secret-file)'];
  if (forwardTo) notes.push(`forwarding to ${forwardTo.href}`);
  if (o.saveDir) notes.push(`saving to ${o.saveDir}`);
  await write(o.io.stderr, `${notes.join('; ')}. Press Ctrl-C to stop.\n`);
  // The hosted service refuses private receivers (docs/webhooks-and-members.md, "Private receivers").
  if (await isPrivateHost(o.host)) await write(o.io.stderr, `${PRIVATE_NOTE}\n`);
  o.onListening?.(listener.url);
  await new Promise<void>((resolve) => {
    if (o.signal.aborted) return resolve();
    o.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await listener.close();
}
