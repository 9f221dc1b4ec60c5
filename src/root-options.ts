// Facts about formctl's root options that are needed before Commander parses argv: which take a
// value, their defaults, and the one pre-scan of argv (which command group to load, and the flags
// that shape error output before parsing: --debug, --no-color, --no-input). Commander's parse then
// sets the rest (program.ts). bin/formctl.js keeps its own tiny check for a lone --version or --help,
// so those two answers load none of this.
import type { GlobalOptions } from './factory.js';

/** --timeout's default, in seconds: the longest one API exchange may take. */
export const DEFAULT_TIMEOUT_S = 30;
/** --max-wait's default, in seconds: the longest total wait for retries and rate limits. */
export const DEFAULT_MAX_WAIT_S = 60;

/** Root options that take a value: their value is not a command word. */
const VALUE_OPTIONS = new Set(['--profile', '--timeout', '--max-wait']);

export interface ArgvScan {
  /** The first command word (skipping root options and their values), e.g. "form". */
  name?: string;
  /** With `help <topic>`: the topic word. */
  helpTopic?: string;
  debug: boolean;
  noColor: boolean;
  noInput: boolean;
  /** `formctl __complete <words…>` (the completion scripts): the words are the user's command line, not flags for this run. */
  completing: boolean;
}

/** Reads argv without parsing it; nothing after `--` is a flag. */
export function scanArgv(args: readonly string[]): ArgvScan {
  if (args[0] === '__complete') return { name: '__complete', debug: false, noColor: false, noInput: false, completing: true };
  const words: string[] = [];
  const flags = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      else flags.add(a);
      continue;
    }
    if (words.length < 2) words.push(a);
  }
  const scan: ArgvScan = { name: words[0], debug: flags.has('--debug'), noColor: flags.has('--no-color'), noInput: flags.has('--no-input'), completing: false };
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
