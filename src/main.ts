import { isatty } from 'node:tty';
import { CommanderError } from '@commander-js/extra-typings';
import { UnauthorizedError } from './api/errors.js';
import { CliError, ExitCode } from './errors.js';
import { createFactory } from './factory.js';
import { createIOStreams } from './io/iostreams.js';
import type { IOStreams } from './io/iostreams.js';
import { escapeControls } from './io/output.js';
import { withProfileFlag } from './io/shell-word.js';
import { goOnWhenStdoutCloses } from './closed-stdout.js';
import { initialGlobals, scanArgv } from './root-options.js';

export interface Stdio {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Whether stdin is a terminal, when known without building the stdin stream (the real process: `isatty(0)`, read when first needed). */
  stdinIsTTY?: boolean;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Runs formctl with argv (without node and script) and returns the exit code. Never throws. */
export async function run(args: string[], env: NodeJS.ProcessEnv, stdio: Stdio, signal?: AbortSignal, o: { pager?: boolean } = {}): Promise<number> {
  const scan = scanArgv(args);
  const io = createIOStreams({
    // Read on first use: most commands never read stdin (Node builds the stream when it is first asked for).
    get stdin() {
      return stdio.stdin as never;
    },
    get stdinIsTTY() {
      return stdio.stdinIsTTY;
    },
    stdout: stdio.stdout as never,
    stderr: stdio.stderr as never,
    env,
    noColor: scan.noColor,
    noInput: scan.noInput,
    // Only the real terminal is paged: a pager writes to the process's own stdout, not to injected streams.
    pager: o.pager === true && !scan.noPager,
  });
  const f = createFactory({
    io,
    // Loaded only when a command needs a workspace nobody gave, on a terminal.
    pickWorkspace: async (factory) => (await import('./commands/pickers.js')).pickWorkspace(factory),
    env,
    signal: signal ?? new AbortController().signal,
    globals: initialGlobals(scan, env),
  });
  try {
    if (scan.completing) {
      await (await import('./program.js')).completeWords(f, args.slice(1));
      return ExitCode.ok;
    }
    const { buildProgram } = await import('./program.js');
    const program = await buildProgram(f, args);
    if (args.length === 0) {
      program.outputHelp();
      return ExitCode.ok;
    }
    await program.parseAsync(args, { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    // A hint's commands name the profile in effect when it came from --profile or FORMCTL_PROFILE.
    // An argument refused while parsing comes before Commander set --profile: the scan read it.
    if (f.globals.profile === undefined) f.globals.profile = scan.profile;
    const ctx = err instanceof CliError && err.hint ? await f.context().catch(() => undefined) : undefined;
    return report(err, io, env, f.globals.debug, ctx);
  } finally {
    await f.dispose();
  }
}

/** Turns any error into one line (plus hint) on stderr and an exit code. */
function report(err: unknown, io: IOStreams, env: NodeJS.ProcessEnv, debug: boolean, ctx?: { profileName: string; profileSource: string }): number {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return ExitCode.ok;
    // Commander has already printed its message (with a suggestion where it has one).
    return ExitCode.usage;
  }
  if (err instanceof CliError) {
    const color = io.colorStderr;
    const red = (s: string) => (color ? `\x1b[31m${s}\x1b[39m` : s);
    const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[22m` : s);
    if (err.exitCode !== ExitCode.interrupted || err.message !== 'Interrupted.') {
      // Messages quote the service (and its field errors): escape sequences in them are shown, not obeyed.
      io.stderr.write(`${red('error:')} ${escapeControls(err.message, { newlines: true })}\n`);
    }
    // A rejected FORMCTL_TOKEN wins over any profile: logging in again would not help. Another
    // profile than the one in effect (form copy's target) never takes FORMCTL_TOKEN: its saved token
    // was refused, and only a new login for it helps.
    const hint = !(err instanceof UnauthorizedError)
      ? err.hint
      : err.hintProfile !== undefined
        ? "Its saved token was refused: run `formctl auth login` with a valid personal access token (FORMCTL_TOKEN is not this profile's)."
        : env.FORMCTL_TOKEN
          ? "FORMCTL_TOKEN is set and overrides the profile's token: set it to a valid token, or unset it."
          : err.hint;
    // The hint's commands get the --profile of the profile they are about (CliError.hintProfile).
    if (hint) io.stderr.write(`${dim('hint:')} ${escapeControls(withProfileFlag(hint, err.hintProfile ?? ctx), { newlines: true })}\n`);
    if (debug && err.stack) io.stderr.write(`${escapeControls(err.stack, { newlines: true })}\n`);
    return err.exitCode;
  }
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EPIPE') return ExitCode.ok;
  io.stderr.write(`error: ${escapeControls(String(e?.message ?? err), { newlines: true })}\n`);
  io.stderr.write(
    debug && e?.stack ? `${escapeControls(e.stack, { newlines: true })}\n` : 'hint: this is a bug in formctl; rerun with --debug for details and report it\n',
  );
  return ExitCode.error;
}

/** Signals this close to the last one taken are one interruption delivered twice. */
export const SAME_INTERRUPTION_MS = 1000;

/**
 * Tells, for each Ctrl-C or SIGTERM the process takes, whether it is the first (stop the command,
 * let its cleanup run), the same one again ('same': ignore it) or a second one ('again': exit at
 * once).
 *
 * One interruption often arrives twice within milliseconds: GNU `timeout` signals the command and
 * then its whole process group, and a parent that forwards Ctrl-C (npm, a CI runner) sends it on
 * top of the one the terminal gave the group. Taken as a second Ctrl-C, that ended the process in
 * the middle of its cleanup (an interrupted export's .part left behind). So a signal within
 * SAME_INTERRUPTION_MS of the last one taken is the same interruption; a person who presses Ctrl-C
 * again to force the exit does so later.
 */
export function interruptions(clock = () => performance.now()): () => 'first' | 'same' | 'again' {
  let taken = 0;
  let last = 0;
  return () => {
    const now = clock();
    if (taken > 0 && now - last < SAME_INTERRUPTION_MS) return 'same';
    last = now;
    return ++taken === 1 ? 'first' : 'again';
  };
}

/** The signals that stop a command with its cleanup, and the exit code each gives. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];
const STOP_CODES: Record<StopSignal, number> = { SIGINT: ExitCode.interrupted, SIGTERM: ExitCode.terminated, SIGHUP: ExitCode.hangup };

/** Process entry (bin/formctl.js): wires the real process, Ctrl-C and EPIPE; the only caller of process.exit. */
export async function cli(): Promise<void> {
  const controller = new AbortController();
  const interruption = interruptions();
  // SIGTERM (`timeout`, a CI cancel, a plain `kill`) and SIGHUP (the terminal closed) stop a command
  // as Ctrl-C does, so its cleanup runs (an export's .part is removed, the sandbox flushes, closes
  // and removes its ready file; the code cache's run mark goes); they exit 143 and 129, not 130.
  let stopCode: number = ExitCode.interrupted;
  const echoes: Record<StopSignal, number> = { SIGINT: 0, SIGTERM: 0, SIGHUP: 0 };
  const onSignal = (signal: StopSignal) => {
    // conf (when-exit) and proper-lockfile (signal-exit) each add a listener for both signals that
    // re-raises the signal after its cleanup. Those echoes are not a second Ctrl-C or kill: counting
    // them would force-exit in the middle of a graceful close (sandbox data flush, export .part
    // cleanup), and a re-raised SIGTERM would end the process by the signal (exit 143, the ready file
    // left). So foreign listeners are dropped on the first signal and one signal per listener is taken
    // as its echo (their 'exit' hooks still run).
    const foreign = process.listeners(signal).filter((l) => l !== handlers[signal]);
    if (foreign.length === 0 && echoes[signal] > 0) {
      echoes[signal]--;
      return;
    }
    for (const l of foreign) process.removeListener(signal, l as () => void);
    echoes[signal] += foreign.length;
    const seen = interruption();
    if (seen === 'same') return;
    if (signal !== 'SIGINT') stopCode = STOP_CODES[signal];
    controller.abort();
    if (seen === 'again') process.exit(stopCode);
  };
  const handlers: Record<StopSignal, () => void> = {
    SIGINT: () => onSignal('SIGINT'),
    SIGTERM: () => onSignal('SIGTERM'),
    SIGHUP: () => onSignal('SIGHUP'),
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handlers[signal]);
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    // `formctl … | head` closes the pipe early: that is success, not an error. A run of changes goes
    // on to its end and its own exit code (src/closed-stdout.ts).
    if (err.code === 'EPIPE') {
      if (goOnWhenStdoutCloses()) return;
      process.exit(process.exitCode ?? 0);
    }
    throw err;
  });
  // `formctl … 2>&1 | head -2`: the reader of stderr went away. The rest of the messages is not
  // wanted, but the command goes on and its own exit code stands (left unhandled, the error event
  // ended the process with 1). Each later write fails alike, and is ignored alike.
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  // process.stdin is built when first read (a file stream for a file or /dev/null, which loads
  // Node's fs streams): only a command that reads stdin asks for it; whether it is a terminal is
  // isatty(0), asked only by a command that wants to know (it loads node:tty).
  const stdio: Stdio = {
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return isatty(0);
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
  const code = await run(process.argv.slice(2), process.env, stdio, controller.signal, { pager: true });
  process.exitCode = controller.signal.aborted && code !== 0 ? stopCode : code;
  // The command is done: nothing (a keep-alive socket, a timer, a child) may hold the process any
  // longer. Tests read what still would (test/e2e/exit.test.ts); stdio itself is not counted.
  if (process.env.FORMCTL_TEST_LIVE_HANDLES === '1') {
    // Once the callbacks already due have run (a socket put back in its pool is released then).
    setImmediate(() => {
      const live = process.getActiveResourcesInfo().filter((r) => r !== 'PipeWrap' && r !== 'TTYWrap' && !r.startsWith('FSReq'));
      process.stderr.write(`live handles after the command: ${JSON.stringify(live)}\n`);
    });
  }
}

/**
 * The completion table (src/completion/table.ts) of the whole tree, as JSON: the build writes it to
 * dist/completion-table.json, beside the root help, for the cache-hit path of `__complete`.
 */
export async function renderCompletionTable(): Promise<string> {
  const io = createIOStreams({
    stdin: process.stdin as never,
    stdout: process.stdout as never,
    stderr: process.stderr as never,
    env: {},
    noColor: true,
    noInput: true,
  });
  const f = createFactory({ io, env: {}, signal: new AbortController().signal, globals: initialGlobals(scanArgv([]), {}) });
  try {
    const [{ buildProgram }, { completionTable }] = await Promise.all([import('./program.js'), import('./completion/table.js')]);
    return `${JSON.stringify(completionTable(await buildProgram(f, [], { all: true })))}\n`;
  } finally {
    await f.dispose();
  }
}
