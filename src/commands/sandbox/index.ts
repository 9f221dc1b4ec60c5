import { dirname, resolve } from 'node:path';
import { Command, Option } from '@commander-js/extra-typings';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { checkProfileName } from '../../config/store.js';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { shellWord } from '../../io/shell-word.js';
import { escapeControls, jsonFormat, loadChalk, notice, writeObject } from '../../io/output.js';
import type { SandboxHandle, SandboxOptions } from '../../sandbox/index.js';
import { type FlagsOf, examples, fileOption, jqOption, jsonOption } from '../shared.js';
import { EXPORT_ASYNC_THRESHOLD, RATE_LIMIT_PER_MINUTE } from '../../service/limits.js';
import { FLAVORS } from '../../service/flavors.js';
import { isLoopbackHost } from '../../service/addresses.js';
import { isEmail } from '../../service/text.js';
import { constants } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { access, open, rm, stat } from 'node:fs/promises';

function wholeNumber(flag: string, max = Number.MAX_SAFE_INTEGER) {
  return (v: string): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v.trim()) || n > max) throw new UsageError(`${flag} must be a whole number from 0 to ${max}, got "${v}".`);
    return n;
  };
}

/** Collects repeated `--user` values, each a plausible address (checked again by the sandbox). */
function collectEmail(v: string, previous: string[] | undefined): string[] {
  if (!isEmail(v)) throw new UsageError(`--user must be an email address, got "${v}".`);
  return [...(previous ?? []), v];
}

/** Fields of `sandbox --json` (a contract with scripts; the --ready-file has them all, plus pid). */
const SANDBOX_FIELDS = ['url', 'flavor', 'tokens', 'users', 'workspace_id', 'form_id', 'form_slug', 'ca_file'] as const;

/** `formctl sandbox`: the command and its flags, declared once. */
function sandboxCommand() {
  const base = new Command('sandbox')
    .description('Run a local emulator of the form service (for trying formctl, demos and tests)')
    .addOption(
      new Option('--flavor <flavor>', 'Behave as the spec says (spec) or as the deployed OpnForm server does (deployed)').choices(FLAVORS).default(FLAVORS[0]),
    )
    .addOption(
      new Option('--user <email>', 'Also create this account with an all-abilities token (repeatable); it joins the workspaces that invited it')
        .argParser(collectEmail)
        .default(undefined),
    )
    .addOption(new Option('--host <host>', 'Interface to listen on').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'Port to listen on; 0 picks a free one').default(8787).argParser(wholeNumber('--port', 65535)))
    .addOption(fileOption('--data <file>', 'Keep state in this JSON file (resumed on the next start); default: in memory'))
    .addOption(
      new Option('--rate-limit <n>', 'Requests per minute per client IP (deployed flavour: per user, plus 10 exports a minute); 0 turns it off')
        .default(RATE_LIMIT_PER_MINUTE)
        .argParser(wholeNumber('--rate-limit')),
    )
    .addOption(
      // No default value: the run must know whether it was given (the deployed flavour refuses it).
      new Option('--export-async-threshold <n>', `Spec flavour: exports larger than this become async jobs (default: ${EXPORT_ASYNC_THRESHOLD})`).argParser(
        wholeNumber('--export-async-threshold'),
      ),
    )
    .option('--allow-private-webhooks', 'Allow webhooks to private and loopback addresses (local testing)')
    .option('--community', 'Behave like a self-hosted Community instance (2 users at most)')
    .addOption(new Option('--seed <n>', 'Create a demo form with this many submissions').argParser(wholeNumber('--seed')))
    .option(
      '--unstable-ties',
      'Deployed flavour: list same-second submissions in another order on each request, as the deployed server may (demo answers three to a second)',
    )
    .option('--tls', 'Serve https:// with a certificate made at start for localhost, 127.0.0.1 and ::1, signed by a private CA made with it')
    .addOption(
      fileOption('--ca-file <file>', 'With --tls: write the CA certificate (PEM) to this file, kept after exit; default: a temporary file removed on exit'),
    )
    .option('--profile-name <name>', 'Save a formctl profile pointing at this sandbox (token with every ability, seeded workspace)')
    .addOption(
      jsonOption(SANDBOX_FIELDS, {
        description: `Print one JSON line instead of text; optionally only these comma-separated fields (fields: ${SANDBOX_FIELDS.join(', ')})`,
      }),
    )
    .addOption(jqOption())
    .addOption(
      fileOption(
        '--ready-file <file>',
        'Once listening, write that JSON (plus pid) to this file, for scripts that start the sandbox in the background; removed on exit',
      ),
    );
  return examples(base, [
    'formctl sandbox --seed 25',
    'formctl sandbox --flavor deployed --seed 25',
    'formctl sandbox --user carol@example.com',
    'formctl sandbox --port 0 --data ./sandbox.json --profile-name local',
    '# https with a private CA; formctl trusts it through NODE_EXTRA_CA_CERTS (the start-up text prints the line)',
    'formctl sandbox --tls --ca-file ./sandbox-ca.pem',
    '# in another terminal, after --profile-name local:',
    'formctl --profile local form list',
    '# in a script: start it in the background, wait for the file, stop it with a plain kill (SIGTERM, as Ctrl-C: exit 0, the file removed)',
    'formctl sandbox --port 0 --ready-file sandbox-ready.json &',
  ]);
}

