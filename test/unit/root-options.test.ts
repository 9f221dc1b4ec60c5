// Moved from test/unit/program.test.ts (targetCommand is now scanArgv's name/helpTopic), plus the flags it reads.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_WAIT_S, DEFAULT_TIMEOUT_S, initialGlobals, scanArgv } from '../../src/root-options.js';
import { fullProgram } from './completion/full-program.js';
import { ROOT_VALUE_FLAGS, groupWord } from '../../src/code-cache-group.js';

describe('scanArgv', () => {
  it('knows which root option takes a value, as program.ts declares them (a global flag is added in both)', async () => {
    const { program } = await fullProgram();
    const roots = program.options.filter((o) => o.long && o.long !== '--version');
    expect(roots.length).toBeGreaterThan(4);
    for (const o of roots) {
      const takesValue = o.required || o.optional;
      // A value that happens to be a group's name must not be taken for the command word.
      const args = takesValue ? [o.long!, 'member', 'form', 'list'] : [o.long!, 'form', 'list'];
      expect(scanArgv(args).name, `${o.long} ${takesValue ? 'takes' : 'takes no'} value`).toBe('form');
    }
  });
  it('skips root options and their values', () => {
    expect(scanArgv(['--profile', 'work', '--debug', 'form', 'list'])).toMatchObject({ name: 'form' });
    expect(scanArgv(['--profile', 'work', '--debug', 'form', 'list']).helpTopic).toBeUndefined();
    expect(scanArgv(['--timeout', '5', 'workspace'])).toMatchObject({ name: 'workspace' });
  });
  it('finds the command a help topic names', () => {
    expect(scanArgv(['help', 'form', 'update'])).toMatchObject({ name: 'help', helpTopic: 'form' });
  });
  it('has no target for bare flags', () => {
    expect(scanArgv(['--version'])).toMatchObject({ name: undefined });
  });
  it('reads the flags that shape output before parsing, anywhere but after --', () => {
    expect(scanArgv(['form', 'list', '--no-color', '--debug'])).toEqual({
      name: 'form',
      debug: true,
      noColor: true,
      noInput: false,
      noPager: false,
      completing: false,
    });
    expect(scanArgv(['--no-input', 'api', '--', '--debug', '--no-pager'])).toEqual({
      name: 'api',
      debug: false,
      noColor: false,
      noInput: true,
      noPager: false,
      completing: false,
    });
    expect(scanArgv(['--no-pager', 'form', 'list']).noPager).toBe(true);
    // A root option's value is not a flag.
    expect(scanArgv(['--profile', '--debug', 'form']).debug).toBe(false);
  });
  it('reads no flags from the words a completion script hands to __complete', () => {
    expect(scanArgv(['__complete', 'form', 'list', '--debug', '--no-input'])).toEqual({
      name: '__complete',
      debug: false,
      noColor: false,
      noInput: false,
      noPager: true,
      completing: true,
    });
    expect(initialGlobals(scanArgv(['__complete', 'form', '']), { FORMCTL_DEBUG: '1' }).debug).toBe(false);
  });
});

describe('initialGlobals', () => {
  it('starts from the root options’ defaults; FORMCTL_DEBUG turns on --debug', () => {
    expect(initialGlobals(scanArgv([]), {})).toEqual({
      debug: false,
      timeoutMs: DEFAULT_TIMEOUT_S * 1000,
      maxWaitMs: DEFAULT_MAX_WAIT_S * 1000,
      noInput: false,
      noColor: false,
    });
    expect(initialGlobals(scanArgv([]), { FORMCTL_DEBUG: 'true' }).debug).toBe(true);
    expect(initialGlobals(scanArgv([]), { FORMCTL_DEBUG: '0' }).debug).toBe(false);
  });
});

describe("groupWord (the code cache loader's command word, src/code-cache-group.ts)", () => {
  it('knows the root options that take a value, as program.ts declares them', async () => {
    const { program } = await fullProgram();
    const valued = program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short].filter((n) => n !== undefined));
    expect([...ROOT_VALUE_FLAGS].sort()).toEqual(valued.sort());
  });
  it('finds the word scanArgv takes for the command, never an option value before it', () => {
    for (const args of [
      ['workspace', 'list', '--json'],
      ['--profile', 'workspace', 'form', 'list'],
      ['--timeout', '5', '--debug', 'submission', 'export', '7'],
      ['--max-wait=3', 'member', 'list'],
      ['--no-color'],
      [],
      ['--', 'form'],
    ]) {
      expect(groupWord(args), args.join(' ')).toBe(scanArgv(args).name);
    }
  });
  it('takes the topic of `help` (the group the CLI loads for it), else `help`', () => {
    for (const args of [
      ['help', 'form'],
      ['help', '--debug', 'form', 'list'],
      ['help', 'exit-codes'],
      ['--profile', 'help', 'help', 'workspace'],
    ]) {
      const scan = scanArgv(args);
      expect(groupWord(args), args.join(' ')).toBe(scan.helpTopic);
    }
    expect(groupWord(['help'])).toBe('help');
    expect(groupWord(['--debug', 'help', '--'])).toBe('help');
  });
  it("takes the completed words' group for __complete", () => {
    expect(groupWord(['__complete', '--profile', 'p', 'form', 'view', ''])).toBe('form');
    expect(groupWord(['__complete', ''])).toBe('');
    expect(groupWord(['__complete'])).toBeUndefined();
  });
});
