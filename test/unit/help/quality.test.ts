// The help contract (docs/contributing.md, Add a command): every command has a one-line description in sentence case without a
// trailing period, described arguments and options, and an Examples block of real invocations; every
// group with a list verb shows how to pipe --json into jq. Each test lists all offenders at once.
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { beforeAll, describe, expect, it } from 'vitest';
import { visibleSubcommands } from '../../../src/completion/resolve.js';
import { applySettings } from '../../../src/program.js';
import { fullProgram } from '../completion/full-program.js';
import { fakeIO } from '../../helpers/io.js';
import type { Factory } from '../../../src/factory.js';

interface Entry {
  path: string;
  cmd: CommandUnknownOpts;
  leaf: boolean;
  examples: string[];
  /** The flags listed under "Inherited flags:". */
  inherited: string[];
}

/** Renders every command's help (through the program's own output settings) and pulls out its examples. */
function collect(program: CommandUnknownOpts, io: ReturnType<typeof fakeIO>): Entry[] {
  const entries: Entry[] = [];
  const walk = (cmd: CommandUnknownOpts, path: string[]): void => {
    io.stdout.chunks = [];
    cmd.outputHelp();
    const block = /\nExamples:\n((?:[ \t]+.*\n?)+)/.exec(io.out())?.[1] ?? '';
    const examples = block
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('$ '))
      .map((l) => l.slice(2));
    const inheritedBlock = /\nInherited flags:\n((?:[ \t]+.*\n?)+)/.exec(io.out())?.[1] ?? '';
    const inherited = [...inheritedBlock.matchAll(/^ {2}(-[-\w]+(?:, --[-\w]+)?)/gm)].map((m) => m[1]!);
    const subs = visibleSubcommands(cmd);
    entries.push({ path: ['formctl', ...path].join(' '), cmd, leaf: subs.length === 0, examples, inherited });
    for (const sub of subs) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return entries;
}

/** Every spelling of a command path, aliases included, e.g. "formctl ws rm". */
function spellings(e: Entry): string[] {
  const chain: CommandUnknownOpts[] = [];
  for (let c: CommandUnknownOpts | null = e.cmd; c?.parent; c = c.parent) chain.unshift(c);
  let out = ['formctl'];
  for (const c of chain) out = out.flatMap((p) => [c.name(), ...c.aliases()].map((n) => `${p} ${n}`));
  return out;
}

/** Each rule returns its offenders: "path: detail". */
const rules = {
  description: (entries: Entry[]) =>
    entries
      .filter((e) => {
        const d = e.cmd.description();
        return !d || d.includes('\n') || !/^[A-Z]/.test(d) || /[.]$/.test(d.trim());
      })
      .map((e) => `${e.path}: ${JSON.stringify(e.cmd.description())}`),
  described: (entries: Entry[]) =>
    entries.flatMap((e) => [
      ...e.cmd.registeredArguments.filter((a) => !a.description).map((a) => `${e.path} <${a.name()}>`),
      ...e.cmd.options.filter((o) => !o.hidden && !o.description).map((o) => `${e.path} ${o.flags}`),
    ]),
  examples: (entries: Entry[]) => entries.filter((e) => e.leaf && e.examples.length === 0).map((e) => e.path),
  groupExamples: (entries: Entry[]) => entries.filter((e) => !e.leaf && e.cmd.parent && e.examples.length === 0).map((e) => e.path),
  inherited: (entries: Entry[]) =>
    entries
      .filter((e) => e.cmd.parent)
      .filter((e) => {
        const root = e.cmd.parent!.parent ? e.cmd.parent!.parent : e.cmd.parent!;
        const wanted = root.options.filter((o) => !o.hidden && o.long !== '--version').map((o) => o.long!);
        return wanted.some((flag) => !e.inherited.includes(flag)) || e.inherited.includes('--version');
      })
      .map((e) => `${e.path}: ${e.inherited.join(' ') || '(no Inherited flags block)'}`),
  realInvocations: (entries: Entry[]) =>
    entries
      .filter((e) => e.leaf && e.examples.length > 0)
      .filter((e) => {
        const names = spellings(e);
        return !e.examples.some((x) => names.some((n) => x === n || x.startsWith(`${n} `) || x.includes(` ${n} `) || x.endsWith(` ${n}`)));
      })
      .map((e) => `${e.path}: ${e.examples[0]}`),
  jq: (entries: Entry[]) =>
    entries
      .filter((e) => !e.leaf && e.cmd.parent && e.cmd.commands.some((c) => c.name() === 'list'))
      .filter((g) => !entries.some((e) => e.path.startsWith(`${g.path} `) && e.examples.some((x) => /--json\b.*\|\s*jq\b/.test(x))))
      .map((g) => g.path),
};

