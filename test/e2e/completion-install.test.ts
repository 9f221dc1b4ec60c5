// `formctl completion --help` tells people how to install the scripts. Its lines must work as
// written for an ordinary user: in a fresh home (no ~/.local/share/bash-completion yet, no ~/.zfunc)
// and without root (a directory such as /usr/local/share/zsh/site-functions is not theirs to write).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import newCompletionCommand from '../../src/commands/completion/index.js';
import type { Factory } from '../../src/factory.js';

const homes: string[] = [];
afterEach(() => {
  for (const d of homes.splice(0)) rmSync(d, { recursive: true, force: true });
});

function helpText(): string {
  let out = '';
  const cmd = newCompletionCommand({} as Factory);
  cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  cmd.outputHelp();
  return out;
}

/** The example commands of the help, without their "$ ". */
function installLines(): string[] {
  return helpText()
    .split('\n')
    .filter((l) => l.startsWith('  $ '))
    .map((l) => l.slice(4));
}

describe('formctl completion --help', () => {
  it('writes only under ~ (no root needed)', () => {
    const targets = installLines().flatMap((l) => [...l.matchAll(/>>?\s*("[^"]*"|\S+)/g)].map((m) => m[1]!));
    expect(targets.length).toBeGreaterThanOrEqual(4);
    expect(targets.filter((t) => !t.startsWith('~/'))).toEqual([]);
  });

  it.skipIf(spawnSync('bash', ['-c', 'exit 0']).status !== 0)('its lines run as written in a fresh home and leave a script where each shell looks', () => {
    const lines = installLines();
    // Checked first: a line writing outside ~ is not run (it could write to / as root).
    if (lines.some((l) => /> *"?\$\{?fpath/.test(l))) throw new Error(`a line writes to $fpath: ${lines.join(' / ')}`);
    const home = mkdtempSync(join(tmpdir(), 'formctl-install-'));
    homes.push(home);
    // `formctl` stands in for the real one: what it prints is beside the point here.
    const script = ['set -e', 'formctl() { echo "# completion for $2"; }', ...lines].join('\n');
    const r = spawnSync('bash', ['-c', script], { env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(join(home, '.bashrc'), 'utf8')).toContain('source ~/.formctl-completion.bash');
    for (const file of ['.formctl-completion.bash', '.local/share/bash-completion/completions/formctl', '.config/fish/completions/formctl.fish']) {
      expect(existsSync(join(home, file)), file).toBe(true);
    }
    expect(readFileSync(join(home, '.zfunc/_formctl'), 'utf8')).toBe('# completion for zsh\n');
  });
});
