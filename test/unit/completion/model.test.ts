import { Argument, Command, Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { describeProgram, encodeValues, inferValues } from '../../../src/completion/model.js';
import { fullProgram } from './full-program.js';

describe('describeProgram', () => {
  it('keeps commands, aliases, options, arguments and choices, and drops hidden things', () => {
    const program = new Command('x').option('--profile <name>', 'Profile').option('--debug', 'Debug');
    const ws = program.command('workspace').alias('ws').description('Workspaces');
    ws.command('delete')
      .alias('rm')
      .description('Delete one')
      .argument('<id>')
      .option('-y, --yes', 'Skip confirmation')
      .addOption(new Option('--secret-flag').hideHelp());
    program.command('member').command('add').argument('<email>').addOption(new Option('--role <role>').choices(['admin', 'editor', 'readonly']));
    program.addCommand(new Command('__complete'), { hidden: true });

    const spec = describeProgram(program);
    expect(spec.commands.map((c) => c.name)).toEqual(['workspace', 'member']);
    const del = spec.commands[0]!.commands[0]!;
    expect(del).toMatchObject({ name: 'delete', path: ['workspace', 'delete'], aliases: ['rm'], description: 'Delete one' });
    expect(del.args).toEqual([{ name: 'id', required: true, variadic: false, values: { kind: 'dynamic', source: 'workspaces' } }]);
    expect(del.options.map((o) => [o.flags.join(','), o.value, Boolean(o.inherited)])).toEqual([
      ['-y,--yes', 'none', false],
      ['-h,--help', 'none', false],
      ['--profile', 'required', true],
      ['--debug', 'none', true],
    ]);
    const add = spec.commands[1]!.commands[0]!;
    expect(add.options[0]).toMatchObject({ flags: ['--role'], values: { kind: 'choices', values: ['admin', 'editor', 'readonly'] } });
  });

  it('infers dynamic sources and files from names', () => {
    expect(inferValues('form', {})).toEqual({ kind: 'dynamic', source: 'forms' });
    expect(inferValues('formId', {})).toEqual({ kind: 'dynamic', source: 'forms' });
    expect(inferValues('integration', {})).toEqual({ kind: 'dynamic', source: 'integrations' });
    expect(inferValues('id', { group: 'webhook' })).toEqual({ kind: 'dynamic', source: 'integrations' });
    expect(inferValues('id', { optionLong: '--workspace' })).toEqual({ kind: 'dynamic', source: 'workspaces' });
    expect(inferValues('file', { optionLong: '--output' })).toEqual({ kind: 'file' });
    expect(inferValues('email', { group: 'member' })).toEqual({ kind: 'none' });
    expect(encodeValues({ kind: 'choices', values: ['a', 'b c', 'd'] })).toBe('choices:a,d');
  });

  it('takes argument choices (formctl completion <shell>)', () => {
    const p = new Command('x');
    p.command('completion').addArgument(new Argument('<shell>').choices(['bash', 'zsh']));
    expect(describeProgram(p).commands[0]!.args[0]!.values).toEqual({ kind: 'choices', values: ['bash', 'zsh'] });
  });

  it('reaches every registered top-level command of the real tree except the hidden one', async () => {
    const { program } = await fullProgram();
    const { COMMANDS } = await import('../../../src/commands/registry.js');
    const names = describeProgram(program).commands.map((c) => c.name);
    expect(names).toEqual([...COMMANDS.filter((c) => !c.hidden).map((c) => c.name), 'help']);
  });
});
