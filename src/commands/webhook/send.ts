import { StringDecoder } from 'node:string_decoder';
import { Command, Option } from '@commander-js/extra-typings';
import { completes } from '../../completion/kinds.js';
import { getForm } from '../../api/forms.js';
import { NetworkError, ProxyError } from '../../api/errors.js';
import { untrustedCertificate } from '../../api/network.js';
import { type ProxySetting, proxySetting, traceProxy } from '../../api/proxy.js';
import { CliError, ExitCode, InterruptedError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { escapeControls, jsonFormat, notice, writeObject } from '../../io/output.js';
import { WEBHOOK_ANSWER_LIMIT, describeFailure, postRaw } from '../../webhooks/http.js';
import { GENERIC_SAMPLE_FORM, samplePayload } from '../../webhooks/payload.js';
import { SIGNATURE_HEADER, signBody } from '../../webhooks/signature.js';
import { maskWebhookUrl } from '../../webhooks/secret.js';
import { checkHeaders } from '../../webhooks/rules.js';
import { userAgent } from '../../version.js';
import { type FlagsOf, addOutputOptions, examples, fileOption } from '../shared.js';
import { collectHeader, headerObject } from './headers.js';
import { readLocalFile, readSecretFile } from './files.js';

/** Fields of `send --json` (a contract with scripts). */
const SEND_FIELDS = ['url', 'status', 'signed', 'body_bytes', 'response', 'response_truncated'] as const;

/** `formctl webhook send <url>`: the command and its flags, declared once. */
function webhookSendCommand() {
  const cmd = new Command('send')
    .description('POST a correctly signed sample delivery to a receiver under development')
    .argument('<url>', 'Receiver URL (http:// is fine for a local one)')
    .addOption(fileOption('--secret-file <file>', 'Sign with the secret in this file (without it the delivery is unsigned)'))
    .addOption(completes(new Option('--form <form>', "Shape the sample like this form's deliveries (id or slug; needs a login)"), 'form'))
    .option('--sample', 'Send a sample payload (the default when no --body-file is given)')
    .addOption(fileOption('--body-file <file>', 'Send these exact bytes instead of a sample'))
    .option('--header <name:value>', "Extra header, as a webhook's custom headers are sent (repeatable)", collectHeader)
    .option('--show-secret', 'Print the URL in full in --json and errors (its tokens, password or secret path masked by default)');
  return examples(addOutputOptions(cmd, { fields: SEND_FIELDS }), [
    'formctl webhook send http://127.0.0.1:3000/webhooks/formctl --secret-file secret.txt',
    'formctl webhook send http://127.0.0.1:3000/hook --secret-file secret.txt --form contact --sample',
    'formctl webhook send https://staging.example.com/hook --secret-file secret.txt --body-file deliveries/delivery-0001.body',
  ]);
}

export type WebhookSendOptions = FlagsOf<typeof webhookSendCommand> &
  Pick<Factory, 'io' | 'api' | 'now' | 'signal'> & {
    timeoutMs: number;
    userAgent: string;
    url: string;
    /** The proxies from the environment (src/api/proxy.ts), if any. */
    proxy?: ProxySetting;
    /** --debug: where each line goes (the factory's, which redacts signed queries); undefined without --debug. */
    debug?: (line: string) => void;
  };

/** `formctl webhook send <url>`. */
export function newWebhookSendCommand(f: Factory, runF = webhookSendRun) {
  return webhookSendCommand().action((url, flags) =>
    runF({
      ...flags,
      io: f.io,
      api: f.api,
      now: f.now,
      signal: f.signal,
      timeoutMs: f.globals.timeoutMs,
      userAgent: userAgent(),
      url,
      proxy: proxySetting(f.env),
      debug: f.globals.debug ? (line) => f.debug(line) : undefined,
    }),
  );
}

/**
 * `--header` adds headers as a webhook's custom headers are sent, so it takes only what the service
 * accepts as custom headers (src/service/webhooks.ts, the rule `webhook create` applies): a blocked
 * name never reaches a real delivery, and two of them (`X-Webhook-Signature`, `Content-Type`) are
 * set by send itself, which would replace the given value without a word. Refused, exit 2, before
 * any file is read or anything sent; the signature gets its own words.
 */
function checkSendHeaders(headers: Record<string, string>): void {
  const signature = Object.keys(headers).find((k) => k.toLowerCase() === SIGNATURE_HEADER.toLowerCase());
  if (signature !== undefined) {
    throw new UsageError(
      `--header ${escapeControls(signature, { all: true })}: send computes the signature itself, from --secret-file over the exact bytes it sends.`,
      'Pass --secret-file with the secret the receiver verifies with (without it the delivery is unsigned); to test a wrong signature, use a wrong secret.',
    );
  }
  const problems = checkHeaders(headers);
  if (problems.length > 0) {
    throw new UsageError(`--header: ${problems.join(' ')}`, "A webhook's custom headers follow this rule of the service, so send's --header does too.");
  }
}

/** Builds the body (sample or file), signs it as the service does and POSTs it once. */
export async function webhookSendRun(o: WebhookSendOptions): Promise<void> {
  const json = jsonFormat(o);
  // The URL as printed: a receiver's URL may carry its credential (docs/security.md, "Secrets in output").
  const shown = (text: string) => (o.showSecret ? text : String(maskWebhookUrl(text)));
  if (!URL.canParse(o.url) || !/^https?:$/.test(new URL(o.url).protocol)) {
    throw new UsageError(`The receiver URL must be http:// or https://, got "${shown(o.url)}".`);
  }
  if (o.bodyFile !== undefined && (o.form !== undefined || o.sample)) throw new UsageError('Use either --body-file or --form/--sample, not both.');
  const extra = headerObject(o.header ?? []);
  checkSendHeaders(extra);
  const secret = o.secretFile !== undefined ? await readSecretFile(o.secretFile) : undefined;
  let body: Buffer;
  if (o.bodyFile !== undefined) body = await readLocalFile(o.bodyFile, '--body-file');
  else {
    const form = o.form !== undefined ? await getForm(await o.api(), o.form.trim()) : GENERIC_SAMPLE_FORM;
    // Compact JSON, as the service sends it: receivers must verify these exact bytes.
    body = Buffer.from(JSON.stringify(samplePayload(form, { now: o.now() })), 'utf8');
  }
  if (secret === undefined) await notice(o.io, 'no --secret-file: sending without an X-Webhook-Signature header.', 'warning');
  const headers: Record<string, string> = { ...extra, 'Content-Type': 'application/json', 'User-Agent': o.userAgent };
  if (secret !== undefined) headers[SIGNATURE_HEADER] = signBody(secret, body);

  const url = new URL(o.url);
  // --debug as the API client logs: the request, the proxy it went through (password masked), the answer.
  const where = shown(url.origin + url.pathname);
  o.debug?.(`> POST ${where}`);
  const untrace = o.debug && o.proxy ? traceProxy(o.proxy, o.debug) : undefined;
  const t0 = Date.now();
  let res;
  try {
    res = await postRaw(url, { headers, body, timeoutMs: o.timeoutMs, signal: o.signal, proxy: o.proxy });
    o.debug?.(`< ${res.status} POST ${where} (${Date.now() - t0} ms)`);
  } catch (err) {
    if (err instanceof ProxyError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.name === 'AbortError' || o.signal.aborted) throw new InterruptedError();
    const { reason, code } = describeFailure(err, url);
    // A certificate this Node does not trust: the API client's words and hint (NODE_EXTRA_CA_CERTS; no --insecure).
    const untrusted = untrustedCertificate(code, url.host);
    const hint =
      untrusted?.hint ??
      (code === 'ECONNREFUSED'
        ? 'Is the receiver running on that address and port?'
        : code === 'ETIMEDOUT'
          ? 'Is the receiver stuck? Raise --timeout if it is just slow.'
          : undefined);
    throw new NetworkError(`${untrusted?.reason ?? reason} (POST ${shown(url.origin + url.pathname)}).`, hint, code);
  } finally {
    untrace?.();
  }
  // A cut answer may end inside a character: the decoder keeps back the incomplete bytes instead of writing U+FFFD.
  const received = res.truncated ? new StringDecoder('utf8').write(res.body) : res.body.toString('utf8');
  // On a terminal the receiver's answer is shown, not obeyed (escape sequences); piped, it stays as received.
  const response = o.io.stdoutIsTTY && !json ? escapeControls(received, { newlines: true }) : received;
  if (json) {
    // One line, as before the field list existed: a contract with scripts that read it line by line.
    await writeObject(
      o.io,
      json,
      { url: shown(url.href), status: res.status, signed: secret !== undefined, body_bytes: body.length, response, response_truncated: res.truncated },
      [],
      { compact: true },
    );
  } else {
    await write(o.io.stdout, `HTTP ${res.status}${response ? `\n${response.endsWith('\n') ? response : `${response}\n`}` : '\n'}`);
  }
  // The status is the receiver's verdict all the same; what follows the first MiB was never read.
  if (res.truncated) {
    const MIB = WEBHOOK_ANSWER_LIMIT / 1024 / 1024;
    await notice(
      o.io,
      `the receiver's answer is longer than ${MIB} MiB, the most formctl reads of it: ${json ? '"response" holds' : 'the text above is'} its first ${MIB} MiB; the rest was not read.`,
      'warning',
    );
  }
  if (res.status < 200 || res.status >= 300) {
    throw new CliError(
      `The receiver answered HTTP ${res.status}; the service would record this delivery as failed.`,
      ExitCode.error,
      res.status === 401 || res.status === 403 ? 'Does the receiver use the same secret, and verify the raw body bytes?' : undefined,
    );
  }
}
