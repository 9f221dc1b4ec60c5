// The completion resolver: given the Commander tree and the words on the command line (the last
// one is the word being completed, possibly empty), it finds the command, the option or argument
// slot at the cursor, and what completes there. `formctl __complete <words…>` prints its answer;
// the shell scripts in scripts.ts only hand the words over and show the answer. The protocol is
// described in docs/completion.md.
import type { Argument, CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';
import { type CompletionKind, type DynamicKind, DYNAMIC_KINDS, completionKind } from './kinds.js';

/** Bits of the directive line `:<n>` that ends every answer. */
export const Directive = {
  /** Nothing special: offer the candidates (none: offer nothing; never file names). */
  none: 0,
  /** Let the shell complete file and directory names for the current word (its value after `=`). */
  files: 1,
  /** Let the shell complete directory names only. */
  directories: 2,
  /** Do not add a space after the inserted value: a list goes on after it (`--json id,title` → `,…`). */
  noSpace: 4,
} as const;

export interface Candidate {
  value: string;
  description?: string;
}

export interface Completion {
  candidates: Candidate[];
  directive: number;
}

/** A request for ids the resolver cannot know itself, with what the command line already says. */
export interface ValueRequest {
  kind: DynamicKind;
  /** The value given for a workspace option or argument on the line (e.g. `-w 12`). */
  workspace?: string;
  /** The value given for a form option or argument on the line (e.g. `<form>` of `webhook get`). */
  form?: string;
  /** The value given for `--profile` (or another profile-kind slot). */
  profile?: string;
}

/** Lists dynamic ids as candidates; never throws (the caller's job: cache, time limit, silence). */
export type ValueSource = (req: ValueRequest) => Promise<Candidate[]>;

/** Subcommands that are registered and not hidden (Commander's implicit `help` command is left out). */
export function visibleSubcommands(cmd: Command): Command[] {
  const visible = new Set(cmd.createHelp().visibleCommands(cmd));
  return cmd.commands.filter((c) => visible.has(c));
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0]!.trim();
}

/** The command and its ancestors, nearest first. */
function chain(cmd: Command): Command[] {
  const out: Command[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) out.push(c);
  return out;
}

/** The option a word names at this command: its own, else an ancestor's (Commander accepts root options anywhere). */
function findOption(cmd: Command, flag: string): Option | undefined {
  for (const c of chain(cmd)) {
    const o = c.options.find((opt) => opt.short === flag || opt.long === flag);
    if (o) return o;
  }
  return undefined;
}

function findSubcommand(cmd: Command, word: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/** Options offered after `-`: the command's own visible ones (help included), then the root's it inherits. */
function offeredOptions(cmd: Command): Option[] {
  const own = cmd.createHelp().visibleOptions(cmd);
  const seen = new Set(own.flatMap((o) => [o.short, o.long]).filter(Boolean));
  const inherited = chain(cmd)
    .slice(1)
    .flatMap((c) => c.createHelp().visibleOptions(c))
    .filter((o) => o.long !== '--help' && o.long !== '--version' && !seen.has(o.long) && !seen.has(o.short));
  return [...own, ...inherited];
}

function takesValue(o: Option): boolean {
  return o.required || o.optional;
}

/**
 * Choices are offered only when they are plain words (roles, visibilities, shells, methods): anything
 * else would need quoting, which no shell does for a completion.
 */
export function plainChoices(choices: readonly string[] | undefined): string[] | undefined {
  return choices?.filter((c) => /^[\w.@+-]+$/.test(c));
}

/** The candidates that start with the word being completed, each value once. */
export function matching(candidates: Candidate[], prefix: string): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => {
    if (!c.value.startsWith(prefix) || seen.has(c.value)) return false;
    seen.add(c.value);
    return true;
  });
}