export type SandboxRunOptions = FlagsOf<typeof sandboxCommand> &
  Pick<Factory, 'io' | 'config'> & {
    /** Aborted on Ctrl-C: the sandbox then closes and the command returns (exit 0). */
    signal: AbortSignal;
    /** Injected in tests; default imports src/sandbox lazily (its own bundle chunk). */
    start?: (o: SandboxOptions) => Promise<SandboxHandle>;
  };

/** `formctl sandbox`. */
export default function newSandboxCommand(f: Factory, runF = sandboxRun) {
  return sandboxCommand().action((flags) => runF({ ...flags, io: f.io, config: f.config, signal: f.signal }));
}

/** Starts the sandbox, prints how to use it, and serves until Ctrl-C; then closes cleanly (data file flushed). */
export async function sandboxRun(o: SandboxRunOptions): Promise<void> {
  const json = jsonFormat(o);
  // The rule every profile name follows (--profile, FORMCTL_PROFILE, auth login): one rule, so a
  // profile the sandbox saves can be named anywhere else, and the other way round. Its exception too,
  // as `--profile NAME auth login` has it: a name already saved (by an older formctl, e.g. `my box`) is
  // accepted, and then replaced only if a sandbox made it (below); a new name follows the strict rule.
  if (o.profileName !== undefined) checkProfileName(o.profileName, '--profile-name', (await o.config()).isSaved);
  if (o.unstableTies && o.flavor !== 'deployed') throw new UsageError('--unstable-ties needs --flavor deployed.');
  if (o.caFile !== undefined && !o.tls) throw new UsageError('--ca-file needs --tls.');
  // The deployed server's threshold is a constant, not a setting (OpnForm
  // `api/app/Service/Forms/FormExportService.php:15`, used at `:35`), and formctl relies on it: its
  // chunked export asks for at most 1000 chosen submissions, which that server always answers with
  // the CSV (docs/sandbox.md, "Behaviour the spec leaves open": sync or async). Another threshold would answer what no deployed server can.
  if (o.exportAsyncThreshold !== undefined && o.flavor === 'deployed') {
    throw new UsageError(
      `--export-async-threshold cannot be used with --flavor deployed: the deployed server's threshold is fixed at ${EXPORT_ASYNC_THRESHOLD} submissions.`,
      `Drop --export-async-threshold, or leave out --flavor deployed to try export jobs on a small form.`,
    );
  }
  // A profile of that name holding the user's own login is never replaced (its token, base URL and
  // default workspace would be lost); one an earlier `sandbox --profile-name` saved (marked so) may be.
  if (o.profileName !== undefined) {
    const existing = (await o.config()).profile(o.profileName);
    if (existing !== undefined && existing.sandbox !== true) {
      throw new UsageError(
        `A profile named "${o.profileName}" already exists (${existing.baseUrl || 'the default base URL'}) and was not made by formctl sandbox.`,
        `Choose another --profile-name, or run \`formctl profile remove ${shellWord(o.profileName)}\` first.`,
      );
    }
  }
  // Files the sandbox writes (and, for the ready file, removes on exit) never take the place of a file of
  // the user's: the state, a ready file and a CA certificate each need their own path.
  await checkFileFlags(o);
  // A ready file that cannot be written is bad input (exit 2), said before the sandbox starts.
  if (o.readyFile !== undefined) await checkReadyDir(o.readyFile);
  // A file left by an earlier run must not look like this run being ready.
  if (o.readyFile !== undefined) await removeReadyFile(o.readyFile);
  const start = o.start ?? (await import('../../sandbox/index.js')).startSandbox;
  // What this run wrote to --ready-file: on exit the file is removed only if it still holds that.
  let readyText: string | undefined;
  let handle: SandboxHandle;
  try {
    handle = await start({
      flavor: o.flavor,
      users: o.user,
      host: o.host,
      port: o.port,
      dataFile: o.data,
      rateLimit: o.rateLimit,
      exportAsyncThreshold: o.exportAsyncThreshold ?? EXPORT_ASYNC_THRESHOLD,
      allowPrivateWebhooks: o.allowPrivateWebhooks,
      community: o.community,
      seed: o.seed,
      unstableTies: o.unstableTies,
      tls: o.tls,
      // Printed for another terminal (NODE_EXTRA_CA_CERTS), which may start elsewhere: absolute.
      caFile: o.caFile === undefined ? undefined : resolve(o.caFile),
    });
  } catch (err) {
    throw sandboxError(err, o.port);
  }
  try {
    if (o.profileName) {
      const store = await o.config();
      await store.saveProfile(o.profileName, { baseUrl: handle.url, token: handle.tokens.all, workspace: handle.workspaceId, sandbox: true });
    }
    const line = {
      url: handle.url,
      flavor: handle.flavor,
      tokens: handle.tokens,
      users: handle.users,
      workspace_id: handle.workspaceId,
      ...(handle.formId !== undefined ? { form_id: handle.formId, form_slug: handle.formSlug } : {}),
      ...(handle.caFile !== undefined ? { ca_file: handle.caFile } : {}),
    };
    if (o.readyFile !== undefined) readyText = await writeReadyFile(o.readyFile, { ...line, pid: process.pid });
    if (json) {
      await writeObject(o.io, json, line, [], { compact: true });
    } else {
      await write(o.io.stdout, await banner(o, handle));
    }
    // Every token the sandbox prints has every ability, and its data is anyone's who can reach it:
    // fine on loopback, not on an interface other machines reach (it keeps serving: a demo on a LAN).
    if (!(await loopbackOnly(o.host))) {
      await notice(
        o.io,
        `the sandbox listens on ${escapeControls(o.host, { all: true })}, where other machines may reach it: anyone who does can use its tokens (each has every ability) and read or change its data. Pass --host 127.0.0.1 unless that is what you want.`,
        'warning',
      );
    }
    if (o.io.stderrIsTTY && !json) await notice(o.io, 'Press Ctrl-C to stop.');
    // Ctrl-C, or a plain `kill` (SIGTERM, which main.ts turns into the same abort): close cleanly.
    await new Promise<void>((resolve) => {
      if (o.signal.aborted) return resolve();
      o.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    // A request still in progress holds the close for a while (the sandbox gives it a few seconds):
    // say so at a terminal, once a second Ctrl-C would be taken as one (src/main.ts, a second within
    // a second of the first is the same one).
    const waiting =
      o.signal.aborted && o.io.stderrIsTTY && !json
        ? // On a line of its own: the terminal has just echoed ^C. Worded for SIGTERM too (no Ctrl-C pressed then).
          setTimeout(
            () =>
              void (async () => {
                await write(o.io.stderr, '\n');
                await notice(o.io, 'Waiting for requests still in progress to end; Ctrl-C stops it now.');
              })(),
            WAIT_NOTICE_MS,
          )
        : undefined;
    waiting?.unref();
    try {
      await handle.close();
    } finally {
      clearTimeout(waiting);
    }
    // A later sandbox given the same --ready-file has replaced ours: its file is left to it.
    if (o.readyFile !== undefined && readyText !== undefined) await removeOwnReadyFile(o.readyFile, readyText);
  }
}

/**
 * Whether `--host` reaches this machine only: a loopback name or address, or a name every address
 * of which is loopback (looked up as the server's listen() did). `0.0.0.0`, `::` and other
 * interfaces' addresses are not.
 */
async function loopbackOnly(host: string): Promise<boolean> {
  if (isLoopbackHost(host)) return true;
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return false;
  const addresses = await lookup(host, { all: true }).catch(() => []);
  return addresses.length > 0 && addresses.every((a) => isLoopbackHost(a.address));
}

/** How long a close may take at a terminal before the sandbox says what it waits for. */
export const WAIT_NOTICE_MS = 1000;

/**
 * The ready file appears whole (written aside, then renamed), so a script polling for it never reads
 * half a line; 0600 because it holds the sandbox's tokens.
 */
async function writeReadyFile(file: string, info: Record<string, unknown>): Promise<string> {
  const [{ writeFileAtomic }, { fsReason }] = await Promise.all([import('../../atomic-file.js'), import('../../io/files.js')]);
  const text = JSON.stringify(info) + '\n';
  try {
    await writeFileAtomic(file, text);
    return text;
  } catch (err) {
    throw new CliError(`Cannot write --ready-file ${file}: ${fsReason(err, 'write')}.`);
  }
}

/** The ready file's directory must exist, be a directory and be writable. */
async function checkReadyDir(file: string): Promise<void> {
  const dir = dirname(file);
  const st = await stat(dir).catch(() => undefined);
  if (!st) throw new UsageError(`Cannot write --ready-file ${file}: the directory ${dir} does not exist.`, 'Create it first, or choose another path.');
  if (!st.isDirectory()) throw new UsageError(`Cannot write --ready-file ${file}: ${dir} is not a directory.`);
  const denied = await access(dir, constants.W_OK | constants.X_OK).then(
    () => false,
    () => true,
  );
  if (denied) throw new UsageError(`Cannot write --ready-file ${file}: the directory ${dir} is not writable.`, 'Choose a directory you can write to.');
  const target = await stat(file).catch(() => undefined);
  if (target?.isDirectory()) throw new UsageError(`Cannot write --ready-file ${file}: it is a directory.`);
}

/**
 * Refuses (exit 2) two file flags naming one file, a --ready-file that holds something else than a
 * ready file (the sandbox replaces it and removes it on exit), and a --ca-file that holds something else
 * than a PEM certificate (the sandbox writes its CA over it). An empty file (`mktemp`) is taken as free.
 */
async function checkFileFlags(o: Pick<SandboxRunOptions, 'data' | 'readyFile' | 'caFile' | 'tls'>): Promise<void> {
  const flags = [
    ['--data', o.data],
    ['--ready-file', o.readyFile],
    ['--ca-file', o.tls ? o.caFile : undefined],
  ].filter((f): f is [string, string] => f[1] !== undefined);
  for (let i = 0; i < flags.length; i++) {
    for (let j = i + 1; j < flags.length; j++) {
      if (resolve(flags[i]![1]) === resolve(flags[j]![1])) {
        throw new UsageError(`${flags[i]![0]} and ${flags[j]![0]} name the same file (${flags[j]![1]}).`, 'Give each its own file.');
      }
    }
  }
  if (o.readyFile !== undefined) {
    const text = await readSmallFile(o.readyFile);
    if (text !== undefined && text.trim() !== '' && !isReadyFile(text)) {
      throw new UsageError(
        `--ready-file ${o.readyFile} already exists and is not a ready file formctl sandbox wrote (it would be replaced, then removed on exit).`,
        'Choose another path, or move that file away first.',
      );
    }
  }
  if (o.tls && o.caFile !== undefined) {
    const text = await readSmallFile(o.caFile);
    if (text !== undefined && text.trim() !== '' && !text.startsWith('-----BEGIN CERTIFICATE-----')) {
      throw new UsageError(
        `--ca-file ${o.caFile} already exists and is not a PEM certificate (it would be overwritten).`,
        'Choose another path, or move that file away first.',
      );
    }
  }
}

/** The start of a regular file (enough to tell what it is), or undefined when there is none. */
async function readSmallFile(file: string): Promise<string | undefined> {
  const st = await stat(file).catch(() => undefined);
  if (!st?.isFile()) return undefined;
  const fh = await open(file, 'r').catch(() => undefined);
  // One the sandbox cannot read, it cannot tell: not its own.
  if (fh === undefined) return '\0';
  try {
    const buf = Buffer.alloc(Math.min(st.size, READY_FILE_MAX));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return st.size > READY_FILE_MAX ? '\0' : buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/** Far more than a ready file takes (a few tokens and users). */
const READY_FILE_MAX = 1024 * 1024;

/** The shape of what writeReadyFile writes: one JSON object with the sandbox's url and pid. */
function isReadyFile(text: string): boolean {
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const r = v as Record<string, unknown>;
    return typeof r.url === 'string' && /^https?:\/\//.test(r.url) && typeof r.pid === 'number';
  } catch {
    return false;
  }
}

async function removeReadyFile(file: string): Promise<void> {
  await rm(file, { force: true }).catch(() => undefined);
}

/**
 * Removes the ready file this run wrote, and only that: when it holds other text (another sandbox
 * started later with the same --ready-file wrote its own, with its pid and port), it is left alone.
 */
async function removeOwnReadyFile(file: string, written: string): Promise<void> {
  if ((await readSmallFile(file)) === written) await removeReadyFile(file);
}

async function banner(o: SandboxRunOptions, h: SandboxHandle): Promise<string> {
  const c = await loadChalk(o.io.colorStdout);
  const lines = [
    `${c.green('✓')} Sandbox listening on ${c.bold(h.url)} (API under /open/)${o.data ? `, state in ${o.data}` : ', state in memory'}`,
    `Flavor: ${h.flavor === 'deployed' ? 'deployed (behaves as the deployed OpnForm server)' : 'spec (behaves as the API spec says)'}`,
    ...(h.caFile !== undefined
      ? [
          `CA certificate: ${h.caFile}${o.caFile === undefined ? ' (removed on exit)' : ''}`,
          'formctl (and any Node program) trusts it with:',
          `  export NODE_EXTRA_CA_CERTS=${shellWord(h.caFile)}`,
        ]
      : []),
    '',
    'Tokens (local sandbox only):',
    `  all              ${h.tokens.all}`,
    `  readonly         ${h.tokens.readonly}`,
    `  forms            ${h.tokens.forms}`,
    `  noIntegrations   ${h.tokens.noIntegrations}`,
    'Users (each token has every ability):',
    ...h.users.map((u) => `  ${u.email.padEnd(24)} ${u.token}   ${u.name} (user ${u.id})`),
    `Workspace: ${h.workspaceId}${h.formId !== undefined ? `   Demo form: ${h.formId} (slug ${h.formSlug})` : ''}`,
    '',
  ];
  if (o.profileName) {
    lines.push(`Saved profile ${o.profileName}. Use it with:`, `  formctl --profile ${shellWord(o.profileName)} workspace list`);
  } else {
    lines.push(
      'Use it from another terminal:',
      `  export FORMCTL_BASE_URL=${h.url} FORMCTL_TOKEN=${h.tokens.all} FORMCTL_WORKSPACE=${h.workspaceId}`,
      'or save a profile:',
      `  echo ${h.tokens.all} | formctl --profile sandbox auth login --base-url ${h.url} --with-token`,
    );
  }
  return lines.join('\n') + '\n';
}

function sandboxError(err: unknown, port: number): CliError {
  if (err instanceof CliError) return err;
  const e = err as Error;
  if (e?.name !== 'SandboxError') return new CliError(e?.message ?? String(err));
  const message = e.message.split('\n')[0]!;
  // A port or address this machine cannot listen on is bad input, fixed by another --port/--host: exit 2, like other bad input.
  if (/is in use|cannot listen/i.test(message)) {
    return new CliError(message, ExitCode.usage, port === 0 ? undefined : 'Pick another --port (0 picks a free one).');
  }
  return new UsageError(message, /data file/i.test(message) ? 'Fix or move the file, or start without --data.' : undefined);
}
