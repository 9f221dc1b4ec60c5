import { Argument, Command, type CommandUnknownOpts, Option, type OptionValues } from '@commander-js/extra-typings';
import { completes } from '../completion/kinds.js';
import { DEFAULT_PROFILE } from '../config/store.js';
import { UsageError } from '../errors.js';
import { parseFormRef, parseIdText } from '../io/ids.js';
import { DEFAULT_LIST_LIMIT, parsePositiveInt } from '../io/limit.js';
import { escapeControls, parseJsonFields } from '../io/output.js';

/*
 * Flags are declared once (docs/architecture.md "Adding a flag"): each command declares its options
 * in one chain, the types of its parsed flags follow from that chain (@commander-js/extra-typings),
 * and the command's Options type is `FlagsOf<declaration> & { its dependencies }`. The adders below
 * are generic so that the options they add show up in that type.
 */

/** The parsed flags of a declared command: what Commander hands the action, as a type. */
export type FlagsOf<D extends () => CommandUnknownOpts> = ReturnType<ReturnType<D>['opts']>;

/**
 * `--json [fields]`: absent, bare (`true`) or the field names asked for; its value completes the
 * fields. The command's field list is recorded here, once: the parser refuses a name outside it (exit
 * 2), so the output layer (`resolveFormat`) reads a checked list. An `open` list is only what formctl
 * knows (a form's attributes): its names are checked once the object is known (`resolveFormFormat`).
 */
export function jsonOption(fields: readonly string[] | undefined, o: { open?: boolean; description?: string } = {}) {
  const fieldsNote = fields?.length ? ` (fields: ${fields.join(', ')})` : '';
  const option = new Option('--json [fields]', o.description ?? `Output JSON; optionally only these comma-separated fields${fieldsNote}`).argParser((v) =>
    parseJsonFields(v, o.open ? undefined : fields),
  );
  return completes(option, { fields: fields ?? [] });
}

/**
 * `--jq <expression>`, beside every `--json`: jq's own language (src/io/jq.ts), checked before the
 * run; it implies `--json`, and strings print raw as with `jq -r`.
 */
export function jqOption(implies = '--json') {
  return new Option('--jq <expression>', `Filter the JSON output with a jq expression (implies ${implies}; strings print raw)`);
}

/** `--ndjson`, for lists. */
function ndjsonOption() {
  return new Option('--ndjson', 'Output one JSON object per line, streamed');
}

// The flags' types, derived from the options above (as a command's FlagsOf is from its declaration).
const jsonDeclaration = () => new Command().addOption(jsonOption(undefined)).addOption(jqOption());
// Only its type is read (hence the leading underscore).
const _listDeclaration = () => jsonDeclaration().addOption(ndjsonOption());
/** The parsed `--json [fields]`. */
export type JsonFlag = FlagsOf<typeof jsonDeclaration>;
/** The parsed `--json [fields]` and `--ndjson`, as declared by `addOutputOptions(cmd, { list: true })`. */
export type ListOutputFlags = FlagsOf<typeof _listDeclaration>;

/**
 * Adds `--json [fields]` (and `--ndjson` for lists) with the field names shown in help, as gh's
 * AddJSONFlags does: the command's field list is given here and nowhere else (see jsonOption).
 */
export function addOutputOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  o: { list: true; fields?: readonly string[]; open?: boolean },
): Command<A, O & ListOutputFlags, G>;
export function addOutputOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  o?: { list?: false; fields?: readonly string[]; open?: boolean },
): Command<A, O & JsonFlag, G>;
export function addOutputOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  o: { list?: boolean; fields?: readonly string[]; open?: boolean } = {},
): CommandUnknownOpts {
  const withJson = cmd.addOption(jsonOption(o.fields, { open: o.open })).addOption(jqOption());
  // Without --ndjson the flag is simply never set, which the type (ndjson?: true) allows.
  return o.list ? withJson.addOption(ndjsonOption()) : withJson;
}

