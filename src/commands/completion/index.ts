import { Argument, Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { examples } from '../shared.js';

const SHELL_CHOICES = ['bash', 'zsh', 'fish'] as const;

export interface CompletionOptions {
  io: IOStreams;
  /** The complete command tree (every group loaded), built on demand. */
  program: () => Promise<CommandUnknownOpts>;
  shell: (typeof SHELL_CHOICES)[number];
}

/** `formctl completion <shell>`. */
export default function newCompletionCommand(f: Factory, runF = completionRun) {
  const cmd = new Command('completion')
    .description('Print a shell completion script (bash, zsh, fish)')
    .addArgument(new Argument('<shell>', 'Shell to print the script for').choices(SHELL_CHOICES));
  examples(cmd, [
    'formctl completion bash > ~/.local/share/bash-completion/completions/formctl',
    'formctl completion zsh > "${fpath[1]}/_formctl"',
    'formctl completion fish > ~/.config/fish/completions/formctl.fish',
    "echo 'source <(formctl completion bash)' >> ~/.bashrc",
  ]);
  cmd.addHelpText('after', '\nWorkspace, form and webhook ids complete from the API (cached for 60 s, never prompts).\n');
  return cmd.action((shell: CompletionOptions['shell']) =>
    runF({
      io: f.io,
      shell,
      program: async () => (await import('../../program.js')).buildProgram(f, [], { all: true }),
    }),
  );
}

/** Prints the script generated from the command tree. */
export async function completionRun(o: CompletionOptions): Promise<void> {
  const { generateCompletion } = await import('../../completion/index.js');
  o.io.stdout.write(generateCompletion(o.shell, await o.program()));
}
