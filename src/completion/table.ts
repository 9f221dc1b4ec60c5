// The completion table: what `formctl __complete` needs to know about the command tree to answer a
// dynamic slot from the cache without loading Commander (fast.ts). The build renders it from the
// whole tree into dist/completion-table.json (`renderCompletionTable` in main.ts), as it renders the
// root help; bin/formctl.js reads it. It holds names and kinds only: every other question (options,
// choices, subcommand names) is left to the full resolver.
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { type DynamicKind, DYNAMIC_KINDS, completionKind } from './kinds.js';
import { plainChoices, visibleSubcommands } from './resolve.js';

/** An argument slot: its dynamic kind (the only kind a cache can answer), whether it has choices, whether it repeats. */
export interface TableArgument {
  kind?: DynamicKind;
  choices?: true;
  variadic?: true;
}

/** A command: its subcommands by name and alias (all of them, hidden ones too), whether any is visible, its arguments. */
export interface TableCommand {
  sub?: Record<string, TableCommand>;
  menu?: true;
  args?: TableArgument[];
}

/** The table of a command and everything under it, read from the tree as the resolver reads it. */
export function completionTable(cmd: Command): TableCommand {
  const node: TableCommand = {};
  if (cmd.commands.length > 0) {
    const sub: Record<string, TableCommand> = {};
    for (const c of cmd.commands) {
      const t = completionTable(c);
      // The resolver takes the first command whose name or alias matches.
      for (const word of [c.name(), ...c.aliases()]) if (!Object.hasOwn(sub, word)) sub[word] = t;
    }
    node.sub = sub;
  }
  if (visibleSubcommands(cmd).length > 0) node.menu = true;
  if (cmd.registeredArguments.length > 0) {
    node.args = cmd.registeredArguments.map((a) => {
      const kind = completionKind(a);
      const arg: TableArgument = {};
      if (typeof kind === 'string' && (DYNAMIC_KINDS as readonly string[]).includes(kind)) arg.kind = kind as DynamicKind;
      if (plainChoices(a.argChoices)?.length) arg.choices = true;
      if (a.variadic) arg.variadic = true;
      return arg;
    });
  }
  return node;
}
