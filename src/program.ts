import { Command, type CommandUnknownOpts, Help } from '@commander-js/extra-typings';
import { setCodeCacheGroup } from './code-cache-group.js';
import { COMMANDS, findCommand } from './commands/registry.js';
import type { Factory } from './factory.js';
import { rootOptions, scanArgv } from './root-options.js';
import { VERSION } from './version.js';

/** Builds the Commander tree. Only the command group argv targets is loaded (`all` loads every group: completions). */
export async function buildProgram(f: Factory, args: string[], o: { all?: boolean } = {}): Promise<CommandUnknownOpts> {
  const program: CommandUnknownOpts = new Command('formctl')
    .description('Administer a form service from the terminal: workspaces, forms, submissions, members, invites and webhooks')
    .version(VERSION, '-v, --version', 'Print the formctl version')
    .helpCommand(false)
    .addHelpText(
      'after',
      `
Examples:
  $ formctl auth login
  $ formctl workspace list
  $ formctl form list --json id,title | jq -r '.[].title'
  $ formctl submission export 42 -o answers.csv

Topics:
  formctl help environment   Environment variables
  formctl help exit-codes    Exit codes for scripts

Run \`formctl <command> --help\` for a command's flags and examples.`,
    );
  // The global flags, declared once in root-options.ts (which also reads argv before parsing), after --version in help.
  for (const option of rootOptions()) program.addOption(option);

  program.hook('preAction', (_root, action) => {
    const g = action.optsWithGlobals() as Record<string, unknown>;
    f.globals.profile = (g.profile as string | undefined) ?? f.globals.profile;
    f.globals.debug = f.globals.debug || g.debug === true;
    f.globals.timeoutMs = Math.round(Number(g.timeout) * 1000);
    f.globals.maxWaitMs = Math.round(Number(g.maxWait) * 1000);
    if (g.input === false) f.globals.noInput = true;
  });
  // A --jq expression that does not compile is refused before the command runs (and sends anything).
  program.hook('preAction', async (_root, action) => {
    const { jq } = action.opts() as { jq?: unknown };
    if (typeof jq === 'string') await (await import('./io/jq.js')).checkJq(jq);
  });

  const { name, helpTopic } = scanArgv(args);
  const wanted = o.all ? undefined : findCommand(name === 'help' ? (helpTopic ?? '') : (name ?? ''));
  if (wanted) setCodeCacheGroup(wanted.name);
  for (const entry of COMMANDS) {
    if (o.all || entry === wanted) {
      const mod = await entry.load();
      const cmd = mod.default(f);
      if (entry.hidden) program.addCommand(cmd, { hidden: true });
      else program.addCommand(cmd);
    } else {
      // A light placeholder: enough for top-level help and "did you mean" suggestions.
      const stub = program.command(entry.name, { hidden: entry.hidden }).description(entry.summary);
      for (const alias of entry.aliases ?? []) stub.alias(alias);
    }
  }
  const help = await import('./commands/help.js');
  program.addCommand(help.default(f, program));
  applySettings(program, f);
  return program;
}

