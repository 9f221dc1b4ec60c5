// Facts about formctl's root options that are needed before Commander parses argv: which take a
// value, their defaults, and the one pre-scan of argv (which command group to load, and the flags
// that shape error output before parsing: --debug, --no-color, --no-input, --no-pager). Commander's parse then
// sets the rest (program.ts). bin/formctl.js keeps its own tiny check for a lone --version or --help,
// so those two answers load none of this.
import { InvalidArgumentError, Option } from '@commander-js/extra-typings';
import { ROOT_VALUE_FLAGS } from './code-cache-group.js';
import { completes } from './completion/kinds.js';
import type { GlobalOptions } from './factory.js';
import { MAX_SECONDS, MAX_SECONDS_WORDS } from './sleep.js';

/** --timeout's default, in seconds: the longest one API exchange may take. */
export const DEFAULT_TIMEOUT_S = 30;
/** --max-wait's default, in seconds: the longest total wait for retries and rate limits. */
export const DEFAULT_MAX_WAIT_S = 60;

/** Seconds (may be fractional) → a number, for --timeout and --max-wait. */
function seconds(o: { min: number }) {
  return (v: string) => {
    const n = Number(v);
    // Commander prints an InvalidArgumentError itself ("error: option … argument … is invalid. <this>").
    if (v.trim() === '' || !Number.isFinite(n) || n < o.min || (o.min > 0 && n === 0)) {
      throw new InvalidArgumentError(`Use a number of seconds${o.min > 0 ? ' above 0' : ' (0 or more)'}.`);
    }
    if (n > MAX_SECONDS) throw new InvalidArgumentError(`Use a number of seconds ${MAX_SECONDS_WORDS}.`);
    return n;
  };
}

/**
 * The global flags, declared once: program.ts adds them to the root command (in this order, which
 * is the help's). Which of them take a value is ROOT_VALUE_FLAGS (src/code-cache-group.ts, which the
 * code cache loader reads argv with before the CLI exists; a test checks that the two agree). A flag
 * a command needs at run time is then copied into the Factory's globals by program.ts's preAction hook.
 */
export function rootOptions(): Option[] {
  return [
    completes(new Option('--profile <name>', 'Use this saved profile (env: FORMCTL_PROFILE)'), 'profile'),
    new Option('--debug', 'Log each HTTP request to stderr (token redacted; env: FORMCTL_DEBUG=1)'),
    new Option('--timeout <seconds>', 'Longest one API exchange may take, in seconds (downloads: longest silence)')
      .default(DEFAULT_TIMEOUT_S)
      .argParser(seconds({ min: 0.001 })),
    new Option('--max-wait <seconds>', 'Longest total wait for retries and rate limits').default(DEFAULT_MAX_WAIT_S).argParser(seconds({ min: 0 })),
    new Option('--no-input', 'Never prompt; fail with the flag to pass instead (also when CI is set)'),
    new Option('--no-color', 'Disable colour (also NO_COLOR, TERM=dumb)'),
    new Option('--no-pager', 'Do not page long tables on a terminal (also FORMCTL_PAGER=cat)'),
  ] as Option[];
}

export interface ArgvScan {
  /** The first command word (skipping root options and their values), e.g. "form". */
  name?: string;
  /** With `help <topic>`: the topic word. */
  helpTopic?: string;
  debug: boolean;
  noColor: boolean;
  noInput: boolean;
  noPager: boolean;
  /** `formctl __complete <words…>` (the completion scripts): the words are the user's command line, not flags for this run. */
  completing: boolean;
  /** The --profile value, for an error's hint when argv failed to parse before Commander set the globals. */
  profile?: string;
}

/** Reads argv without parsing it; nothing after `--` is a flag. */
export function scanArgv(args: readonly string[]): ArgvScan {
  if (args[0] === '__complete') return { name: '__complete', debug: false, noColor: false, noInput: false, noPager: true, completing: true };
  const words: string[] = [];
  const flags = new Set<string>();
  let profile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (a === '--profile') profile = args[i + 1];
      else if (a.startsWith('--profile=')) profile = a.slice('--profile='.length);
      // A root option's value is not a command word.
      if (ROOT_VALUE_FLAGS.includes(a)) i++;
      else flags.add(a);
      continue;
    }
    if (words.length < 2) words.push(a);
  }
  const scan: ArgvScan = {
    name: words[0],
    debug: flags.has('--debug'),
    noColor: flags.has('--no-color'),
    noInput: flags.has('--no-input'),
    noPager: flags.has('--no-pager'),
    completing: false,
  };
  if (profile !== undefined) scan.profile = profile;
  if (words[0] === 'help') scan.helpTopic = words[1];
  return scan;
}

/** The globals a run starts with, before Commander has parsed argv (FORMCTL_DEBUG=1 or true also turns on --debug). */
export function initialGlobals(scan: ArgvScan, env: NodeJS.ProcessEnv): GlobalOptions {
  return {
    debug: scan.debug || (!scan.completing && (env.FORMCTL_DEBUG === '1' || env.FORMCTL_DEBUG === 'true')),
    timeoutMs: DEFAULT_TIMEOUT_S * 1000,
    maxWaitMs: DEFAULT_MAX_WAIT_S * 1000,
    noInput: scan.noInput,
    noColor: scan.noColor,
  };
}
