// The completion model: a plain, shell-neutral description of the Commander tree. The three shell
// renderers read only this, so what bash, zsh and fish offer can never drift apart.
import type { Argument, CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';

/** Sources `formctl __complete <source>` can list. */
export const DYNAMIC_SOURCES = ['workspaces', 'forms', 'integrations', 'profiles'] as const;
export type DynamicSource = (typeof DYNAMIC_SOURCES)[number];

/** What may follow an option or stand at a positional slot. */
export type ValueSpec =
  | { kind: 'none' }
  | { kind: 'choices'; values: string[] }
  | { kind: 'dynamic'; source: DynamicSource }
  | { kind: 'file' };

export interface OptionSpec {
  /** Short and long spellings, e.g. ["-w", "--workspace"]. */
  flags: string[];
  description: string;
  /** Whether the option takes a value: `<v>` required, `[v]` optional (only consumed when it is not an option). */
  value: 'none' | 'required' | 'optional';
  values: ValueSpec;
  /** Accepted because an ancestor (the root) defines it: the same everywhere. */
  inherited?: boolean;
}

export interface ArgSpec {
  name: string;
  required: boolean;
  variadic: boolean;
  values: ValueSpec;
}

export interface CommandSpec {
  name: string;
  /** Canonical names from the root, e.g. ["form", "update"]; [] for the root. */
  path: string[];
  aliases: string[];
  description: string;
  /** The command's own options plus those it inherits (Commander accepts parent options after a subcommand). */
  options: OptionSpec[];
  args: ArgSpec[];
  commands: CommandSpec[];
}

/** Group nouns whose bare `<id>` argument names an object of that kind. */
const ID_BY_GROUP: Record<string, DynamicSource> = { workspace: 'workspaces', form: 'forms', webhook: 'integrations', profile: 'profiles' };

/** Infers the values of an argument or option value from its name, e.g. `<form>` or `--workspace <id>`. */
export function inferValues(valueName: string, o: { optionLong?: string; group?: string; choices?: readonly string[] }): ValueSpec {
  if (o.choices?.length) return { kind: 'choices', values: [...o.choices] };
  const long = (o.optionLong ?? '').replace(/^--/, '');
  const name = valueName.toLowerCase().replace(/[-_]?id$/, '');
  const noun = long || name;
  if (/^(workspace|ws)$/.test(noun)) return { kind: 'dynamic', source: 'workspaces' };
  if (/^(form|form-ref|slug)$/.test(noun)) return { kind: 'dynamic', source: 'forms' };
  if (/^(integration|webhook)$/.test(noun)) return { kind: 'dynamic', source: 'integrations' };
  if (noun === 'profile') return { kind: 'dynamic', source: 'profiles' };
  if (!long && name === '' && o.group && ID_BY_GROUP[o.group]) return { kind: 'dynamic', source: ID_BY_GROUP[o.group]! };
  if (!long && name === 'name' && o.group === 'profile') return { kind: 'dynamic', source: 'profiles' };
  if (/(file|path|dir)/.test(valueName.toLowerCase()) || /^(output|input|out|data)$/.test(long)) return { kind: 'file' };
  return { kind: 'none' };
}

/** The `<value>` placeholder of an option's flags, e.g. "id" for "-w, --workspace <id>". */
function valueName(opt: Option): string {
  return /[<[]([^>\]]+)[>\]]/.exec(opt.flags)?.[1]?.replace(/\.\.\.$/, '') ?? '';
}

function optionSpec(opt: Option, group: string | undefined): OptionSpec {
  const flags = [opt.short, opt.long].filter((s): s is string => Boolean(s));
  const value = opt.required ? 'required' : opt.optional ? 'optional' : 'none';
  return {
    flags,
    description: firstLine(opt.description),
    value,
    values: value === 'none' ? { kind: 'none' } : inferValues(valueName(opt), { optionLong: opt.long, group, choices: opt.argChoices }),
  };
}

function argSpec(arg: Argument, group: string | undefined): ArgSpec {
  return {
    name: arg.name(),
    required: arg.required,
    variadic: arg.variadic,
    values: inferValues(arg.name(), { group, choices: arg.argChoices }),
  };
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0]!.trim();
}

/** Options shown for a command: its own (hidden ones excluded) plus the help option. */
function ownOptions(cmd: Command): Option[] {
  return cmd.createHelp().visibleOptions(cmd);
}

/** Subcommands that are registered and not hidden (Commander's implicit `help` command is left out). */
export function visibleSubcommands(cmd: Command): Command[] {
  const visible = new Set(cmd.createHelp().visibleCommands(cmd));
  return cmd.commands.filter((c) => visible.has(c));
}

/** Walks a Commander tree into the completion model. Hidden commands and options are left out. */
export function describeProgram(program: Command): CommandSpec {
  const walk = (cmd: Command, path: string[], inherited: OptionSpec[]): CommandSpec => {
    const group = path[0];
    const own = ownOptions(cmd).map((o) => optionSpec(o, group));
    const seen = new Set(own.flatMap((o) => o.flags));
    const options = [...own, ...inherited.filter((o) => !o.flags.some((fl) => seen.has(fl))).map((o) => ({ ...o, inherited: true }))];
    // Only the root's options are global: a group's own options (rare) are not accepted by its verbs.
    const passDown = path.length === 0 ? own.filter((o) => !o.flags.includes('--help') && !o.flags.includes('--version')) : inherited;
    return {
      name: cmd.name(),
      path,
      aliases: cmd.aliases(),
      description: firstLine(cmd.summary() || cmd.description()),
      options,
      args: cmd.registeredArguments.map((a) => argSpec(a, group)),
      commands: visibleSubcommands(cmd).map((c) => walk(c, [...path, c.name()], passDown)),
    };
  };
  const root = walk(program, [], []);
  // `formctl help <topic|command>`: its argument is free text to Commander, but the valid words are known.
  const help = root.commands.find((c) => c.name === 'help');
  if (help?.args[0]) {
    const words = ['environment', 'exit-codes', ...root.commands.filter((c) => c !== help).map((c) => c.name)];
    help.args[0] = { ...help.args[0], values: { kind: 'choices', values: words } };
  }
  return root;
}

/** Every command in the model, depth first, root included. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.commands.flatMap(allCommands)];
}

/** A value spec as one shell-safe word: "-", "file", "dyn:forms", "choices:a,b". */
export function encodeValues(v: ValueSpec): string {
  switch (v.kind) {
    case 'none':
      return '-';
    case 'file':
      return 'file';
    case 'dynamic':
      return `dyn:${v.source}`;
    case 'choices':
      // Choices are identifiers (roles, visibilities, shells); anything else would need quoting in three shells.
      return `choices:${v.values.filter((c) => /^[\w.@+-]+$/.test(c)).join(',')}`;
  }
}
