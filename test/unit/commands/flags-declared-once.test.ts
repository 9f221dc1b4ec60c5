// docs/architecture.md "Adding a flag": a command's flags are written once, in its declaration; its
// Options type is derived from it (FlagsOf) and its action takes the parsed flags as Commander types
// them. This test reads the command modules and refuses the ways a second copy creeps back: a
// hand-written Options interface or type literal, an Options type that types a declared flag again
// beside FlagsOf (unless Omit<>/Pick<> left it out), and an action whose parameters are typed by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

/** The text of a type alias's right-hand side, from just after `=` to its `;` at depth 0. */
function typeBody(text: string, from: number): string {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '{' || c === '(' || c === '[' || c === '<') depth++;
    // `=>` in a function type is no closing bracket.
    else if (c === '}' || c === ')' || c === ']' || (c === '>' && text[i - 1] !== '=')) depth--;
    else if (c === ';' && depth === 0) return text.slice(from, i);
  }
  return text.slice(from);
}

/** The member names of the object literals at the top level of a type (`A & { io: …; form?: … }` → io, form). */
function literalMembers(body: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '{' && depth++ === 0) start = i + 1;
    else if (c === '{' || c === '(' || c === '[' || c === '<') depth++;
    else if (c === '}' && --depth === 0) {
      // Members of this literal only: nested literals are blanked before reading `name:` / `name?:`.
      let inner = body.slice(start, i);
      for (let prev = ''; prev !== inner;) [prev, inner] = [inner, inner.replace(/\{[^{}]*\}|\([^()]*\)/g, '')];
      names.push(...[...inner.matchAll(/(?:^|[;\n])\s*(?:readonly\s+)?(\w+)\??\s*:/g)].map((m) => m[1]!));
    } else if (c === '}' || c === ')' || c === ']' || (c === '>' && body[i - 1] !== '=')) depth--;
  }
  return names;
}

/**
 * The flags a module declares itself (`.option('--dry-run'`, `new Option('-o, --output <file>'`,
 * `fileOption('--data <file>'`), as Commander names their values: `--dry-run` → dryRun, `--no-wait` → wait.
 */
function declaredFlags(text: string): Set<string> {
  const declarations = text.matchAll(/(?:\.(?:requiredOption|option)|\bnew Option|\b\w+Option)\(\s*['"`](?:-\w,\s*)?--(?:no-)?([a-z][\w-]*)/g);
  return new Set([...declarations].map((m) => m[1]!.replace(/-(\w)/g, (_, ch: string) => ch.toUpperCase())));
}

/** The offences in one module's text, as "line: what". */
function offences(text: string): string[] {
  const found: string[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const flags = declaredFlags(text);
  // An Options type alias: written as an object literal from the start, or with flags typed again
  // beside the derived ones (a member named as a flag this module declares, unless Omit<> or Pick<>
  // left that flag out to type it anew, as `host` once its default is filled in).
  for (const m of text.matchAll(/^(?:export )?type (\w+Options)\b(?:<[^=]*>)?\s*=/gm)) {
    const body = typeBody(text, m.index + m[0].length);
    const where = lineOf(m.index);
    if (body.trim().startsWith('{')) {
      found.push(`${where}: hand-written ${m[1]} (derive it: FlagsOf<declaration> & { … })`);
      continue;
    }
    const named = (kind: string) =>
      [...body.matchAll(new RegExp(`${kind}<[^,]+,([^>]+)>`, 'g'))].flatMap((o) => [...o[1]!.matchAll(/'(\w+)'/g)].map((q) => q[1]!));
    const picked = /\bPick</.test(body) ? new Set(named('Pick')) : undefined;
    const leftOut = (name: string) => named('Omit').includes(name) || (picked !== undefined && !picked.has(name));
    const again = literalMembers(body).filter((name) => flags.has(name) && !leftOut(name));
    if (again.length) found.push(`${where}: ${m[1]} types flags by hand (${again.join(', ')}; they come from FlagsOf<declaration>)`);
  }
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (/^(?:export )?interface \w+Options\b/.test(line))
      found.push(`${i + 1}: hand-written ${/interface (\w+)/.exec(line)![1]} (derive it: FlagsOf<declaration> & { … })`);
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

  it('finds an Options type alias written by hand, or with flags typed again beside FlagsOf', () => {
    const text = [
      "const fooCommand = () => new Command('foo').option('--dry-run', 'Only show').addOption(fileOption('-o, --output <file>', 'Write'));",
      'export type FooOptions = {',
      '  dryRun?: boolean;',
      '  io: IOStreams;',
      '};',
      'export type FooRunOptions = FlagsOf<typeof fooCommand> & {',
      '  io: IOStreams;',
      '  api: () => Promise<ApiClient>;',
      '  dryRun?: boolean;',
      '  output?: string;',
      '};',
      // Legitimate: deps only; a flag left out by Omit<> or Pick<> and typed anew; a nested member.
      "export type BarOptions = Omit<FlagsOf<typeof fooCommand>, 'output'> & { output: string; io: IOStreams; seen: { dryRun: boolean } };",
      "type BazOptions = Pick<FlagsOf<typeof fooCommand>, 'dryRun'> & {",
      '  output: string;',
      '  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;',
      '};',
      'export type QuxOptions = FlagsOf<typeof fooCommand> & { io: IOStreams; form: string };',
    ].join('\n');
    expect(offences(text)).toEqual([
      '2: hand-written FooOptions (derive it: FlagsOf<declaration> & { … })',
      '6: FooRunOptions types flags by hand (dryRun, output; they come from FlagsOf<declaration>)',
    ]);
  });

  it('would catch a real command module that typed a flag again (webhook listen without its Omit<>)', () => {
    const listen = readFileSync(join(ROOT, 'src', 'commands', 'webhook', 'listen.ts'), 'utf8');
    const derived = "Omit<FlagsOf<typeof webhookListenCommand>, 'host'> & {";
    expect(listen).toContain(`export type WebhookListenOptions = ${derived}`);
    expect(offences(listen)).toEqual([]);
    expect(offences(listen.replace(derived, 'FlagsOf<typeof webhookListenCommand> & {'))).toEqual([
      expect.stringMatching(/^\d+: WebhookListenOptions types flags by hand \(host; /),
    ]);
    expect(offences(listen.replace(derived, '{\n  port: number;'))).toEqual([expect.stringMatching(/^\d+: hand-written WebhookListenOptions /)]);
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