describe('help quality of the whole CLI', () => {
  let entries: Entry[] = [];
  beforeAll(async () => {
    const { program, io } = await fullProgram();
    entries = collect(program, io);
  });

  it('walks the whole tree, hidden commands excluded', () => {
    expect(entries.length).toBeGreaterThan(30);
    expect(entries.map((e) => e.path)).not.toContain('formctl __complete');
  });
  it('every command has a one-line description in sentence case without a trailing period', () => {
    expect(rules.description(entries)).toEqual([]);
  });
  it('every argument and option is described', () => {
    expect(rules.described(entries)).toEqual([]);
  });
  it('every leaf command has an Examples block', () => {
    expect(rules.examples(entries)).toEqual([]);
  });
  it('every group has an Examples block too', () => {
    expect(rules.groupExamples(entries)).toEqual([]);
  });
  it('every command below the root lists the root flags under "Inherited flags:" (not --version), as gh does', () => {
    expect(entries.filter((e) => e.cmd.parent).length).toBeGreaterThan(30);
    expect(rules.inherited(entries)).toEqual([]);
  });
  it('examples are real invocations of the command they document', () => {
    expect(rules.realInvocations(entries)).toEqual([]);
  });
  it('every group with a list verb shows --json piped into jq', () => {
    expect(rules.jq(entries)).toEqual([]);
  });
  it('every command with --json also takes --jq, as gh does', () => {
    const has = (e: Entry, flag: string) => e.cmd.options.some((o) => !o.hidden && o.long === flag);
    expect(entries.filter((e) => has(e, '--json')).length).toBeGreaterThan(20);
    expect(entries.filter((e) => has(e, '--json') && !has(e, '--jq')).map((e) => e.path)).toEqual([]);
  });
});

describe('help quality rules', () => {
  it('catch each kind of offence', () => {
    const io = fakeIO();
    const program = new Command('formctl').description('Root');
    const thing = program.command('thing').description('things.');
    thing.command('list').description('list things').option('--json [fields]').addHelpText('after', '\nExamples:\n  $ formctl thing list --json\n');
    thing.command('get').description('Get a thing').argument('<id>').addHelpText('after', '\nExamples:\n  $ formctl other get 1\n');
    thing.command('rm').description('Remove a thing');
    program.option('--debug', 'Debug');
    applySettings(program, { io: io.io } as Factory);
    // A command whose help hides the inherited block is caught.
    thing.commands.find((c) => c.name() === 'rm')!.configureHelp({ showGlobalOptions: false });
    const entries = collect(program, io);
    expect(rules.description(entries)).toEqual(['formctl thing: "things."', 'formctl thing list: "list things"']);
    expect(rules.described(entries)).toEqual(['formctl thing list --json [fields]', 'formctl thing get <id>']);
    expect(rules.examples(entries)).toEqual(['formctl thing rm']);
    expect(rules.groupExamples(entries)).toEqual(['formctl thing']);
    expect(rules.inherited(entries)).toEqual(['formctl thing rm: (no Inherited flags block)']);
    expect(rules.realInvocations(entries)).toEqual(['formctl thing get: formctl other get 1']);
    expect(rules.jq(entries)).toEqual(['formctl thing']);
  });
});
