// The fixed completion scripts in the real shells. `formctl` is a shell function here: it records
// the words the script hands to `formctl __complete` and prints the answer of the real resolver
// over the real command tree (computed in this process for those words, with a value source that
// records its requests and answers two workspaces).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCompletion, resolveCompletion } from '../../src/completion/resolve.js';
import { COMPLETION_FILES, type Shell, completionScript } from '../../src/completion/scripts.js';
import { fullProgram } from '../unit/completion/full-program.js';
import { describeRequest } from '../unit/completion/words.js';

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
let dir: string;
let program: Command;
const scripts = {} as Record<Shell, string>;

beforeAll(async () => {
  program = (await fullProgram()).program;
  dir = mkdtempSync(join(tmpdir(), 'formctl-compl-'));
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    scripts[shell] = join(dir, COMPLETION_FILES[shell]);
    writeFileSync(scripts[shell], completionScript(shell));
  }
  // Files for file-name completion.
  writeFileSync(join(dir, 'answers.csv'), '');
  writeFileSync(join(dir, 'answers-old.csv'), '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Splits a command line the way bash fills COMP_WORDS: quotes kept together and kept in the word (an
 * unclosed one at the end too), "--flag=value" split at "=".
 */
function bashWords(line: string): string[] {
  const words: string[] = [];
  for (const w of line.match(/"[^"]*"?|'[^']*'?|[^\s"']+/g) ?? []) {
    const m = /^(-[^=]+)=(.*)$/.exec(w);
    if (m) words.push(m[1]!, '=', ...(m[2] ? [m[2]] : []));
    else words.push(w);
  }
  if (/\s$/.test(line)) words.push('');
  return words;
}

const ARGS = () => join(dir, '.args');
const ANSWER = () => join(dir, '.answer');

/**
 * Runs a shell's completion twice: first to learn the words it hands over, then with the resolver's
 * answer for those words. Returns what the shell offers, the words, and the value requests.
 */
async function drive(run: () => string): Promise<{ words: string[]; handed: string[]; calls: string[] }> {
  rmSync(ANSWER(), { force: true });
  writeFileSync(ARGS(), '');
  run();
  const handed = readFileSync(ARGS(), 'utf8').split('\n').slice(0, -1);
  expect(handed[0]).toBe('__complete');
  const calls: string[] = [];
  const answer = await resolveCompletion(program, handed.slice(1), async (req) => {
    calls.push(describeRequest(req));
    return [
      { value: '1', description: 'Acme' },
      { value: '12', description: 'Side project' },
    ];
  });
  writeFileSync(ANSWER(), formatCompletion(answer));
  const words = run().split('\n').filter(Boolean);
  return { words, handed: handed.slice(1), calls };
}

/** `wordbreaks`: a COMP_WORDBREAKS without "=" (some setups remove it): "--flag=value" is then one word. */
function bashComplete(line: string, env: Record<string, string> = {}, o: { wordbreaks?: string } = {}) {
  const script = `
source "${scripts.bash}"
formctl() { printf '%s\\n' "$@" > "${ARGS()}"; [[ -f "${ANSWER()}" ]] && cat "${ANSWER()}"; }
COMP_LINE=$1; COMP_POINT=\${#1}; shift
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
${o.wordbreaks !== undefined ? `COMP_WORDBREAKS=${JSON.stringify(o.wordbreaks)}` : ''}
_formctl
printf '%s\\n' "\${COMPREPLY[@]}"
`;
  return drive(() => {
    const words =
      o.wordbreaks !== undefined && !o.wordbreaks.includes('=') ? [...(line.match(/\S+/g) ?? []), ...(/\s$/.test(line) ? [''] : [])] : bashWords(line);
    const r = spawnSync('bash', ['--norc', '-c', script, 'bash', line, ...words], { encoding: 'utf8', cwd: dir, env: { PATH: process.env.PATH, ...env } });
    expect(r.stderr).toBe('');
    return r.stdout;
  });
}

describe('bash completion', () => {
  it('is a small fixed script that needs nothing but bash (no bash-completion functions)', () => {
    const text = completionScript('bash');
    expect(text.split('\n').length).toBeLessThan(90);
    expect(text).not.toMatch(/_init_completion|_get_comp_words_by_ref|__ltrim_colon_completions/);
    expect(text).toContain('\ncomplete -F _formctl formctl\n');
  });

  it('offers top-level commands, aliases included, and hides __complete', async () => {
    const { words } = await bashComplete('formctl ');
    expect(words).toEqual(expect.arrayContaining(['auth', 'workspace', 'ws', 'form', 'submission', 'member', 'invite', 'webhook', 'completion', 'help']));
    expect(words).not.toContain('__complete');
  });

  it('completes subcommands after an alias and a root option with a value', async () => {
    expect((await bashComplete('formctl --profile work ws d')).words).toEqual(['delete']);
  });

  it('completes flags of the command, root options included', async () => {
    expect((await bashComplete('formctl workspace list --n')).words).toEqual(['--ndjson', '--no-input', '--no-color', '--no-pager']);
  });

  it('completes help topics and commands after formctl help', async () => {
    expect((await bashComplete('formctl help e')).words).toEqual(['environment', 'exit-codes']);
    expect((await bashComplete('formctl help w')).words).toEqual(['workspace', 'webhook']);
  });

  it('completes enum values from the tree', async () => {
    expect((await bashComplete('formctl completion ')).words).toEqual(['bash', 'zsh', 'fish']);
    expect((await bashComplete('formctl completion f')).words).toEqual(['fish']);
  });

  it('asks for workspace ids at a workspace argument, filtering by prefix', async () => {
    const { words, calls, handed } = await bashComplete('formctl workspace delete 1');
    expect(words).toEqual(['1', '12']);
    expect(calls).toEqual(['workspace']);
    expect(handed).toEqual(['workspace', 'delete', '1']);
  });

  it('keeps "--flag=" in front of each value when "=" does not break words (readline then replaces the whole word)', async () => {
    const breaks = ' \t\n"\'><;|&(:';
    const joined = await bashComplete('formctl form list --workspace=1', {}, { wordbreaks: breaks });
    expect(joined.handed).toEqual(['form', 'list', '--workspace=1']);
    expect(joined.words).toEqual(['--workspace=1', '--workspace=12']);
    expect((await bashComplete('formctl completion --profile=', {}, { wordbreaks: breaks })).handed).toEqual(['completion', '--profile=']);
  });

  it('completes -w/--workspace values, also as --workspace=…', async () => {
    expect((await bashComplete('formctl form list -w ')).calls).toEqual(['workspace']);
    const joined = await bashComplete('formctl form list --workspace=1');
    expect(joined.words).toEqual(['1', '12']);
    expect(joined.handed).toEqual(['form', 'list', '--workspace=1']);
  });

  it('passes --profile as context', async () => {
    expect((await bashComplete('formctl --profile work form get ')).calls).toEqual(['form --profile work']);
  });

  it('completes the value after "--flag=" with nothing typed yet (bash\'s word is then "=")', async () => {
    const r = await bashComplete('formctl completion --profile=');
    expect(r.calls).toEqual(['profile']);
    expect(r.handed).toEqual(['completion', '--profile=']);
    expect((await bashComplete('formctl form list --workspace=')).words).toEqual(['1', '12']);
  });

  it('counts a quoted value with spaces as one word', async () => {
    expect((await bashComplete('formctl webhook create --url "http://x/a b" ')).calls).toEqual(['form']);
  });

  it('hands a quoted word over without its quotes, an opening one at the cursor included', async () => {
    const open = await bashComplete('formctl workspace delete "1');
    expect(open.handed).toEqual(['workspace', 'delete', '1']);
    // Readline replaces the text after the opening quote and closes the quote itself: bare values.
    expect(open.words).toEqual(['1', '12']);
    expect((await bashComplete("formctl workspace delete '12")).words).toEqual(['12']);
    expect((await bashComplete('formctl --profile "work" form get ')).calls).toEqual(['form --profile work']);
    expect((await bashComplete('formctl form pull 5 -o "ans')).words.sort()).toEqual(['answers-old.csv', 'answers.csv']);
    const flag = await bashComplete('formctl submission export 5 --output="answers.');
    expect(flag.handed).toEqual(['submission', 'export', '5', '--output=answers.']);
    expect(flag.words).toEqual(['answers.csv']);
    // Where "=" does not break words, readline still replaces only what follows the quote.
    const joined = await bashComplete('formctl form list --workspace="1', {}, { wordbreaks: ' \t\n"\'><;|&(:' });
    expect(joined.handed).toEqual(['form', 'list', '--workspace=1']);
    expect(joined.words).toEqual(['1', '12']);
  });

  it('completes --json fields after a comma, in both forms (a comma breaks no word)', async () => {
    expect((await bashComplete('formctl form list --json id,ti')).words).toEqual(['id,title']);
    const joined = await bashComplete('formctl form list --json=id,ti');
    expect(joined.handed).toEqual(['form', 'list', '--json=id,ti']);
    expect(joined.words).toEqual(['id,title']);
  });

  it('does not treat a flag value as a positional', async () => {
    // "--json id" is one option with its value, so the cursor is still at <form>.
    expect((await bashComplete('formctl form get --json id ')).calls).toEqual(['form']);
  });

  it('offers nothing after the last positional and never asks for ids for static words', async () => {
    const r = await bashComplete('formctl completion bash ');
    expect({ words: r.words, calls: r.calls }).toEqual({ words: [], calls: [] });
  });

  it('completes file names where a file is declared, also after "--flag="', async () => {
    expect((await bashComplete('formctl form pull 5 -o ans')).words.sort()).toEqual(['answers-old.csv', 'answers.csv']);
    expect((await bashComplete('formctl submission export 5 --output=answers.')).words).toEqual(['answers.csv']);
    expect((await bashComplete('formctl webhook listen --save-dir ans')).words).toEqual([]);
  });

  it('shows descriptions beside the ids when readline lists several (Tab, Tab Tab), and inserts a single one bare', async () => {
    expect((await bashComplete('formctl workspace use ', { COMP_TYPE: '63' })).words).toEqual(['1   (Acme)', '12  (Side project)']);
    expect((await bashComplete('formctl workspace use ', { COMP_TYPE: '9' })).words).toEqual(['1   (Acme)', '12  (Side project)']);
    expect((await bashComplete('formctl workspace use 12', { COMP_TYPE: '9' })).words).toEqual(['12']);
    // menu-complete (%) inserts the candidates one by one: never a description.
    expect((await bashComplete('formctl workspace use ', { COMP_TYPE: '37' })).words).toEqual(['1', '12']);
    // Narrow terminals: an entry is cut to the width.
    const narrow = await bashComplete('formctl workspace d', { COMP_TYPE: '63', COLUMNS: '30' });
    expect(narrow.words).toEqual(['delete']);
    const cut = await bashComplete('formctl ws ', { COMP_TYPE: '63', COLUMNS: '30' });
    for (const w of cut.words) expect(w.length).toBeLessThanOrEqual(28);
    expect(cut.words).toContainEqual(expect.stringMatching(/^create +\(.*\.\.\.\)$/));
  });

  it('ignores an answer without a directive line (an older formctl on PATH)', () => {
    const script = `source "${scripts.bash}"; formctl() { printf 'auth\\nform\\n'; }; COMP_WORDS=(formctl ''); COMP_CWORD=1; _formctl; echo "\${#COMPREPLY[@]}"`;
    expect(spawnSync('bash', ['--norc', '-c', script], { encoding: 'utf8' }).stdout).toBe('0\n');
  });
});

describe.skipIf(!has('fish'))('fish completion', () => {
  function fishComplete(line: string) {
    const script = `source ${scripts.fish}; function formctl; printf '%s\\n' $argv > ${ARGS()}; test -f ${ANSWER()}; and cat ${ANSWER()}; end; complete -C '${line}'`;
    return drive(() => {
      const r = spawnSync('fish', ['--no-config', '-c', script], { encoding: 'utf8', cwd: dir });
      expect(r.stderr).toBe('');
      return r.stdout;
    });
  }

  it('offers subcommands with their descriptions', async () => {
    expect((await fishComplete('formctl workspace d')).words).toEqual(['delete\tDelete a workspace and everything in it (admins only)']);
  });

  it('completes enum values and dynamic ids with descriptions', async () => {
    expect((await fishComplete('formctl completion ')).words).toEqual(['bash', 'fish', 'zsh']);
    const ids = await fishComplete('formctl workspace use ');
    expect(ids.words).toEqual(['1\tAcme', '12\tSide project']);
    expect(ids.handed).toEqual(['workspace', 'use', '']);
  });

  it('completes "--flag=" values with the flag in front, and file names', async () => {
    expect((await fishComplete('formctl form list --workspace=1')).words).toEqual(['--workspace=1\tAcme', '--workspace=12\tSide project']);
    expect((await fishComplete('formctl form pull 5 -o answers.')).words).toEqual(['answers.csv']);
  });

  it('completes --json fields after a comma, with "--json=" in front in that form', async () => {
    expect((await fishComplete('formctl form list --json id,ti')).words).toEqual(['id,title']);
    expect((await fishComplete('formctl form list --json=id,ti')).words).toEqual(['--json=id,title']);
  });

  it('hands a quoted word at the cursor over without its quotes, so it completes as the unquoted one does', async () => {
    // fish matches the candidates against the word without its quotes: formctl must get that text too.
    const double = await fishComplete('formctl config get "ba');
    expect(double.handed).toEqual(['config', 'get', 'ba']);
    expect(double.words).toEqual(['base_url']);
    const single = await fishComplete("formctl workspace use \\'1");
    expect(single.handed).toEqual(['workspace', 'use', '1']);
    expect(single.words).toEqual(['1\tAcme', '12\tSide project']);
    const flag = await fishComplete("formctl form list --visibility=\\'pu");
    expect(flag.handed).toEqual(['form', 'list', '--visibility=pu']);
    expect(flag.words).toEqual(['--visibility=public']);
    expect((await fishComplete('formctl form pull 5 -o "answers.')).words).toEqual(['answers.csv']);
  });
});

describe.skipIf(!has('zsh'))('zsh completion', () => {
  it('is valid zsh', () => {
    const r = spawnSync('zsh', ['-n', scripts.zsh], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
