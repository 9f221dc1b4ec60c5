// The cache-hit path of `formctl __complete`, answered by bin/formctl.js before the CLI loads (no
// Commander, no command group, no config parse): a separate small CommonJS bundle,
// dist/complete.cjs. It handles the common Tab only, a dynamic id slot reached by plain words
// (`workspace use <Tab>`, `webhook get 5 <Tab>`), and walks the words as the resolver does, over
// the table the build rendered from the tree (table.ts). Anything else (a flag among the words,
// a subcommand menu, choices, profiles, a cache miss or an expired entry) returns undefined, and
// the full CLI answers as before. The answer is the same bytes the full path prints: the same
// cache key and entry (values.ts, cache.ts), the same matching and formatting (resolve.ts).
import type { DynamicKind } from './kinds.js';
import { readCache } from './cache.js';
import { Directive, formatCompletion, matching } from './resolve.js';
import type { TableArgument, TableCommand } from './table.js';
import { candidates, requestKey } from './values.js';

/** The answer for `__complete <words…>` from a fresh cache entry, or undefined when the full CLI must answer. */
export function answerFromCache(words: readonly string[], env: NodeJS.ProcessEnv, table: TableCommand, now: number): string | undefined {
  const cur = words.length ? words[words.length - 1]! : '';
  const before = words.slice(0, -1);
  // Flags change what the words mean (option values, root options): the resolver's job.
  if (cur.startsWith('-') || before.some((w) => w.startsWith('-'))) return undefined;
  const ctx: Partial<Record<DynamicKind, string>> = {};
  let cmd = table;
  const positionals: string[] = [];
  const slotAt = (i: number): TableArgument | undefined => {
    const args = cmd.args ?? [];
    return args[i] ?? (args.at(-1)?.variadic ? args.at(-1) : undefined);
  };
  for (const w of before) {
    const sub = positionals.length === 0 && cmd.sub && Object.hasOwn(cmd.sub, w) ? cmd.sub[w] : undefined;
    if (sub) {
      cmd = sub;
      continue;
    }
    const kind = slotAt(positionals.length)?.kind;
    if (kind) ctx[kind] = w;
    positionals.push(w);
  }
  if (positionals.length === 0 && cmd.menu) return undefined;
  const slot = slotAt(positionals.length);
  if (!slot?.kind || slot.choices || slot.kind === 'profile') return undefined;
  const lines = readCache(env, requestKey(env, { kind: slot.kind, workspace: ctx.workspace, form: ctx.form, profile: ctx.profile }), now);
  if (!lines) return undefined;
  return formatCompletion({ candidates: matching(candidates(lines), cur), directive: Directive.none });
}
