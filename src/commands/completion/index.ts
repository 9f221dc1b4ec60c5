import { Argument, Command } from '@commander-js/extra-typings';
import { SHELLS, type Shell, completionScript } from '../../completion/scripts.js';
import type { Factory } from '../../factory.js';
import { type FlagsOf, examples } from '../shared.js';

/** `formctl completion <shell>`: the command, declared once. */
function completionCommand() {
  const cmd = new Command('completion')
    .description('Print a shell completion script (bash, zsh, fish)')
    .addArgument(new Argument('<shell>', 'Shell to print the script for').choices(SHELLS));
  examples(cmd, [
    '# bash (no bash-completion package needed):',
    'formctl completion bash > ~/.formctl-completion.bash',
    "echo 'source ~/.formctl-completion.bash' >> ~/.bashrc",
    '# bash with the bash-completion package (it loads this file on first use):',
    'mkdir -p ~/.local/share/bash-completion/completions',
    'formctl completion bash > ~/.local/share/bash-completion/completions/formctl',
    '# zsh: a directory on $fpath (add `fpath=(~/.zfunc $fpath)` to ~/.zshrc before compinit), then restart zsh:',
    'mkdir -p ~/.zfunc && formctl completion zsh > ~/.zfunc/_formctl',
    '# fish:',
    'mkdir -p ~/.config/fish/completions',
    'formctl completion fish > ~/.config/fish/completions/formctl.fish',
  ]);
  return cmd.addHelpText(
    'after',
    '\nThe script is small and fixed: at each Tab it asks `formctl __complete` what\n' +
      'fits, so it never goes stale when formctl is upgraded. Workspace, form and\n' +
      'webhook ids come from the API (cached for 60 s; never a prompt or an error).\n' +
      'Open a new shell afterwards.\n',
  );
}

export type CompletionOptions = FlagsOf<typeof completionCommand> &
  Pick<Factory, 'io'> & {
    shell: Shell;
  };

/** `formctl completion <shell>`. */
export default function newCompletionCommand(f: Factory, runF = completionRun) {
  return completionCommand().action((shell, flags) => runF({ ...flags, io: f.io, shell }));
}

/** Prints the script. */
export async function completionRun(o: CompletionOptions): Promise<void> {
  o.io.stdout.write(completionScript(o.shell));
}