/** Adds `-w, --workspace <id>`: the flag value is `workspace`, resolved by the Factory's `workspace(flag)`; completes workspace ids. */
export function addWorkspaceOption<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd.addOption(
    completes(
      new Option('-w, --workspace <id>', "Workspace id (default: the profile's, see `formctl workspace use`)").argParser(parseId('--workspace')),
      'workspace',
    ),
  );
}

/**
 * Adds `--all` and `-L, --limit <n>` with the shared wording, for a list of `things` (plural); what
 * they mean is decided by `listLimit` (src/io/limit.ts).
 */
export function addLimitOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>, things: string) {
  return cmd
    .option('--all', `Show every ${things.replace(/s$/, '')} (the default for --json/--ndjson)`)
    .option(
      '-L, --limit <n>',
      `Show at most this many ${things} (default ${DEFAULT_LIST_LIMIT} in a table or TSV, all with --json/--ndjson)`,
      parsePositiveInt('--limit'),
    );
}

/**
 * Adds the optional `[form]` argument. It is optional so that the action runs without it and a person
 * on a terminal can pick the form (`resolveFormArg`); Commander would reject a missing `<form>` first.
 */
export function addFormArgument<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd.addArgument(
    completes(
      new Argument('[form]', 'Form id or slug (prompted on a terminal when omitted)').argParser((v: string) => parseFormRef(v)),
      'form',
    ),
  );
}

/** The `<id>` argument of a workspace verb (completes workspace ids). */
export function workspaceIdArgument() {
  return completes(new Argument('<id>', 'Workspace id').argParser(parseId('workspace id')), 'workspace');
}

/** The `<name>` argument of a profile verb (completes saved profile names). */
export function profileNameArgument() {
  return completes(new Argument('<name>', 'Profile name'), 'profile');
}

/** Adds `-y, --yes` for destructive verbs. */
export function addYesOption<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd.option('-y, --yes', 'Skip the confirmation prompt (required when not on a terminal)');
}

/** Appends an Examples block to a command's help; returns the same command, its types unchanged. */
export function examples<C extends CommandUnknownOpts>(cmd: C, lines: string[]): C {
  cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => (l.startsWith('#') ? `  ${l}` : `  $ ${l}`)).join('\n')}\n`);
  return cmd;
}

/** Commander parser for numeric ids in flags and arguments: the one id rule of src/io/ids.ts (exit 2, no request). */
export function parseId(name: string, hint?: string): (v: string) => number {
  return (v: string) => parseIdText(name, v, hint);
}

/** An option restricted to a set of values (shown in help and completions); its value's type is the union of `choices`. */
export function choiceOption<Usage extends string, const T extends readonly string[]>(flags: Usage, description: string, choices: T) {
  return new Option(flags, description).choices(choices);
}

/** An option whose value is a file name (completed as one). */
export function fileOption<Usage extends string>(flags: Usage, description: string) {
  return completes(new Option(flags, description), 'file');
}

/** An option whose value is a directory name (completed as one). */
export function directoryOption<Usage extends string>(flags: Usage, description: string) {
  return completes(new Option(flags, description), 'directory');
}

/** Parses repeated `key=value` flags into pairs, keeping order. */
export function collectKeyValue(value: string, previous: Array<[string, string]> = []): Array<[string, string]> {
  const i = value.indexOf('=');
  if (i <= 0) throw new UsageError(`Expected key=value, got "${value}".`);
  return [...previous, [value.slice(0, i), value.slice(i + 1)]];
}

/** Collects a repeatable string flag. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * "FORMCTL_PROFILE=work overrides the current profile (local)" when FORMCTL_PROFILE names another
 * profile than the current one (`current`: what `formctl profile use` saved), else undefined. The
 * commands that show or set the current profile say it in a note, as gh does when GH_TOKEN
 * overrides its stored login.
 */
export function profileOverride(env: NodeJS.ProcessEnv, current: string | undefined): string | undefined {
  const named = env.FORMCTL_PROFILE;
  if (!named || named === (current ?? DEFAULT_PROFILE)) return undefined;
  return `FORMCTL_PROFILE=${escapeControls(named, { all: true })} overrides the current profile${current ? ` (${current})` : ''}`;
}
