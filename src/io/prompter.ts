import { CancelledError, InterruptedError, UsageError } from '../errors.js';
import type { IOStreams } from './iostreams.js';
import { escapeControls } from './output.js';

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

/**
 * The hint wherever a prompt would have asked but cannot: what to pass instead, and why nothing was
 * asked. One phrasing everywhere, and true in each case (a person on a terminal with CI set is not
 * "off a terminal"). `more` follows as its own sentence.
 */
export function promptsOffHint(what: string, more?: string): string {
  return `Pass ${what} (prompts are off: not a terminal, CI, or --no-input).${more ? ` ${more}` : ''}`;
}

/** Prompts for people on a TTY. Every method names the flag that replaces it when prompting is not allowed. */
export interface Prompter {
  input(o: { message: string; flag: string; default?: string; validate?: (v: string) => string | true | Promise<string | true> }): Promise<string>;
  password(o: { message: string; flag: string }): Promise<string>;
  confirm(o: { message: string; flag: string; default?: boolean }): Promise<boolean>;
  select<T>(o: { message: string; flag: string; choices: Choice<T>[] }): Promise<T>;
  search<T>(o: { message: string; flag: string; choices: Choice<T>[] }): Promise<T>;
}

/**
 * Choices as a person sees them: names and descriptions come from the service (form titles,
 * workspace names, webhook URLs), so control characters are made visible as tables and errors show
 * them (`escapeControls`): a title holding `ESC ] 0 ; … BEL` cannot retitle the terminal or clear it.
 */
function visibleChoices<T>(choices: Choice<T>[]): Choice<T>[] {
  return choices.map((c) => ({ ...c, name: escapeControls(c.name), ...(c.description !== undefined ? { description: escapeControls(c.description) } : {}) }));
}

/** The real prompter on @inquirer/prompts, loaded only when a prompt is shown; prompts draw on stderr. */
export function createPrompter(io: IOStreams): Prompter {
  const ctx = { input: io.stdin, output: io.stderr, clearPromptOnDone: false };
  const guard = (flag: string) => {
    if (!io.canPrompt) {
      throw new UsageError(`Missing ${flag}.`, promptsOffHint(flag));
    }
  };
  const run = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'ExitPromptError' || name === 'AbortPromptError') throw new InterruptedError();
      if (name === 'CancelPromptError') throw new CancelledError();
      throw err;
    }
  };
  return {
    async input(o) {
      guard(o.flag);
      const { input } = await import('@inquirer/prompts');
      return run(() => input({ message: escapeControls(o.message), default: o.default, validate: o.validate, required: true }, ctx));
    },
    async password(o) {
      guard(o.flag);
      const { password } = await import('@inquirer/prompts');
      return run(() => password({ message: o.message, mask: false, validate: (v) => (v.trim() ? true : 'Required') }, ctx));
    },
    async confirm(o) {
      guard(o.flag);
      const { confirm } = await import('@inquirer/prompts');
      return run(() => confirm({ message: escapeControls(o.message), default: o.default ?? false }, ctx));
    },
    async select(o) {
      guard(o.flag);
      const { select } = await import('@inquirer/prompts');
      return run(() => select({ message: escapeControls(o.message), choices: visibleChoices(o.choices) }, ctx));
    },
    async search(o) {
      guard(o.flag);
      const { search } = await import('@inquirer/prompts');
      const choices = visibleChoices(o.choices);
      return run(() =>
        search(
          {
            message: escapeControls(o.message),
            source: (term) => {
              const t = (term ?? '').toLowerCase();
              return choices.filter((c) => !t || c.name.toLowerCase().includes(t) || (c.description ?? '').toLowerCase().includes(t));
            },
          },
          ctx,
        ),
      );
    },
  };
}

/**
 * For a delete of much data that cannot be undone (a form with submissions, a workspace with forms):
 * on a terminal the person types the thing's name, as `gh repo delete` asks for the repository, so a
 * reflexive "y" cannot do it; anywhere else --yes is required, as for every destructive command.
 * `expected` is shown with control characters made visible; that visible form is what must be typed.
 */
export async function confirmByTyping(
  io: IOStreams,
  prompter: Prompter,
  o: { yes?: boolean; message: string; what: string; expected: string; /** Said before "Type …"; default "This cannot be undone." */ warning?: string },
): Promise<void> {
  if (o.yes) return;
  if (!io.canPrompt) {
    throw new UsageError(`${o.message.replace(/[?.]$/, '')}: refusing without confirmation.`, 'Pass --yes to confirm.');
  }
  const expected = escapeControls(o.expected).trim();
  const warning = o.warning ?? 'This cannot be undone.';
  const typed = await prompter.input({ message: `${o.message}${warning ? ` ${warning}` : ''} Type ${o.what} ${expected} to confirm:`, flag: '--yes' });
  if (typed.trim() !== expected) throw new CancelledError(`Cancelled: "${escapeControls(typed.trim())}" is not ${o.what} ${expected}.`);
}

/** Asks before a destructive action on a TTY; otherwise requires --yes. Throws CancelledError on "no". */
export async function confirmDestructive(io: IOStreams, prompter: Prompter, o: { yes?: boolean; message: string }): Promise<void> {
  if (o.yes) return;
  if (!io.canPrompt) {
    throw new UsageError(`${o.message.replace(/\?$/, '')}: refusing without confirmation.`, 'Pass --yes to confirm.');
  }
  const ok = await prompter.confirm({ message: o.message, flag: '--yes', default: false });
  if (!ok) throw new CancelledError();
}
