import { afterAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';

const home = tempHome();
afterAll(() => home.cleanup());
const run = (...args: string[]) => runFormctl(args, { env: home.env });

describe('help topics', () => {
  it('formctl help environment lists every variable formctl reads', async () => {
    const r = await run('help', 'environment');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toBe('Environment variables:');
    for (const name of ['FORMCTL_TOKEN', 'FORMCTL_BASE_URL', 'FORMCTL_PROFILE', 'FORMCTL_CONFIG_DIR', 'FORMCTL_CACHE_DIR', 'NO_COLOR', 'CI', 'HOME']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    }
  });

  it('formctl help exit-codes lists the documented codes', async () => {
    const r = await run('help', 'exit-codes');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}0 +Success$/m);
    expect(r.stdout).toMatch(/^ {2}2 +Usage error/m);
    expect(r.stdout).toMatch(/^ {2}10 +Partial failure/m);
    expect(r.stdout).toMatch(/^ {2}129 +Stopped by SIGHUP/m);
    expect(r.stdout).toMatch(/^ {2}130 +Interrupted \(Ctrl-C\)$/m);
    expect(r.stdout).toMatch(/^ {2}143 +Stopped by SIGTERM/m);
  });

  it("formctl help <command> shows that command's help with examples", async () => {
    const r = await run('help', 'workspace', 'list');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: formctl workspace list|ls [options]');
    expect(r.stdout).toMatch(/Examples:\n {2}\$ formctl workspace list\n/);
  });

  it('subcommand and group help list the root flags under "Inherited flags:", as gh does; groups have Examples', async () => {
    for (const args of [
      ['workspace', 'list', '--help'],
      ['workspace', '--help'],
      ['help', 'form', 'delete'],
    ]) {
      const r = await run(...args);
      expect(r.code).toBe(0);
      const block = /\nInherited flags:\n((?: {2}.*\n)+)/.exec(r.stdout)?.[1] ?? '';
      for (const flag of ['--profile <name>', '--debug', '--timeout <seconds>', '--max-wait <seconds>', '--no-input', '--no-color'])
        expect(block).toContain(`  ${flag}`);
      expect(block).not.toContain('--version');
    }
    const group = await run('workspace', '--help');
    expect(group.stdout).toMatch(/\nExamples:\n {2}\$ formctl workspace list\n/);
    const root = await run('--help');
    expect(root.stdout).not.toContain('Inherited flags:');
  });

  it('`view` is an alias of `get` for forms and webhooks', async () => {
    expect((await run('form', 'view', '--help')).stdout).toContain('Usage: formctl form get|view [options] [form]');
    expect((await run('webhook', 'view', '--help')).stdout).toContain('Usage: formctl webhook get|view [options]');
  });

  it('an unknown help topic is a usage error naming the topics', async () => {
    const r = await run('help', 'nonsense');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: No help topic or command "nonsense".\nhint: Topics: environment, exit-codes. Commands: see `formctl --help`.\n');
  });
});

describe('suggestions', () => {
  it('an unknown command suggests the nearest one, exit 2', async () => {
    const r = await run('workspce', 'list');
    expect(r).toEqual({ code: 2, stdout: '', stderr: "error: unknown command 'workspce'\n(Did you mean workspace?)\nhint: see `formctl --help`\n" });
  });

  it('an unknown subcommand suggests the nearest ones, exit 2', async () => {
    const r = await run('workspace', 'lst');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: unknown command 'lst'\n(Did you mean one of list, ls?)\nhint: see `formctl workspace --help`\n");
  });

  it('an unknown flag suggests the nearest one, exit 2', async () => {
    const r = await run('workspace', 'list', '--jsn');
    expect(r).toEqual({ code: 2, stdout: '', stderr: "error: unknown option '--jsn'\n(Did you mean --json?)\nhint: see `formctl workspace list --help`\n" });
  });

  it('a root flag typo suggests the root flag', async () => {
    const r = await run('--profle', 'x', 'workspace', 'list');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(Did you mean --profile?)');
  });
});

describe('group help', () => {
  it('a group named without a verb prints its help on stdout, exit 0, as `gh repo` does', async () => {
    for (const group of ['form', 'workspace', 'webhook']) {
      const r = await run(group);
      expect(r.code, group).toBe(0);
      expect(r.stderr, group).toBe('');
      expect(r.stdout).toBe((await run(group, '--help')).stdout);
    }
  });
});

describe('top-level help', () => {
  it('formctl with no arguments lists every command group and the topics', async () => {
    const r = await run();
    expect(r.code).toBe(0);
    for (const group of ['auth', 'profile', 'workspace|ws', 'form', 'submission', 'member', 'invite', 'webhook', 'api', 'config', 'completion', 'sandbox']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${group.replace('|', '\\|')}\\b`, 'm'));
    }
    expect(r.stdout).not.toContain('__complete');
    expect(r.stdout).toContain('formctl help exit-codes');
  });
});
