// The completion resolver over injected Commander trees and over the real one. These take over the
// assertions of the former model tests (the generated scripts' data) and of the bash-script tests
// that were about parsing the line; test/e2e/completion-shells.test.ts drives the real shells.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Argument, Command, type CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { completes } from '../../../src/completion/kinds.js';
import { type Completion, Directive, formatCompletion, matchingChoices, resolveCompletion } from '../../../src/completion/resolve.js';
import { ROOT } from '../../helpers/cli.js';
import { fullProgram } from './full-program.js';
import { describeRequest, wordsOf } from './words.js';

async function complete(program: CommandUnknownOpts, line: string): Promise<{ values: string[]; calls: string[]; completion: Completion }> {
  const calls: string[] = [];
  const completion = await resolveCompletion(program, wordsOf(line), async (req) => {
    calls.push(describeRequest(req));
    return [
      { value: '1', description: 'Acme' },
      { value: '12', description: 'Side project' },
    ];
  });
  return { values: completion.candidates.map((c) => c.value), calls, completion };
}

/** A small tree with declared kinds, like the real one. */
function synthetic(): CommandUnknownOpts {
  const program = new Command('formctl')
    .addOption(completes(new Option('--profile <name>', 'Profile'), 'profile'))
    .option('--debug', 'Debug')
    .version('1.0.0', '-v, --version');
  const ws = program.command('workspace').alias('ws').description('Workspaces\nmore text');
  ws.command('delete')
    .alias('rm')
    .description('Delete one')
    .addArgument(completes(new Argument('<id>', 'Workspace id'), 'workspace'))
    .option('-y, --yes', 'Skip confirmation')
    .addOption(new Option('--secret-flag').hideHelp());
  ws.command('list').description('List').option('--ndjson', 'NDJSON').option('--json [fields]', 'JSON');
  program
    .command('member')
    .command('add')
    .argument('<email>')
    .addOption(new Option('--role <role>', 'Role').choices(['admin', 'editor', 'readonly', 'not plain']));
  const hook = program.command('hook');
  hook
    .command('update')
    .addArgument(completes(new Argument('<form>'), 'form'))
    .addArgument(completes(new Argument('<integration>'), 'webhook'))
    .addOption(completes(new Option('-w, --workspace <id>'), 'workspace'))
    .option('--json [fields]')
    .option('--title <t>');
  hook
    .command('list')
    .addOption(completes(new Option('-w, --workspace <id>'), 'workspace'))
    .addOption(completes(new Option('--form <id>'), 'form'));
  hook
    .command('save')
    .addOption(completes(new Option('-o, --output <file>'), 'file'))
    .addOption(completes(new Option('--dir <dir>'), 'directory'))
    .argument('<plain>');
  program.command('completion').addArgument(new Argument('<shell>').choices(['bash', 'zsh', 'fish']));
  program.addCommand(new Command('secret-cmd'), { hidden: true });
  program.command('help').addArgument(completes(new Argument('[topic...]'), { words: ['environment', 'exit-codes'], commands: true }));
  return program;
}

