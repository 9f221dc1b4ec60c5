// A pager for long tables on a terminal, as gh and git page theirs: FORMCTL_PAGER, then PAGER, then
// `less -FRX` (-F: quit when the text fits one screen, -R: keep colours, -X: leave it on the screen);
// the command is chosen by pagerCommand (iostreams.ts). Only a table on a terminal is ever paged:
// piped output and --json/--ndjson/--jq never are.
import { spawn } from 'node:child_process';
import type { IOStreams } from './iostreams.js';
import { write } from './iostreams.js';

/**
 * Writes `text` to stdout, through the pager when there is one and the text is longer than the
 * terminal. A pager that cannot start (not installed) leaves the text written directly; one the
 * user quits early (q in less) is no error.
 */
export async function writePaged(io: IOStreams, text: string): Promise<void> {
  const lines = text.split('\n').length - 1;
  if (!io.pager || !io.stdoutIsTTY || (io.rows > 0 && lines < io.rows)) {
    await write(io.stdout, text);
    return;
  }
  const [command, ...args] = io.pager.argv;
  const env = { ...io.pager.env };
  // less without -R would show colour codes as text: gh sets LESS=FRX the same way when nothing else is set.
  if (env.LESS === undefined) env.LESS = 'FRX';
  const started = await new Promise<ReturnType<typeof spawn> | undefined>((resolve) => {
    const child = spawn(command!, args, { stdio: ['pipe', 'inherit', 'inherit'], env });
    child.once('spawn', () => resolve(child));
    child.once('error', () => resolve(undefined));
  });
  if (!started) {
    await write(io.stdout, text);
    return;
  }
  const closed = new Promise<void>((resolve) => started.once('close', () => resolve()));
  // EPIPE when the user quits before reading everything: the rest is simply not wanted.
  started.stdin!.on('error', () => undefined);
  started.stdin!.end(text);
  await closed;
}