/**
 * The choices that start with the word, in its letter case; when none does, in any case. The options
 * that parse their value in any case (`api -X`, `--role`, `invite list --status`) then complete `p` to
 * PATCH, POST, PUT; for the others, the choice offered is the one value their parser takes.
 */
export function matchingChoices(choices: readonly string[], prefix: string): Candidate[] {
  const exact = matching(
    choices.map((value) => ({ value })),
    prefix,
  );
  if (exact.length > 0 || prefix === '') return exact;
  const lower = prefix.toLowerCase();
  return matching(
    choices.filter((c) => c.toLowerCase().startsWith(lower)).map((value) => ({ value })),
    '',
  );
}

/** What the line says so far, collected while walking it: the latest value given for each dynamic kind. */
type Context = Partial<Record<DynamicKind, string>>;

function note(ctx: Context, target: Option | Argument | undefined, value: string): void {
  const kind = target ? completionKind(target) : undefined;
  if (typeof kind === 'string' && (DYNAMIC_KINDS as readonly string[]).includes(kind)) ctx[kind as DynamicKind] = value;
}

/** The command a path of words names under `root` (names or aliases), or undefined. */
function commandAt(root: Command, path: string[]): Command | undefined {
  let cmd: Command | undefined = root;
  for (const w of path) cmd = cmd && findSubcommand(cmd, w);
  return cmd;
}

function subcommandCandidates(cmd: Command, aliases: boolean): Candidate[] {
  return visibleSubcommands(cmd).flatMap((c) => {
    const description = firstLine(c.summary() || c.description());
    return [c.name(), ...(aliases ? c.aliases() : [])].map((value) => ({ value, description }));
  });
}

/** Completes one value slot: Commander choices first, else the declared kind. */
async function valuesFor(
  target: Option | Argument,
  cur: string,
  o: { root: Command; owner: Command; ctx: Context; source: ValueSource; before: string[] },
): Promise<Completion> {
  const choices = plainChoices(target.argChoices);
  if (choices?.length) return { candidates: matchingChoices(choices, cur), directive: Directive.none };
  const kind: CompletionKind | undefined = completionKind(target);
  if (kind === undefined) return { candidates: [], directive: Directive.none };
  if (kind === 'file') return { candidates: [], directive: Directive.files };
  if (kind === 'directory') return { candidates: [], directive: Directive.directories };
  if (typeof kind === 'object' && 'fields' in kind) {
    // Each field once: after "id,ti" the candidates are "id," followed by the fields not listed yet.
    const head = cur.slice(0, cur.lastIndexOf(',') + 1);
    const listed = new Set(head.split(',').map((f) => f.trim()));
    const rest = kind.fields.filter((f) => !listed.has(f)).map((f) => ({ value: head + f }));
    return { candidates: matching(rest, cur), directive: Directive.noSpace };
  }
  if (typeof kind === 'object') {
    // Words first; then, for a command path, the subcommands of the words already given for this slot.
    const atStart = o.before.length === 0;
    const words = atStart ? kind.words.map((value) => ({ value })) : [];
    const parent = kind.commands ? commandAt(o.root, o.before) : undefined;
    // `formctl help` does not offer itself.
    const commands = parent ? subcommandCandidates(parent, false).filter((c) => parent !== o.owner.parent || c.value !== o.owner.name()) : [];
    return { candidates: matching([...words, ...commands], cur), directive: Directive.none };
  }
  const { ctx } = o;
  const req: ValueRequest = { kind, workspace: ctx.workspace, form: ctx.form, profile: ctx.profile };
  return { candidates: matching(await o.source(req), cur), directive: Directive.none };
}

/**
 * Resolves what completes at the end of `words` (the words after `formctl`; the last is the one
 * being completed and may be empty).
 */
