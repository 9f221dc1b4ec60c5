import { type Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import { parseFormRef, parseIdText } from '../io/ids.js';

/** Adds `--json [fields]` (and `--ndjson` for lists) with the field names shown in help. */
export function addOutputOptions(cmd: Command, o: { list?: boolean; fields?: readonly string[] } = {}): Command {
  const fieldsNote = o.fields?.length ? ` (fields: ${o.fields.join(', ')})` : '';
  cmd.option('--json [fields]', `Output JSON; optionally only these comma-separated fields${fieldsNote}`);
  if (o.list) cmd.option('--ndjson', 'Output one JSON object per line, streamed');
  return cmd;
}

/** Adds `-w, --workspace <id>`. */
export function addWorkspaceOption(cmd: Command): Command {
  return cmd.option('-w, --workspace <id>', 'Workspace id (default: the profile\'s, see `formctl workspace use`)', parseId('--workspace'));
}

/**
 * Adds the optional `[form]` argument. It is optional so that the action runs without it and a person
 * on a terminal can pick the form (`resolveFormArg`); Commander would reject a missing `<form>` first.
 */
export function addFormArgument(cmd: Command): Command {
  return cmd.argument('[form]', 'Form id or slug (prompted on a terminal when omitted)', (v: string) => parseFormRef(v));
}

/** Adds `-y, --yes` for destructive verbs. */
export function addYesOption(cmd: Command): Command {
  return cmd.option('-y, --yes', 'Skip the confirmation prompt (required when not on a terminal)');
}

/** Appends an Examples block to a command's help. */
export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => (l.startsWith('#') ? `  ${l}` : `  $ ${l}`)).join('\n')}\n`);
}

/** Commander parser for numeric ids in flags and arguments: the one id rule of src/io/ids.ts (exit 2, no request). */
export function parseId(name: string, hint?: string): (v: string) => number {
  return (v: string) => parseIdText(name, v, hint);
}

/** An option restricted to a set of values (shown in help and completions). */
export function choiceOption(flags: string, description: string, choices: readonly string[]): Option {
  return new Option(flags, description).choices(choices);
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