describe('resolveCompletion on an injected tree', () => {
  it('offers commands with aliases and first-line descriptions, and leaves hidden commands out', async () => {
    const { completion } = await complete(synthetic(), 'formctl ');
    expect(completion.candidates.slice(0, 2)).toEqual([
      { value: 'workspace', description: 'Workspaces' },
      { value: 'ws', description: 'Workspaces' },
    ]);
    expect(completion.candidates.map((c) => c.value)).toEqual(['workspace', 'ws', 'member', 'hook', 'completion', 'help']);
    expect(completion.directive).toBe(Directive.none);
  });

  it('follows an alias and skips a root option with its value', async () => {
    expect((await complete(synthetic(), 'formctl --profile work ws d')).values).toEqual(['delete']);
    expect((await complete(synthetic(), 'formctl ws r')).completion.candidates).toEqual([{ value: 'rm', description: 'Delete one' }]);
  });

  it("offers the command's visible options, help included, then the root options it inherits (never --version or hidden ones)", async () => {
    const { values } = await complete(synthetic(), 'formctl ws delete -');
    expect(values).toEqual(['-y', '--yes', '-h', '--help', '--profile', '--debug']);
    expect((await complete(synthetic(), 'formctl workspace list --n')).values).toEqual(['--ndjson']);
  });

  it('completes Commander choices, plain words only, by prefix', async () => {
    expect((await complete(synthetic(), 'formctl member add x@y --role ')).values).toEqual(['admin', 'editor', 'readonly']);
    expect((await complete(synthetic(), 'formctl member add --role=e')).values).toEqual(['editor']);
    expect((await complete(synthetic(), 'formctl completion ')).values).toEqual(['bash', 'zsh', 'fish']);
    expect((await complete(synthetic(), 'formctl completion f')).values).toEqual(['fish']);
  });

  it('matches choices in any letter case only when none matches in the typed one', () => {
    expect(matchingChoices(['GET', 'POST', 'PUT', 'get-all'], 'p').map((c) => c.value)).toEqual(['POST', 'PUT']);
    expect(matchingChoices(['GET', 'POST', 'PUT', 'get-all'], 'g').map((c) => c.value)).toEqual(['get-all']);
    expect(matchingChoices(['GET', 'POST', 'PUT', 'get-all'], 'G').map((c) => c.value)).toEqual(['GET']);
    expect(matchingChoices(['GET', 'POST'], 'x').map((c) => c.value)).toEqual([]);
  });

  it('asks the value source for a declared dynamic kind and filters by prefix', async () => {
    expect(await complete(synthetic(), 'formctl workspace delete 1')).toMatchObject({ values: ['1', '12'], calls: ['workspace'] });
    expect(await complete(synthetic(), 'formctl ws delete 12')).toMatchObject({ values: ['12'], calls: ['workspace'] });
  });

  it('completes -w/--workspace values, also as --workspace=… and -w=…', async () => {
    expect((await complete(synthetic(), 'formctl hook list -w ')).calls).toEqual(['workspace']);
    expect((await complete(synthetic(), 'formctl hook list --workspace=1')).values).toEqual(['1', '12']);
    expect((await complete(synthetic(), 'formctl hook list --workspace=')).values).toEqual(['1', '12']);
  });

  it('passes the profile, the -w value and the <form> argument as context', async () => {
    expect((await complete(synthetic(), 'formctl --profile work hook update ')).calls).toEqual(['form --profile work']);
    expect((await complete(synthetic(), 'formctl hook update -w 12 ')).calls).toEqual(['form --workspace 12']);
    expect((await complete(synthetic(), 'formctl hook update -w12 ')).calls).toEqual(['form --workspace 12']);
    expect((await complete(synthetic(), 'formctl hook update --json id 7 ')).calls).toEqual(['webhook --form 7']);
    expect((await complete(synthetic(), 'formctl hook list --form=9 -w ')).calls).toEqual(['workspace --form 9']);
    expect((await complete(synthetic(), 'formctl --profile=work completion --profile ')).calls).toEqual(['profile --profile work']);
  });

  it('does not take a flag value for a positional; an optional value only when it is not an option', async () => {
    expect((await complete(synthetic(), 'formctl hook update --title "Contact us" ')).calls).toEqual(['form']);
    expect((await complete(synthetic(), 'formctl hook update --json id ')).calls).toEqual(['form']);
    expect((await complete(synthetic(), 'formctl hook update --json -w 3 ')).calls).toEqual(['form --workspace 3']);
    // After an optional value's flag, a word starting with "-" is an option again.
    expect((await complete(synthetic(), 'formctl hook update --json --t')).values).toEqual(['--title']);
  });

  it('asks the shell for file or directory names where they are declared, and nothing where nothing is', async () => {
    expect((await complete(synthetic(), 'formctl hook save -o ')).completion).toEqual({ candidates: [], directive: Directive.files });
    expect((await complete(synthetic(), 'formctl hook save --output=./x')).completion).toEqual({ candidates: [], directive: Directive.files });
    expect((await complete(synthetic(), 'formctl hook save --dir ')).completion).toEqual({ candidates: [], directive: Directive.directories });
    expect((await complete(synthetic(), 'formctl hook save ')).completion).toEqual({ candidates: [], directive: Directive.none });
    expect((await complete(synthetic(), 'formctl member add ')).completion).toEqual({ candidates: [], directive: Directive.none });
  });

  it('offers nothing after the last positional and never asks the source for static words', async () => {
    expect(await complete(synthetic(), 'formctl completion bash ')).toMatchObject({ values: [], calls: [] });
    expect(await complete(synthetic(), 'formctl ws delete 12 ')).toMatchObject({ values: [], calls: [] });
    expect(await complete(synthetic(), 'formctl nonsense ')).toMatchObject({ values: [], calls: [] });
  });

  it('completes help topics, then command names one level per word, never itself', async () => {
    expect((await complete(synthetic(), 'formctl help ')).values).toEqual(['environment', 'exit-codes', 'workspace', 'member', 'hook', 'completion']);
    expect((await complete(synthetic(), 'formctl help ws ')).values).toEqual(['delete', 'list']);
    expect((await complete(synthetic(), 'formctl help hook l')).values).toEqual(['list']);
  });

  it('prints candidates as value<TAB>description lines and the directive last, with control characters blanked', () => {
    expect(formatCompletion({ candidates: [{ value: '1', description: 'Acme\x1b[2J' }, { value: 'x' }, { value: '' }], directive: 0 })).toBe(
      '1\tAcme [2J\nx\n:0\n',
    );
    expect(formatCompletion({ candidates: [], directive: Directive.files })).toBe(':1\n');
  });
});

