// Every list's `--all` and `-L, --limit <n>` come from the one adder in src/commands/shared.ts, so
// their help reads the same everywhere but for the noun (docs/architecture.md "Adding a flag").
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { visibleSubcommands } from '../../../src/completion/resolve.js';
import { DEFAULT_LIST_LIMIT } from '../../../src/io/limit.js';
import { fullProgram } from '../completion/full-program.js';

function commands(cmd: CommandUnknownOpts, path: string[] = ['formctl']): Array<{ path: string; cmd: CommandUnknownOpts }> {
  return [{ path: path.join(' '), cmd }, ...visibleSubcommands(cmd).flatMap((s) => commands(s, [...path, s.name()]))];
}

describe('--all and --limit', () => {
  it('read the shared wording in every command that has them', async () => {
    const { program } = await fullProgram();
    const withLimit = commands(program).filter((c) => c.cmd.options.some((o) => o.long === '--limit'));
    expect(withLimit.map((c) => c.path)).toContain('formctl form list');
    const offenders = withLimit.flatMap(({ path, cmd }) => {
      const all = cmd.options.find((o) => o.long === '--all');
      const limit = cmd.options.find((o) => o.long === '--limit')!;
      const noun = /^Show at most this many (\w+) /.exec(limit.description)?.[1] ?? '?';
      const found = [`${limit.flags}: ${limit.description}`, `${all?.flags}: ${all?.description}`];
      const expected = [
        `-L, --limit <n>: Show at most this many ${noun} (default ${DEFAULT_LIST_LIMIT} in a table or TSV, all with --json/--ndjson)`,
        `--all: Show every ${noun.replace(/s$/, '')} (the default for --json/--ndjson)`,
      ];
      return found.filter((f, i) => f !== expected[i]).map((f) => `${path}: ${f}`);
    });
    expect(offenders).toEqual([]);
  });
});
