// docs/architecture.md "Adding a flag": a command's flags are written once, in its declaration; its
// Options type is derived from it (FlagsOf) and its action takes the parsed flags as Commander types
// them. This test reads the command modules and refuses the two ways a second copy creeps back: a
// hand-written Options interface, and an action whose parameters are typed by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

/** The offences in one module's text, as "line: what". */
function offences(text: string): string[] {
  const found: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (/^export interface \w+Options\b/.test(line)) found.push(`${i + 1}: hand-written ${line.split(' ')[2]} (derive it: FlagsOf<declaration> & { … })`);
    // A flags type spelled out (`type JsonFlag = { json?: string | true }`: optional members, as parsed
    // flags are) instead of derived from the options that declare it. A parsed value's shape (`FieldFlag
    // { key: string; … }`) is not one.
    const spelled = /^(?:export )?(?:type|interface) (\w+Flags?)\b[^=]*(?:=\s*(?:\w+\s*&\s*)*)?\{(.*)$/.exec(line);
    if (spelled && /\w\?:/.test(spelled[2]! + (lines[i + 1] ?? '')))
      found.push(`${i + 1}: hand-written ${spelled[1]} (derive it from the options: FlagsOf<…>)`);
  });
  // An action callback whose parameter list carries a type annotation: `.action((flags: {…}) =>`,
  // `.action(async (form: string | undefined, …) =>`.
  for (const m of text.matchAll(/\.action\(\s*(?:async\s*)?\(([^()]*)\)\s*=>/g)) {
    if (m[1]!.includes(':')) found.push(`${text.slice(0, m.index).split('\n').length}: action parameters typed by hand (${m[1]!.trim()})`);
  }
  return found;
}

function commandModules(): string[] {
  const dir = join(ROOT, 'src', 'commands');
  // The groups' modules, and the flag helpers all groups share (src/commands/shared.ts).
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? readdirSync(join(dir, e.name))
          .filter((n) => n.endsWith('.ts'))
          .map((n) => join(dir, e.name, n))
      : e.name.endsWith('.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

describe('flags are declared once', () => {
  it('finds both kinds of offence in a module that has them', () => {
    const text = [
      'export interface FooListOptions {',
      '  all?: boolean;',
      '}',
      '  return cmd.action(async (form: string | undefined, flags: { all?: boolean }) => runF({ all: flags.all }));',
      '  return fooCommand().action((flags) => runF({ ...flags }));',
      'export type JsonFlag = {',
      '  json?: string | true;',
      'export type ListFlags = JsonFlag & { ndjson?: true };',
      'export interface FieldFlag {',
      '  key: string;',
      'export type ListOutputFlags = FlagsOf<typeof listDeclaration>;',
    ].join('\n');
    expect(offences(text)).toEqual([
      '1: hand-written FooListOptions (derive it: FlagsOf<declaration> & { … })',
      '6: hand-written JsonFlag (derive it from the options: FlagsOf<…>)',
      '8: hand-written ListFlags (derive it from the options: FlagsOf<…>)',
      '4: action parameters typed by hand (form: string | undefined, flags: { all?: boolean })',
    ]);
  });

  it('no command module writes its flags a second time', () => {
    const modules = commandModules();
    // The walk sees the command groups (a check that reads nothing passes for nothing).
    expect(modules.map((m) => relative(ROOT, m))).toEqual(
      expect.arrayContaining(['src/commands/form/update.ts', 'src/commands/webhook/listen.ts', 'src/commands/shared.ts']),
    );
    const found = modules.flatMap((file) => offences(readFileSync(file, 'utf8')).map((o) => `${relative(ROOT, file)}:${o}`));
    expect(found).toEqual([]);
  });
});