export async function resolveCompletion(root: Command, words: readonly string[], source: ValueSource): Promise<Completion> {
  const cur = words.length ? words[words.length - 1]! : '';
  const before = words.slice(0, -1);
  const ctx: Context = {};
  let cmd = root;
  const positionals: string[] = [];
  let pending: Option | undefined;
  let dashDash = false;

  for (const w of before) {
    if (pending) {
      const opt = pending;
      pending = undefined;
      // An optional value (`--json [fields]`) is taken only when the word is not an option itself.
      if (opt.required || !w.startsWith('-')) {
        note(ctx, opt, w);
        continue;
      }
    }
    if (!dashDash && w === '--') {
      dashDash = true;
      continue;
    }
    if (!dashDash && w.length > 1 && w.startsWith('-')) {
      const eq = w.indexOf('=');
      if (w.startsWith('--') && eq > 0) {
        note(ctx, findOption(cmd, w.slice(0, eq)), w.slice(eq + 1));
        continue;
      }
      const opt = findOption(cmd, w) ?? (w.startsWith('--') ? undefined : findOption(cmd, w.slice(0, 2)));
      if (opt && takesValue(opt)) {
        // `-w12`: a short option with its value attached.
        if (w.length > 2 && !w.startsWith('--') && opt.short === w.slice(0, 2)) note(ctx, opt, w.slice(2));
        else pending = opt;
      }
      continue;
    }
    const sub = positionals.length === 0 ? findSubcommand(cmd, w) : undefined;
    if (sub) {
      cmd = sub;
      continue;
    }
    const args = cmd.registeredArguments;
    const arg = args[positionals.length] ?? (args.at(-1)?.variadic ? args.at(-1) : undefined);
    note(ctx, arg, w);
    positionals.push(w);
  }

  const slot = { root, owner: cmd, ctx, source, before: [] as string[] };
  if (pending && (pending.required || !cur.startsWith('-'))) return valuesFor(pending, cur, slot);
  if (!dashDash && cur.startsWith('--') && cur.includes('=')) {
    const opt = findOption(cmd, cur.slice(0, cur.indexOf('=')));
    if (!opt || !takesValue(opt)) return { candidates: [], directive: Directive.none };
    return valuesFor(opt, cur.slice(cur.indexOf('=') + 1), slot);
  }
  if (!dashDash && cur.startsWith('-')) {
    const candidates = offeredOptions(cmd).flatMap((o) => {
      const description = firstLine(o.description);
      return [o.short, o.long].filter((f): f is string => Boolean(f)).map((value) => ({ value, description }));
    });
    return { candidates: matching(candidates, cur), directive: Directive.none };
  }
  if (positionals.length === 0 && visibleSubcommands(cmd).length > 0) {
    return { candidates: matching(subcommandCandidates(cmd, true), cur), directive: Directive.none };
  }
  const args = cmd.registeredArguments;
  const index = positionals.length < args.length ? positionals.length : args.at(-1)?.variadic ? args.length - 1 : -1;
  if (index < 0) return { candidates: [], directive: Directive.none };
  // A variadic slot sees the words already given to it (a command path for `formctl help`).
  return valuesFor(args[index]!, cur, { ...slot, before: positionals.slice(index) });
}

// eslint-disable-next-line no-control-regex
const CONTROL_RUNS = /[\x00-\x1f\x7f-\x9f]+/g;

/**
 * Tabs and newlines would break the line protocol, and shells print descriptions in their menus, so
 * every control character (ANSI/OSC escape sequences from a name or title) becomes a space.
 */
export function cleanText(s: unknown): string {
  return String(s ?? '')
    .replace(CONTROL_RUNS, ' ')
    .trim();
}

/** The answer as printed by `formctl __complete`: "value<TAB>description" lines, then ":<directive>". */
export function formatCompletion(c: Completion): string {
  const lines = c.candidates
    .filter((x) => cleanText(x.value) !== '')
    .map((x) => {
      const d = cleanText(x.description);
      return d ? `${cleanText(x.value)}\t${d}` : cleanText(x.value);
    });
  return [...lines, `:${c.directive}`].join('\n') + '\n';
}
