import { Argument, Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { completes } from '../completion/kinds.js';
import { EXIT_CODE_TABLE, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';

/** Environment variables formctl reads, for `formctl help environment` and the README. */
export const ENVIRONMENT: ReadonlyArray<readonly [string, string]> = [
  ['FORMCTL_TOKEN', "Token to use instead of the profile's (CI). Never printed."],
  ['FORMCTL_BASE_URL', "API base URL instead of the profile's (default https://api.opnform.com)"],
  ['FORMCTL_PROFILE', 'Profile to use instead of the current one (--profile wins)'],
  ['FORMCTL_WORKSPACE', "Default workspace id instead of the profile's (-w wins)"],
  ['FORMCTL_CONFIG_DIR', 'Directory of the config file (default $XDG_CONFIG_HOME/formctl or ~/.config/formctl)'],
  ['FORMCTL_STATE_DIR', 'Directory for form backups (default $XDG_STATE_HOME/formctl or ~/.local/state/formctl)'],
  ['FORMCTL_BACKUPS_KEEP', 'Backups kept per form; the oldest are removed once an update has been sent (default 20)'],
  [
    'FORMCTL_CACHE_DIR',
    'Directory for the completion cache, the shared rate budget and the compiled-code cache (default $XDG_CACHE_HOME/formctl or ~/.cache/formctl)',
  ],
  ['XDG_*_HOME', 'XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_CACHE_HOME: base directories of the defaults above when absolute; a relative one is ignored'],
  [
    'HOME',
    "Home directory of the defaults (~) when absolute; empty or relative: the account's home from the system, else exit 2 (set the FORMCTL_*_DIR variables)",
  ],
  ['FORMCTL_DEBUG', 'Set to 1 to log HTTP requests to stderr, like --debug (token redacted)'],
  ['FORMCTL_NO_INPUT', 'Set to 1 to never prompt, like --no-input'],
  ['FORMCTL_COMPLETE_TIMEOUT', 'Seconds a tab press waits for the service before offering nothing (default 2; at most 600; 0, negative or not a number: 2)'],
  ['CI', 'When set (and not "false"/"0"), prompts are disabled'],
  ['NO_COLOR', 'When set, no colour'],
  ['FORCE_COLOR', 'When set (not 0), colour even when not a terminal'],
  ['CLICOLOR_FORCE', 'When set (not 0), colour even when not a terminal, like FORCE_COLOR'],
  ['CLICOLOR', '"0" disables colour (NO_COLOR and a forced colour win)'],
  ['TERM', '"dumb" disables colour'],
  ['FORMCTL_PAGER', 'Pager for tables longer than the terminal, a shell command line (default: $PAGER, else "less -FRX"); empty or "cat" turns it off'],
  ['PAGER', 'Pager when FORMCTL_PAGER is not set'],
  ['VISUAL, EDITOR', 'Editor for `formctl form edit`'],
  ['HTTPS_PROXY, https_proxy', 'Proxy for https:// services (CONNECT tunnel; else HTTP_PROXY); e.g. http://user:password@proxy:3128'],
  ['HTTP_PROXY, http_proxy', 'Proxy for http:// services; failures are exit 12, as is a proxy that is not http:// or https:// (socks5://)'],
  ['NO_PROXY, no_proxy', 'Hosts reached directly: host suffixes (example.com), host:port, IP ranges (10.0.0.0/8), or * for all'],
  ['NODE_EXTRA_CA_CERTS', "A PEM file of extra CAs to trust (a self-hosted service's or an https:// proxy's private CA)"],
];

function table(rows: ReadonlyArray<readonly [string | number, string]>): string {
  const w = Math.max(...rows.map(([k]) => String(k).length));
  return rows.map(([k, v]) => `  ${String(k).padEnd(w)}  ${v}`).join('\n') + '\n';
}

/** `formctl help [topic|command…]`. */
export default function newHelpCommand(f: Factory, program: CommandUnknownOpts) {
  return (
    new Command('help')
      .description('Show help for a command, or a topic: environment, exit-codes')
      // Completes the topics, then command names one level per word (`help form up` → `update`).
      .addArgument(
        completes(new Argument('[topic...]', 'A command path (e.g. "form update") or a topic'), { words: ['environment', 'exit-codes'], commands: true }),
      )
      .addHelpText('after', '\nExamples:\n  $ formctl help exit-codes\n  $ formctl help environment\n  $ formctl help form update\n')
      .action((topic) => {
        const [first] = topic;
        if (!first) {
          program.outputHelp();
          return;
        }
        if (first === 'exit-codes' || first === 'exit-status') {
          f.io.stdout.write(`Exit codes:\n${table(EXIT_CODE_TABLE)}`);
          return;
        }
        if (first === 'environment' || first === 'env') {
          f.io.stdout.write(`Environment variables:\n${table(ENVIRONMENT)}`);
          return;
        }
        let cmd: CommandUnknownOpts | undefined = program;
        for (const word of topic) {
          cmd = cmd?.commands.find((c) => c.name() === word || c.aliases().includes(word));
          if (!cmd) {
            throw new UsageError(`No help topic or command "${topic.join(' ')}".`, 'Topics: environment, exit-codes. Commands: see `formctl --help`.');
          }
        }
        cmd!.outputHelp();
      })
  );
}
