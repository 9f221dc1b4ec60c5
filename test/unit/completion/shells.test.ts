import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCompletion } from '../../../src/completion/index.js';
import { fullProgram } from './full-program.js';

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
let dir: string;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  const { program } = await fullProgram();
  dir = mkdtempSync(join(tmpdir(), 'formctl-compl-'));
  for (const [shell, name] of [['bash', 'formctl.bash'], ['zsh', '_formctl'], ['fish', 'formctl.fish']] as const) {
    scripts[shell] = join(dir, name);
    writeFileSync(scripts[shell]!, generateCompletion(shell, program));
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Splits a command line the way bash fills COMP_WORDS: quotes kept together, "--flag=value" split at "=". */
function bashWords(line: string): string[] {
  const words: string[] = [];
  for (const w of line.match(/"[^"]*"|[^\s"]+/g) ?? []) {
    const m = /^(-[^=]+)=(.*)$/.exec(w);
    if (m) words.push(m[1]!, '=', ...(m[2] ? [m[2]] : []));
    else words.push(w);
  }
  if (/\s$/.test(line)) words.push('');
  return words;
}

/**
 * Runs the bash completion for a command line (cursor at the end) with `formctl` replaced by a
 * function that logs its arguments and answers like `formctl __complete`.
 */
function bashComplete(line: string, scriptFile = scripts.bash!): { words: string[]; calls: string[] } {
  const log = join(dir, 'calls.log');
  writeFileSync(log, '');
  const script = `
source "${scriptFile}"
formctl() { echo "$*" >> "${log}"; printf '1\\tAcme\\n12\\tSide project\\n'; }
COMP_LINE=$1; COMP_POINT=\${#1}; shift
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
_formctl
printf '%s\\n' "\${COMPREPLY[@]}"
`;
  const r = spawnSync('bash', ['--norc', '-c', script, 'bash', line, ...bashWords(line)], { encoding: 'utf8', cwd: dir });
  expect(r.stderr).toBe('');
  const calls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { words: r.stdout.split('\n').filter(Boolean), calls };
}

describe('bash completion', () => {
  it('offers top-level commands, aliases included, and hides __complete', () => {
    const { words } = bashComplete('formctl ');
    expect(words).toEqual(expect.arrayContaining(['auth', 'workspace', 'ws', 'form', 'submission', 'member', 'invite', 'webhook', 'completion', 'help']));
    expect(words).not.toContain('__complete');
  });

  it('completes subcommands after an alias and a root option with a value', () => {
    expect(bashComplete('formctl --profile work ws d').words).toEqual(['delete']);
  });

  it('completes flags of the command, root options included', () => {
    expect(bashComplete('formctl workspace list --n').words).toEqual(['--ndjson', '--no-input', '--no-color']);
  });

  it('completes help topics and commands after formctl help', () => {
    expect(bashComplete('formctl help e').words).toEqual(['environment', 'exit-codes']);
    expect(bashComplete('formctl help w').words).toEqual(['workspace', 'webhook']);
  });

  it('completes enum values from the tree', () => {
    expect(bashComplete('formctl completion ').words).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete('formctl completion f').words).toEqual(['fish']);
  });

  it('asks __complete for workspace ids at a workspace argument, filtering by prefix', () => {
    const { words, calls } = bashComplete('formctl workspace delete 1');
    expect(words).toEqual(['1', '12']);
    expect(calls).toEqual(['__complete workspaces']);
  });

  it('completes -w/--workspace values, also as --workspace=…', () => {
    expect(bashComplete('formctl form list -w ').calls).toEqual(['__complete workspaces']);
    expect(bashComplete('formctl form list --workspace=1').words).toEqual(['1', '12']);
  });

  it('passes --profile as context', () => {
    expect(bashComplete('formctl --profile work form get ').calls).toEqual(['__complete forms --profile work']);
  });

  it('passes the -w value and the <form> argument as context (synthetic tree)', () => {
    const program = new Command('formctl').option('--profile <name>');
    const hook = program.command('hook');
    hook.command('update').argument('<form>').argument('<integration>').option('-w, --workspace <id>').option('--json [fields]');
    hook.command('list').option('-w, --workspace <id>').option('--form <id>');
    const file = join(dir, 'synthetic.bash');
    writeFileSync(file, generateCompletion('bash', program));
    expect(bashComplete('formctl hook update -w 12 ', file).calls).toEqual(['__complete forms --workspace 12']);
    expect(bashComplete('formctl hook update --json id 7 ', file).calls).toEqual(['__complete integrations --form 7']);
    expect(bashComplete('formctl hook list --form=9 -w ', file).calls).toEqual(['__complete workspaces --form 9']);
  });

  it('completes the value after "--flag=" with nothing typed yet (bash\'s word is then "=")', () => {
    expect(bashComplete('formctl completion --profile=').calls).toEqual(['__complete profiles']);
    expect(bashComplete('formctl form list --workspace=').words).toEqual(['1', '12']);
  });

  it('counts a quoted value with spaces as one word', () => {
    const program = new Command('formctl');
    program.command('hook').command('get').argument('<form>').argument('<integration>').option('--title <t>');
    const file = join(dir, 'quoted.bash');
    writeFileSync(file, generateCompletion('bash', program));
    expect(bashComplete('formctl hook get --title "Contact us" ', file).calls).toEqual(['__complete forms']);
  });

  it('does not treat a flag value as a positional', () => {
    // "--json id" is one option with its value, so the cursor is still at <form>.
    expect(bashComplete('formctl form get --json id ').calls).toEqual(['__complete forms']);
  });

  it('offers nothing after the last positional and never calls formctl for static words', () => {
    expect(bashComplete('formctl completion bash ')).toEqual({ words: [], calls: [] });
  });
});

describe.skipIf(!has('fish'))('fish completion', () => {
  function fishComplete(line: string): string[] {
    const script = `source ${scripts.fish}; function formctl; printf '1\\tAcme\\n12\\tSide project\\n'; end; complete -C '${line}'`;
    const r = spawnSync('fish', ['--no-config', '-c', script], { encoding: 'utf8', cwd: dir });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean);
  }

  it('offers subcommands with their descriptions', () => {
    expect(fishComplete('formctl workspace d')).toEqual(['delete\tDelete a workspace and everything in it (admins only)']);
  });

  it('completes enum values and dynamic ids with descriptions', () => {
    expect(fishComplete('formctl completion ')).toEqual(['bash', 'fish', 'zsh']);
    expect(fishComplete('formctl workspace use ')).toEqual(['1\tAcme', '12\tSide project']);
  });
});

describe.skipIf(!has('zsh'))('zsh completion', () => {
  it('is valid zsh', () => {
    const r = spawnSync('zsh', ['-n', scripts.zsh!], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
