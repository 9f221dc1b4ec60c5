// A real terminal for end-to-end tests of prompts: formctl runs in a detached tmux pane of fixed
// size; tests type with send-keys and read the screen with capture-pane. Every session has its own
// tmux server socket, so tests never touch a user's tmux or each other.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from './cli.js';
import { markedEnv, track } from './processes.js';

/** True when tmux is installed (CI installs it; see the report for the apt package). */
export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

export interface TmuxSession {
  /** Sends keys as tmux names them ("Enter", "C-c", "Down") or literal text with `literal`. */
  sendKeys(...keys: string[]): void;
  /** Types text literally (no key-name lookup), without Enter. */
  type(text: string): void;
  /** The visible screen as plain text. */
  screen(): string;
  /** Polls the screen until `re` matches; returns the screen. Throws with the screen on timeout. */
  waitForText(re: RegExp, timeoutMs?: number): Promise<string>;
  /** Waits for the command to end and returns its exit code (the pane prints it). */
  exitCode(timeoutMs?: number): Promise<number>;
  /** Kills the tmux server of this session. */
  kill(): void;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Starts `formctl <args>` (the built binary) in a detached tmux pane of `width`x`height`, with a clean
 * environment: PATH, TERM, NO_COLOR=1 and `env`. After formctl exits the pane prints `EXIT=<code>`.
 */
export function startTmux(args: string[], o: { env?: NodeJS.ProcessEnv; width?: number; height?: number } = {}): TmuxSession {
  const env = markedEnv({ PATH: process.env.PATH ?? '', TERM: 'xterm-256color', NO_COLOR: '1', ...o.env });
  const assignments = Object.entries(env)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${shellQuote(String(v))}`)
    .join(' ');
  // `env -i` so nothing from the test runner's environment (CI, FORMCTL_*) leaks into the pane;
  // the trailing sleep keeps the pane (and its last screen) alive until the test kills it.
  const command = `cd ${shellQuote(ROOT)} && env -i ${assignments} ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}; echo "EXIT=$?"; sleep 600`;
  return startTmuxCommand(command, o);
}

/** Starts any `sh -c` command line in a detached tmux pane (e.g. an interactive shell to test completion). */
export function startTmuxCommand(command: string, o: { width?: number; height?: number } = {}): TmuxSession {
  // A socket in our own temp directory: tmux leaves socket files behind, and this one is removed.
  const dir = mkdtempSync(join(tmpdir(), 'formctl-tmux-'));
  const tmux = (...a: string[]) => execFileSync('tmux', ['-S', join(dir, 'socket'), '-f', '/dev/null', ...a], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'main', '-x', String(o.width ?? 120), '-y', String(o.height ?? 40), 'sh', '-c', command);

  const session: TmuxSession = {
    sendKeys: (...keys) => void tmux('send-keys', '-t', 'main', ...keys),
    type: (text) => void tmux('send-keys', '-t', 'main', '-l', text),
    screen: () => tmux('capture-pane', '-p', '-t', 'main'),
    async waitForText(re, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        last = session.screen();
        if (re.test(last)) return last;
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${re} in the terminal. Screen:\n${last}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async exitCode(timeoutMs) {
      const screen = await session.waitForText(/^EXIT=\d+$/m, timeoutMs);
      return Number(/^EXIT=(\d+)$/m.exec(screen)![1]);
    },
    kill() {
      untrack();
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  // Killed when the test ends, however it ends, if the test has not killed it itself.
  const untrack = track(() => session.kill());
  return session;
}
