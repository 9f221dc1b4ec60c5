// The cache-hit path bin/formctl.js runs before the CLI (src/completion/fast.ts) prints the bytes the
// full resolver prints for the same words and cache, and leaves every other line to the CLI.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerFromCache } from '../../../src/completion/fast.js';
import { formatCompletion, resolveCompletion } from '../../../src/completion/resolve.js';
import { type TableCommand, completionTable } from '../../../src/completion/table.js';
import { cachedValueSource } from '../../../src/completion/values.js';
import { fullProgram } from './full-program.js';

let dir: string;
let program: Command;
let table: TableCommand;
let env: NodeJS.ProcessEnv;
const NOW = 1_800_000_000_000;
// Duplicates, a tab and an escape sequence in a description, an empty value: the formatting's edge cases.
const LINES = ['1\t🚀 Acme', '12\tSide project', '12\tagain', '2\tred \x1b[31mtext', '\tno value', '5'];

/** The full path's answer; it fills the cache for the words' request on the first call. */
async function full(words: string[], now = NOW): Promise<string> {
  const source = cachedValueSource({ env, now: () => new Date(now), fetch: () => Promise.resolve(LINES) });
  return formatCompletion(await resolveCompletion(program, words, source));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-fast-'));
  env = { FORMCTL_CONFIG_DIR: join(dir, 'config'), FORMCTL_CACHE_DIR: join(dir, 'cache'), FORMCTL_TOKEN: 'fsk_fast', FORMCTL_BASE_URL: 'http://127.0.0.1:9' };
  program = (await fullProgram()).program;
  // As bin/formctl.js reads it: through JSON (dist/completion-table.json).
  table = JSON.parse(JSON.stringify(completionTable(program))) as TableCommand;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every command path to an id slot of the tree, with the words that fill the slots before it. */
function idLines(node: TableCommand, path: string[]): string[][] {
  const out: string[][] = [];
  (node.args ?? []).forEach((a, i) => {
    if (a.kind && a.kind !== 'profile' && !a.choices) out.push([...path, ...(node.args ?? []).slice(0, i).map(() => '5')]);
  });
  for (const [word, sub] of Object.entries(node.sub ?? {})) out.push(...idLines(sub, [...path, word]));
  return out;
}

describe('answerFromCache', () => {
  it('answers every id slot of the tree, after a first full answer, with the full path bytes', async () => {
    const lines = idLines(table, []);
    expect(lines.length).toBeGreaterThan(15);
    expect(lines).toContainEqual(['webhook', 'get', '5']);
    for (const before of lines) {
      for (const cur of ['', '1', '12', 'x']) {
        const words = [...before, cur];
        expect(answerFromCache(words, env, table, NOW), words.join(' ')).toBeUndefined(); // a miss until the full path asks
        const expected = await full(words);
        expect(answerFromCache(words, env, table, NOW + 1000), words.join(' ')).toBe(expected);
        rmSync(join(dir, 'cache'), { recursive: true, force: true });
      }
    }
  });

  it('leaves flags, menus, choices, profiles, expired entries and other tokens to the CLI', async () => {
    await full(['workspace', 'use', '']);
    expect(answerFromCache(['workspace', 'use', ''], env, table, NOW)).toBe('1\t🚀 Acme\n12\tSide project\n2\tred  [31mtext\n5\n:0\n');
    expect(answerFromCache(['ws', 'use', '1'], env, table, NOW)).toBe('1\t🚀 Acme\n12\tSide project\n:0\n');
    for (const words of [
      ['--profile', 'work', 'workspace', 'use', ''],
      ['workspace', 'use', '-'],
      ['workspace', ''],
      ['workspace', 'use', '5', ''],
      ['profile', 'use', ''],
      ['member', 'add', 'a@b.c', ''],
      ['constructor', 'use', ''],
    ]) {
      expect(answerFromCache(words, env, table, NOW), words.join(' ')).toBeUndefined();
    }
    expect(answerFromCache(['workspace', 'use', ''], env, table, NOW + 60_000)).toBeUndefined();
    expect(answerFromCache(['workspace', 'use', ''], { ...env, FORMCTL_TOKEN: 'fsk_other' }, table, NOW)).toBeUndefined();
  });
});
