// Completion kinds, declared on an option or argument where it is declared:
//
//   cmd.addOption(completes(new Option('-o, --output <file>', 'Write to FILE'), 'file'));
//   cmd.addArgument(completes(new Argument('<id>', 'Workspace id'), 'workspace'));
//
// The resolver (resolve.ts) reads the kind back when the cursor stands at that option's value or
// that argument's slot. Commander's own `.choices()` needs no kind: the resolver reads the choices.
// This module imports nothing, so command modules of either Commander flavour can use it.

/** Ids that formctl lists itself: from the API (workspaces, forms, webhooks) or the config file (profiles). */
export const DYNAMIC_KINDS = ['workspace', 'form', 'webhook', 'profile'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];

/** Fixed words, and optionally a command path (`formctl help <command…>`). */
export interface WordsKind {
  words: readonly string[];
  /** Also complete the names of commands, one level per word: `help form up` → `update`. */
  commands?: boolean;
}

/** A comma-separated list of these words, each named once (`--json id,title`). */
export interface FieldsKind {
  fields: readonly string[];
}

/** What completes at an option's value or an argument's slot. */
export type CompletionKind = DynamicKind | 'file' | 'directory' | WordsKind | FieldsKind;

const KINDS = new WeakMap<object, CompletionKind>();

/** Declares what completes at this option's value or this argument's slot; returns the option or argument. */
export function completes<T extends object>(target: T, kind: CompletionKind): T {
  KINDS.set(target, kind);
  return target;
}

/** The kind declared on an option or argument, if any. */
export function completionKind(target: object): CompletionKind | undefined {
  return KINDS.get(target);
}