/** Applies output routing, error style and suggestions to every command, recursively. */
export function applySettings(cmd: CommandUnknownOpts, f: Factory, path = 'formctl'): void {
  cmd.exitOverride();
  cmd.showSuggestionAfterError(true);
  cmd.helpOption('-h, --help', 'Show help for this command');
  // Like gh: a subcommand's help lists the root flags it accepts (--profile, --debug, …) under their own heading.
  cmd.configureHelp({
    showGlobalOptions: true,
    visibleGlobalOptions(this: Help, c: CommandUnknownOpts) {
      return Help.prototype.visibleGlobalOptions.call(this, c).filter((o) => o.long !== '--version');
    },
    formatItemList(this: Help, heading: string, items: string[], helper: Help) {
      return Help.prototype.formatItemList.call(this, heading === 'Global Options:' ? 'Inherited flags:' : heading, items, helper);
    },
  });
  // Commander's own errors (unknown command or option, missing argument, bad choice) end like ours: with a hint.
  cmd.showHelpAfterError(`hint: see \`${path} --help\``);
  // Groups get Commander's implicit `help [command]`; the root has formctl's own `help` with topics.
  if (path !== 'formctl' && cmd.commands.length > 0) {
    cmd.helpCommand('help [command]', 'Show help for a command');
    // A group named without a verb (`formctl form`) prints its help as an answer, as `gh repo` does:
    // on stdout, exit 0. Commander would print it on stderr, as an error.
    const help = cmd.help.bind(cmd) as (context?: { error: boolean }) => never;
    cmd.help = ((context?: { error: boolean }) => help(context?.error ? { error: false } : context)) as typeof cmd.help;
  }
  cmd.configureOutput({
    writeOut: (s) => f.io.stdout.write(s),
    writeErr: (s) => f.io.stderr.write(s),
    // Help wraps at 80 columns whatever the terminal, so it reads the same everywhere and the
    // root help can be rendered once at build time (dist/root-help.txt, printed by bin/formctl.js).
    getOutHelpWidth: () => 80,
    getErrHelpWidth: () => 80,
    outputError: (s, write) => write(maskUnknownOptionValue(s.endsWith('\n') ? s : s + '\n')),
  });
  for (const sub of cmd.commands) applySettings(sub, f, `${path} ${sub.name()}`);
}

/**
 * Commander's "unknown option '--token=fsk_…'" without the value: what follows `=` may be a secret
 * (a token or webhook secret tried as a flag that formctl does not take, so that it never lands in
 * shell history), and the error would put it on the terminal and in CI logs. For those two flags the
 * line also says where formctl takes the value from.
 */
export function maskUnknownOptionValue(message: string): string {
  return message.replace(/unknown option '(-[^=' ]*)=[^']*'/g, (_m, flag: string) => {
    const where =
      flag === '--token'
        ? ' (a token is read from stdin or a prompt: `formctl auth login --with-token < token.txt`)'
        : /^--(webhook-)?secret$/.test(flag)
          ? ' (a secret is read from a file or stdin, never from a flag: --secret-file)'
          : '';
    return `unknown option '${flag}=…'${where}`;
  });
}

/**
 * `formctl __complete <words…>`, the hidden entry of the completion scripts: builds the tree for the
 * words (only the group they name is loaded), hands it to the resolver and prints its answer
 * (docs/completion.md). It never prompts, never waits on the rate limit and prints no error: the
 * shell would show anything it writes in the user's command line.
 */
export async function completeWords(f: Factory, words: string[]): Promise<void> {
  // A tab press must never prompt, wait long or retry: a second request would double its cost.
  // Never waiting also makes the client refuse at once, sending nothing, when the shared rate
  // budget is used up (src/api/ratelimit.ts); the cache then answers.
  f.globals.noInput = true;
  f.globals.debug = false;
  let answer = ':0\n';
  try {
    const [program, { resolveCompletion, formatCompletion }, { cachedValueSource, completeTimeoutMs }] = await Promise.all([
      buildProgram(f, words),
      import('./completion/resolve.js'),
      import('./completion/values.js'),
    ]);
    f.globals.timeoutMs = completeTimeoutMs(f.env);
    f.globals.neverWait = true;
    const source = cachedValueSource({
      env: f.env,
      now: f.now,
      fetch: async (req) => {
        // The profile named on the line (`--profile work`) decides the token and the default workspace.
        if (req.profile !== undefined) f.globals.profile = req.profile;
        return (await import('./completion/dynamic.js')).fetchLines(f, req);
      },
    });
    answer = formatCompletion(await resolveCompletion(program, words, source));
  } catch {
    // Silent by design: an empty answer.
  }
  f.io.stdout.write(answer);
}
