import type { Readable, Writable } from 'node:stream';

/** What a command may know about its terminal: streams, TTY-ness, colour, width, whether it may prompt. */
export interface IOStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout (tables) and stderr (messages), decided separately. */
  colorStdout: boolean;
  colorStderr: boolean;
  /** Terminal width for tables; 80 when unknown. */
  columns: number;
  /** Terminal height; 0 when unknown. */
  rows: number;
  /** True when prompts are allowed: both ends are TTYs, and neither --no-input nor CI is set. */
  canPrompt: boolean;
  /** The pager for long tables (src/io/pager.ts): only when stdout is a terminal and paging is on. */
  pager?: { command: string; env: NodeJS.ProcessEnv };
  /** The environment the command runs in (what `--jq`'s `$ENV` and `env` read). */
  env?: NodeJS.ProcessEnv;
}

export interface StreamOptions {
  /** Read when a command first uses `io.stdin`, not before (a getter is fine). */
  stdin: Readable & { isTTY?: boolean };
  /** Whether stdin is a terminal; default: `stdin.isTTY`. Read when first needed (a getter is fine). */
  stdinIsTTY?: boolean;
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  noColor?: boolean;
  noInput?: boolean;
  /** Page long tables on a terminal (the real process, unless --no-pager); injected streams never page. */
  pager?: boolean;
}

/**
 * Decides colour for one stream, in this order (as gh documents): --no-color and NO_COLOR switch it
 * off; FORCE_COLOR or CLICOLOR_FORCE (not 0) switch it on, even into a pipe; CLICOLOR=0 and TERM=dumb
 * switch it off; else it is on for a terminal.
 */
export function colorEnabled(isTTY: boolean, env: NodeJS.ProcessEnv, noColorFlag = false): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '' && env.CLICOLOR_FORCE !== '0') return true;
  if (env.CLICOLOR === '0') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** True when the environment says "no prompts": --no-input, CI=true, FORMCTL_NO_INPUT=1. */
export function promptsDisabled(env: NodeJS.ProcessEnv, noInputFlag = false): boolean {
  if (noInputFlag) return true;
  const ci = env.CI;
  if (ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false') return true;
  return env.FORMCTL_NO_INPUT === '1' || env.FORMCTL_NO_INPUT === 'true';
}

/** The default pager command. */
export const DEFAULT_PAGER = 'less -FRX';

/**
 * The pager command for this run, or undefined for none: `--no-pager`, or a variable set to nothing
 * or to `cat` (as git reads GIT_PAGER), turns it off. The command is a shell command line, as git
 * runs its pager: quotes, a path with spaces and `VAR=value` prefixes work (src/io/pager.ts).
 */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const value = (env.FORMCTL_PAGER ?? env.PAGER ?? DEFAULT_PAGER).trim();
  if (value === '' || value.split(/\s/, 1)[0] === 'cat') return undefined;
  return value;
}

/** Builds IOStreams from real or injected streams. */
export function createIOStreams(o: StreamOptions): IOStreams {
  // Whether stdin is a terminal is asked when a command wants to know (a prompt, `--from -`), not
  // before: for the real process that loads node:tty, which a command in a pipeline never needs.
  let stdinIsTTY: boolean | undefined;
  const stdinTTY = () => (stdinIsTTY ??= o.stdinIsTTY ?? o.stdin.isTTY === true);
  let canPrompt: boolean | undefined;
  const stdoutIsTTY = o.stdout.isTTY === true;
  const stderrIsTTY = o.stderr.isTTY === true;
  const envColumns = Number.parseInt(o.env.COLUMNS ?? '', 10);
  const io: IOStreams = {
    get stdin() {
      return o.stdin;
    },
    stdout: o.stdout,
    stderr: o.stderr,
    get stdinIsTTY() {
      return stdinTTY();
    },
    set stdinIsTTY(value) {
      stdinIsTTY = value;
    },
    stdoutIsTTY,
    stderrIsTTY,
    colorStdout: colorEnabled(stdoutIsTTY, o.env, o.noColor),
    colorStderr: colorEnabled(stderrIsTTY, o.env, o.noColor),
    // A pty without a size (e.g. under `script` or some CI runners) reports 0 columns: treat it as unknown.
    columns: o.stdout.columns && o.stdout.columns > 0 ? o.stdout.columns : Number.isFinite(envColumns) && envColumns > 0 ? envColumns : 80,
    rows: o.stdout.rows && o.stdout.rows > 0 ? o.stdout.rows : 0,
    get canPrompt() {
      return (canPrompt ??= stdoutIsTTY && !promptsDisabled(o.env, o.noInput) && stdinTTY());
    },
    set canPrompt(value) {
      canPrompt = value;
    },
    env: o.env,
  };
  const pager = o.pager && stdoutIsTTY ? pagerCommand(o.env) : undefined;
  if (pager) io.pager = { command: pager, env: o.env };
  return io;
}

/** Writes text, waiting for the stream to drain when its buffer is full (large NDJSON lists). */
export function write(stream: Writable, text: string | Uint8Array): Promise<void> | void {
  if (stream.write(text)) return;
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      stream.off('error', onError);
      resolve();
    };
    const onError = (err: NodeJS.ErrnoException) => {
      stream.off('drain', onDrain);
      // The reader of the process's own stdout or stderr went away: the text is not wanted, which is
      // no failure of the command. On stdout the process has ended already (src/main.ts); on stderr
      // the command goes on, and keeps its exit code. A file or pipe formctl opened (a bulk run's
      // --results) stays an error: what it was to hold is lost.
      if (err.code === 'EPIPE' && isProcessStdio(stream)) resolve();
      else reject(err);
    };
    stream.once('drain', onDrain);
    stream.once('error', onError);
  });
}

/** Whether the stream is the process's own stdout or stderr (file descriptor 1 or 2). */
function isProcessStdio(stream: Writable): boolean {
  const fd = (stream as Writable & { fd?: unknown }).fd;
  return fd === 1 || fd === 2;
}

/** Reads a whole stream (stdin for `--with-token`, `--input -`, `--file -`, …) into one Buffer. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