describe('resolveCompletion on the real tree', () => {
  it('reaches every registered top-level command, with the help command last', async () => {
    const { program } = await fullProgram();
    const { COMMANDS } = await import('../../../src/commands/registry.js');
    const { completion } = await complete(program, 'formctl ');
    const names = completion.candidates.map((c) => c.value).filter((v) => !COMMANDS.some((c) => c.aliases?.includes(v)));
    expect(names).toEqual([...COMMANDS.filter((c) => !c.hidden).map((c) => c.name), 'help']);
  });

  it('knows the declared kinds: workspace, form and webhook ids, profiles, files, directories', async () => {
    const { program } = await fullProgram();
    expect((await complete(program, 'formctl workspace use ')).calls).toEqual(['workspace']);
    expect((await complete(program, 'formctl form list -w ')).calls).toEqual(['workspace']);
    expect((await complete(program, 'formctl form get -w 3 ')).calls).toEqual(['form --workspace 3']);
    expect((await complete(program, 'formctl webhook get 5 ')).calls).toEqual(['webhook --form 5']);
    expect((await complete(program, 'formctl submission export-status ')).calls).toEqual(['form']);
    expect((await complete(program, 'formctl submission g')).values).toEqual(['get']);
    expect((await complete(program, 'formctl submission get ')).calls).toEqual(['form']);
    expect((await complete(program, 'formctl submission get 5 1 --json=da')).values).toEqual(['data']);
    expect((await complete(program, 'formctl webhook send http://x --form ')).calls).toEqual(['form']);
    expect((await complete(program, 'formctl profile use ')).calls).toEqual(['profile']);
    expect((await complete(program, 'formctl --profile ')).calls).toEqual(['profile']);
    for (const line of [
      'formctl form pull 5 -o ',
      'formctl form apply -f ',
      'formctl submission export 5 --output=',
      'formctl webhook verify --body-file ',
      'formctl sandbox --data ',
      'formctl form restore 5 --backup ',
    ]) {
      expect((await complete(program, line)).completion.directive, line).toBe(Directive.files);
    }
    expect((await complete(program, 'formctl webhook listen --save-dir ')).completion.directive).toBe(Directive.directories);
    // Nothing is guessed from a name: <path> of `formctl api` is not a file, --data of `webhook trigger` is field=value.
    expect((await complete(program, 'formctl api ')).completion).toEqual({ candidates: [], directive: Directive.none });
    expect((await complete(program, 'formctl webhook trigger 5 --data ')).completion).toEqual({ candidates: [], directive: Directive.none });
    expect((await complete(program, 'formctl member add x@y --role ')).values).toEqual(['admin', 'user', 'readonly']);
  });

  it('completes the fields of --json, each once, as --json <Tab>, --json=<Tab> and after a comma', async () => {
    const { program } = await fullProgram();
    const { FORM_SUMMARY_FIELDS } = await import('../../../src/commands/form/shared.js');
    expect((await complete(program, 'formctl form list --json ')).values).toEqual([...FORM_SUMMARY_FIELDS]);
    expect((await complete(program, 'formctl form list --json=sl')).values).toEqual(['slug']);
    const next = await complete(program, 'formctl form list --json id,ti');
    expect(next.values).toEqual(['id,title']);
    // No space after the value: the list may go on with a comma.
    expect(next.completion.directive).toBe(Directive.noSpace);
    expect((await complete(program, 'formctl form list --json=id,')).values).toEqual(FORM_SUMMARY_FIELDS.filter((f) => f !== 'id').map((f) => `id,${f}`));
    expect((await complete(program, 'formctl form list --json id,slug,')).values).not.toContain('id,slug,id');
    expect((await complete(program, 'formctl form list --json id,slug,')).values).not.toContain('id,slug,slug');
    expect((await complete(program, 'formctl submission export-status 5 j --json=job_id,st')).values).toEqual(['job_id,status']);
    // The word after a bare --json is its value (Commander reads `--json 42` as the fields "42"):
    // only fields there, never the form ids of the [form] slot, and no request.
    const get = await complete(program, 'formctl form get --json ');
    expect(get.calls).toEqual([]);
    expect(get.values).toContain('title');
    // An option, or a word after the fields, is not the value.
    expect((await complete(program, 'formctl form get --json --w')).values).toEqual(['--workspace']);
    expect((await complete(program, 'formctl form get --json id,title ')).calls).toEqual(['form']);
    expect((await complete(program, 'formctl form list --json nope,')).values).toEqual(FORM_SUMMARY_FIELDS.map((f) => `nope,${f}`));
  });

  it('completes at every --json [fields] in the tree exactly the fields its help names', async () => {
    const { program } = await fullProgram();
    const walk = (c: CommandUnknownOpts, path: string[]): [string[], CommandUnknownOpts][] => [
      [path, c],
      ...c.commands.map((s) => walk(s, [...path, s.name()])).flat(),
    ];
    let seen = 0;
    for (const [path, cmd] of walk(program, [])) {
      const json = cmd.options.find((o) => o.flags === '--json [fields]');
      if (!json) continue;
      seen++;
      const named = /\(fields: ([^;)]+)/.exec(json.description)?.[1]?.split(', ');
      expect(named, path.join(' ')).toBeDefined();
      const line = ['formctl', ...path, ...cmd.registeredArguments.filter((a) => a.required).map(() => '7'), '--json', ''].join(' ');
      expect((await complete(program, line)).values, line).toEqual(named);
    }
    expect(seen).toBeGreaterThan(20);
  });

  it("completes the keys of config get and config set, and nothing at set's value", async () => {
    const { program } = await fullProgram();
    expect((await complete(program, 'formctl config get ')).values).toEqual(['base_url', 'workspace']);
    expect((await complete(program, 'formctl config set w')).values).toEqual(['workspace']);
    expect((await complete(program, 'formctl config set workspace ')).completion).toEqual({ candidates: [], directive: Directive.none });
  });
});

describe('layering', () => {
  it('src/completion imports neither commands, the program, main nor the Factory: it is handed the tree', () => {
    const dir = join(ROOT, 'src', 'completion');
    const offenders = readdirSync(dir).flatMap((name) =>
      [...readFileSync(join(dir, name), 'utf8').matchAll(/from '([^']+)'/g)]
        .map((m) => m[1]!)
        .filter((spec) => /^\.\.\/(commands|program|main|factory)(\/|\.js)/.test(spec))
        .map((spec) => `${name}: ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});
