// A pager for long tables on a terminal, as gh and git page theirs: FORMCTL_PAGER, then PAGER, then
// `less -FRX` (-F: quit when the text fits one screen, -R: keep colours, -X: leave it on the screen);
// the command is chosen by pagerCommand (iostreams.ts) and run by the shell, as git runs its pager,
// so that `'/opt/my pager/less' -R` or `LESS=S less` work as they would typed in a terminal. Only a
// table on a terminal is ever paged: piped output and --json/--ndjson/--jq never are.
import { spawn } from 'node:child_process';
import type { IOStreams } from './iostreams.js';
import { write } from './iostreams.js';

/** The shell's exit codes for a command it could not run: 126 not executable, 127 not found (POSIX, "Command Search and Execution"). */
const NOT_RUN = new Set([126, 127]);

/**
 * Writes `text` to stdout, through the pager when there is one and the text is longer than the
 * terminal. A pager that cannot start (not installed: the shell says so on stderr) leaves the text
 * written directly; one the user quits early (q in less) is no error.
 */
export async function writePaged(io: IOStreams, text: string): Promise<void> {
  const lines = text.split('\n').length - 1;
  if (!io.pager || !io.stdoutIsTTY || (io.rows > 0 && lines < io.rows)) {
    await write(io.stdout, text);
    return;
  }
  const { command, env: pagerEnv } = io.pager;
  const env = { ...pagerEnv };
  // less without -R would show colour codes as text: gh sets LESS=FRX the same way when nothing else is set.
  if (env.LESS === undefined) env.LESS = 'FRX';
  const started = await new Promise<ReturnType<typeof spawn> | undefined>((resolve) => {
    // shell: true is Node's own `/bin/sh -c <command>` (cmd.exe on Windows).
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env });
    child.once('spawn', () => resolve(child));
    child.once('error', () => resolve(undefined));
  });
  if (!started) {
    await write(io.stdout, text);
    return;
  }
  const closed = new Promise<number | null>((resolve) => started.once('close', (code) => resolve(code)));
  // EPIPE when the user quits before reading everything: the rest is simply not wanted.
  started.stdin!.on('error', () => undefined);
  started.stdin!.end(text);
  // The shell started but not the pager: nothing was shown, so the text goes to the terminal itself.
  if (NOT_RUN.has((await closed) ?? 0)) await write(io.stdout, text);
}
