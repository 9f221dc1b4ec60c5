import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { renderBash } from './bash.js';
import { renderFish } from './fish.js';
import { describeProgram } from './model.js';
import { renderZsh } from './zsh.js';

/** Shells formctl writes completion scripts for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where each shell's generated script is checked in, under completions/. */
export const COMPLETION_FILES: Record<Shell, string> = { bash: 'formctl.bash', zsh: '_formctl', fish: 'formctl.fish' };

/** The completion script for a shell, generated from the full Commander tree. */
export function generateCompletion(shell: Shell, program: Command): string {
  const spec = describeProgram(program);
  switch (shell) {
    case 'bash':
      return renderBash(spec);
    case 'zsh':
      return renderZsh(spec);
    case 'fish':
      return renderFish(spec);
  }
}
