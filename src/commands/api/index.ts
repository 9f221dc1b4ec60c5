import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import type { ApiResponse, Method } from '../../api/client.js';
import { NotFoundError, UnauthorizedError, apiErrorFor, closedToTokens, emptyMessageBody, isUnknownRoute } from '../../api/errors.js';
import { UnexpectedAnswerError } from '../../api/normalize.js';
import { items, paginate } from '../../api/paginate.js';
import { CliError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { write } from '../../io/iostreams.js';
import { cannotRead, readHint } from '../../io/files.js';
import { jsonPainter, notice, writeJq } from '../../io/output.js';
import { collect, examples, fileOption, jqOption, type FlagsOf } from '../shared.js';
import { type FieldFlag, buildBody, orderedFields, parseHeaders, queryPairs, showableName, typedValue } from './fields.js';
import { readAll } from '../../io/iostreams.js';
import { shellWord } from '../../io/shell-word.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/** A method named in any case, as one of METHODS in upper case; another is Commander's usual refusal. */
function parseMethod(value: string): (typeof METHODS)[number] {
  const upper = value.toUpperCase();
  const method = METHODS.find((m) => m === upper);
  if (!method) throw new InvalidArgumentError(`Allowed choices are ${METHODS.join(', ')}.`);
  return method;
}

/**
 * A -f/-F value without `key=`: the flag, what was given when it reads as a field name (never a
 * value: after an `=`, or a token given alone), and the form with an example.
 */
function badField(flag: '-f' | '-F', value: string, eq: number): UsageError {
  const example =
    flag === '-F'
      ? "e.g. -F name=Acme (-F count=3 sends a number, -F notes=@notes.txt a file's text)"
      : 'e.g. -f name=Acme (always a string; -F sends numbers, true/false/null and files)';
  if (eq === 0) return new UsageError(`${flag} "=…" has no key before its '=': a field is key=value.`, `Write it as ${flag} key=value, ${example}.`);
  // What was given is shown when it reads as a field name; else it may be a value (a token) given alone.
  const named = showableName(value);
  return new UsageError(
    `${named ? `${flag} "${value}"` : `${flag} (not shown, in case it is a secret)`} is not key=value: it has no '='.`,
    `Write it as ${flag} ${named ? value : 'key'}=value, ${example}.`,
  );
}

/** `formctl api <path>`: the command and its flags, declared once. */
function apiCommand() {
  // -f and -F keep their own lists; numbering every field as it is parsed lets the run merge the two
  // back in command-line order (a later field of the same key wins, whichever flag it came with).
  let seen = 0;
  const field =
    (flag: '-f' | '-F') =>
    (value: string, previous: FieldFlag[] = []): FieldFlag[] => {
      const i = value.indexOf('=');
      if (i <= 0) throw badField(flag, value, i);
      return [...previous, { key: value.slice(0, i), raw: value.slice(i + 1), at: seen++ }];
    };
  const base = new Command('api')
    .description('Make an authenticated request to any API endpoint and print the response')
    .argument('<path>', 'Path under the base URL, e.g. /open/workspaces (a query string is allowed)')
    .addOption(
      // choices() shows the methods in help; the parser set after it (Commander's choices() sets its
      // own, which compares case-sensitively) takes them in any case, as curl and gh do.
      new Option('-X, --method <method>', 'HTTP method, any letter case (default GET, or POST when fields or --input are given)')
        .choices(METHODS)
        .argParser(parseMethod),
    )
    .option('-f, --raw-field <key=value>', 'String field; body for POST/PUT/PATCH, query for GET (repeatable)', field('-f'))
    .option('-F, --field <key=value>', 'Typed field: true/false/null and numbers are JSON, @file reads a file, @- stdin (repeatable)', field('-F'))
    .addOption(fileOption('--input <file>', 'Send this file as the raw request body ("-" for stdin); fields then go in the query'))
    .option('--paginate', 'Follow every page (GET) and print one merged JSON array; a page=N in the path is where it starts')
    .option('-H, --header <header>', "Extra request header 'Name: value' (repeatable)", collect)
    .option('-i, --include', 'Print the HTTP status line and response headers before the body')
    .addOption(jqOption())
    .option('--silent', 'Print no answer on success (the exit code still tells; notes on stderr still show)');
  return examples(base, [
    'formctl api /open/workspaces',
    'formctl api /open/workspaces/create -f name=Marketing -f emoji=📣',
    "formctl api open/workspaces/12/forms --paginate --jq '.[].slug'",
    'formctl api /open/forms/42/submissions/export -F columns[created_at]=true',
    'formctl api -X PUT /open/forms/42 --input form.json',
    '# Errors exit non-zero (see `formctl help exit-codes`); the error body still goes to stdout',
  ]);
}

export type ApiOptions = FlagsOf<typeof apiCommand> &
  Pick<Factory, 'io' | 'api'> & {
    /** The <path> argument. */
    path: string;
  };

/** `formctl api <path>`. */
export default function newApiCommand(f: Factory, runF = apiRun) {
  return apiCommand().action((path, flags) => runF({ ...flags, io: f.io, api: f.api, path }));
}

/** Sends the request through the one ApiClient (auth, retries, rate limits) and prints the answer. */
export async function apiRun(o: ApiOptions): Promise<void> {
  if (!o.path.trim()) throw new UsageError('The path must not be empty.', 'For example: formctl api /open/workspaces');
  const headers = parseHeaders(o.header ?? []);
  let stdinUsed = false;
  const stdin = async () => {
    if (stdinUsed) throw new UsageError('Only one of --input - and -F key=@- can read stdin.');
    stdinUsed = true;
    return readAll(o.io.stdin);
  };

  const fields: Array<{ key: string; value: unknown }> = [];
  for (const fl of orderedFields(o.rawField, o.field)) {
    const value = !fl.typed ? fl.raw : fl.raw === '@-' ? (await stdin()).toString('utf8') : typedValue(fl.raw);
    fields.push({ key: fl.key, value });
  }
  let rawBody: Buffer | undefined;
  if (o.input !== undefined) {
    if (o.input === '-') rawBody = await stdin();
    else {
      try {
        rawBody = readFileSync(o.input);
      } catch (err) {
        throw cannotRead(`--input ${o.input}`, err, `${readHint(err)} --input - reads the body from stdin.`);
      }
    }
  }

  const method = (o.method ?? (fields.length > 0 || rawBody !== undefined ? 'POST' : 'GET')) as Method;
  if (o.paginate && method !== 'GET') throw new UsageError('--paginate works only with GET requests.');
  // One merged array has no single status line to show: refused rather than silently dropped.
  if (o.paginate && o.include) {
    throw new UsageError(
      '--include cannot be combined with --paginate: the pages are merged into one array.',
      'Drop -i, or look at one page with `formctl api <path>?page=N -i`.',
    );
  }
  if (rawBody !== undefined && (method === 'GET' || method === 'HEAD'))
    throw new UsageError(`--input sends a body, which ${method} requests cannot have.`, 'Pass -X POST, PUT or PATCH.');
  const inQuery = method === 'GET' || method === 'HEAD' || rawBody !== undefined;
  let path = o.path.trim();
  if (inQuery && fields.length > 0) {
    const qs = new URLSearchParams(queryPairs(fields)).toString();
    path += (path.includes('?') ? '&' : '?') + qs;
  }
  const contentType = headers['content-type'];
  delete headers['content-type'];

  const client = await o.api();
  // The client sends the token to the configured service only (docs/security.md): a full URL of
  // another origin goes without it, which the answer (a 401, or a public one) would not tell. Said on
  // stderr even with --silent, which quiets the answer only, as gh's does.
  const target = client.resolve({ path });
  const foreign = target.origin !== client.baseUrl.origin;
  if (foreign) {
    await notice(o.io, `the token was not sent: ${target.origin} is not the service's origin (${client.baseUrl.origin}).`);
  }
  // The service may echo the token (a 401 body, a header): what `api` prints never shows it, as --debug does not.
  const mask = (text: string) => client.maskToken(text);
  if (o.paginate) {
    const all: unknown[] = [];
    let pages = 0;
    try {
      for await (const item of items(paginate<unknown>(client, { path, headers }, { page: startPage(path) }), () => pages++)) all.push(item);
    } catch (err) {
      // A JSON answer that is not a list, on the first page: the service answered, and the base URL
      // is right; the path names one object (a form, a workspace), which has no pages to follow.
      if (err instanceof UnexpectedAnswerError && pages === 0 && err.gotJson) {
        const shown = client.redact(o.path.trim());
        const got = /^an? (empty )?object\b/.test(err.got) ? 'an object' : err.got;
        throw new UsageError(
          `--paginate needs a list route, but GET ${shown} answered with ${got}, not a list.`,
          `--paginate is for list routes (e.g. open/workspaces/ID/forms); drop it for a single object: formctl api ${shellWord(shown)}`,
        );
      }
      throw err;
    }
    if (!o.silent) await printJson(o.io, all, mask, o.jq);
    return;
  }
  const res = await client.request<unknown>({
    method,
    path,
    headers,
    body: inQuery ? undefined : buildBody(fields),
    rawBody,
    contentType,
    // Error answers are data here (printed like gh api does), except those the client retries.
    acceptStatuses: ERROR_STATUSES,
  });
  // jq reads JSON only: a CSV or HTML answer cannot be filtered, and printing it unfiltered would
  // hand the next command in the pipe something else than it asked for.
  if (o.jq !== undefined && !o.silent && res.status < 400 && !isJsonAnswer(res)) {
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    throw new UsageError(
      `--jq needs a JSON answer, but the service answered ${type ? type : 'something that is not JSON'} (HTTP ${res.status}, ${method} ${client.redact(res.path)}).`,
      'Drop --jq to get the answer as it is.',
    );
  }
  if (o.include) await printHead(o.io, res, mask);
  if (!o.silent || res.status >= 400) await printBody(o.io, res.data, mask, o.jq);
  if (res.status >= 400) {
    // A full URL on the service's own origin is shown as the service's path, as --debug shows it.
    const shownAs = !foreign && /^https?:\/\//i.test(path.trim()) ? res.path : undefined;
    throw errorFor(res, method, foreign ? res.path : path, (t) => client.redact(t), foreign ? client.baseUrl.origin : undefined, shownAs);
  }
}

/** Whether the answer's body is JSON (jq can read it): parsed as JSON by the client, a JSON string included; no body is none. */
function isJsonAnswer(res: ApiResponse<unknown>): boolean {
  if (res.data === undefined) return true;
  return typeof res.data !== 'string' || /json/i.test(String(res.headers['content-type'] ?? ''));
}

/** A `page=N` in the path (or from -f page=N) is where --paginate starts; anything else there is an error. */
function startPage(path: string): number | undefined {
  const q = path.indexOf('?');
  if (q < 0) return undefined;
  const pages = new URLSearchParams(path.slice(q + 1)).getAll('page');
  if (pages.length === 0) return undefined;
  if (pages.length > 1 || !/^[1-9]\d*$/.test(pages[0]!)) {
    throw new UsageError(`--paginate needs one whole page number of at least 1 in the path, got page=${pages.join(', page=')}.`);
  }
  return Number(pages[0]);
}

const ERROR_STATUSES = Array.from({ length: 200 }, (_, i) => 400 + i).filter((s) => s !== 429 && s !== 502 && s !== 503 && s !== 504);

/**
 * The error line for an error answer; `redact` removes the token should the service echo it (as the
 * client does for its own errors). `serviceOrigin` is set when the answer came from another origin
 * (a full URL), which got no token: `path` is then the client's display of that URL.
 */
function errorFor(
  res: ApiResponse<unknown>,
  method: string,
  path: string,
  redact: (text: string) => string,
  serviceOrigin?: string,
  shownAs?: string,
): CliError {
  const data = res.data as { message?: unknown; error?: unknown; errors?: unknown } | undefined;
  const raw = typeof data?.message === 'string' ? data.message : typeof data?.error === 'string' ? data.error : undefined;
  const message = raw === undefined ? undefined : redact(raw);
  let errors: Record<string, string[]> | undefined;
  if (data?.errors && typeof data.errors === 'object') {
    errors = {};
    for (const [k, v] of Object.entries(data.errors as Record<string, unknown>))
      errors[redact(k)] = (Array.isArray(v) ? v.map(String) : [String(v)]).map(redact);
  }
  const allow = typeof res.headers.allow === 'string' ? res.headers.allow : undefined;
  const shown = shownAs ?? (serviceOrigin || path.startsWith('/') ? path : `/${path}`);
  const err = apiErrorFor({ status: res.status, method, path: redact(shown), serverMessage: message, errors, allow, emptyMessage: emptyMessageBody(res.data) });
  // Another origin's 401 is not about formctl's token, which it was never sent.
  if (serviceOrigin !== undefined) {
    return err instanceof UnauthorizedError
      ? new CliError(err.message, err.exitCode, `formctl sent no token there: it sends the token to the service's origin (${serviceOrigin}) only.`)
      : err;
  }
  if (err instanceof NotFoundError && !/^\/?open\//.test(path) && !/^https?:/i.test(path)) {
    return new CliError(err.message, err.exitCode, 'API paths start with /open/, e.g. `formctl api /open/workspaces`.');
  }
  // Laravel's router's own 404 (docs/service.md, "Requests in general"): no route, so no id to check.
  if (err instanceof NotFoundError && isUnknownRoute(message)) {
    return new CliError(err.message, err.exitCode, 'This service has no such route: check the path, which is sent as given.');
  }
  if (closedToTokens(err)) {
    // The deployed server's answer to a token on a route that exists but is not open to tokens
    // (docs/service.md, "Requests in general"): the ids in the path may well be right.
    const resource = err.hint ? `; if it does, ${err.hint.charAt(0).toLowerCase()}${err.hint.slice(1)}` : '';
    return new CliError(
      err.message,
      err.exitCode,
      `This service may not let API tokens use this route (the deployed OpnForm service answers such a route 404 with an empty message)${resource}`,
    );
  }
  return err;
}

async function printHead(io: IOStreams, res: ApiResponse<unknown>, mask: (text: string) => string): Promise<void> {
  let head = `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd() + '\n';
  for (const [name, value] of Object.entries(res.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) head += `${name}: ${v}\n`;
  }
  await write(io.stdout, mask(head) + '\n');
}

async function printBody(io: IOStreams, data: unknown, mask: (text: string) => string, jq: string | undefined): Promise<void> {
  if (data === undefined) return;
  if (typeof data === 'string') {
    const text = mask(data);
    await write(io.stdout, text.endsWith('\n') ? text : text + '\n');
    return;
  }
  await printJson(io, data, mask, jq);
}

/** Pretty, coloured JSON for people on a terminal; one plain compact line when piped (jq reads both); what --jq makes of it. */
async function printJson(io: IOStreams, data: unknown, mask: (text: string) => string, jq: string | undefined): Promise<void> {
  if (jq !== undefined) return writeJq(io, jq, data, mask);
  const paint = await jsonPainter(io);
  await write(io.stdout, paint(mask(JSON.stringify(data, null, io.stdoutIsTTY ? 2 : undefined))) + '\n');
}
