// `formctl __complete <words…>` as the program runs it: the tree is built for the words (only the
// command group they name is loaded) and the resolver's answer is printed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../../src/commands/registry.js';
import { createFactory } from '../../../src/factory.js';
import { completeWords } from '../../../src/program.js';
import { fakeIO } from '../../helpers/io.js';

afterEach(() => vi.restoreAllMocks());

/** Runs completeWords on a fake terminal; returns what it printed and which groups it loaded. */
async function complete(words: string[]): Promise<{ out: string; err: string; loaded: string[] }> {
  const loaded: string[] = [];
  for (const entry of COMMANDS) {
    const load = entry.load;
    vi.spyOn(entry, 'load').mockImplementation(() => {
      loaded.push(entry.name);
      return load();
    });
  }
  const io = fakeIO();
  const f = createFactory({
    io: io.io,
    // No token anywhere: a dynamic slot must stay silent without one.
    env: { FORMCTL_CONFIG_DIR: '/nonexistent/formctl-config', FORMCTL_CACHE_DIR: '/nonexistent/formctl-cache' },
    signal: new AbortController().signal,
    globals: { debug: false, timeoutMs: 30_000, maxWaitMs: 60_000, noInput: false, noColor: true },
  });
  try {
    await completeWords(f, words);
  } finally {
    await f.dispose();
  }
  return { out: io.out(), err: io.err(), loaded };
}

describe('completeWords', () => {
  it('loads only the group the words name (through an alias and past a root option)', async () => {
    const r = await complete(['--profile', 'work', 'ws', 'd']);
    expect(r.out).toBe('delete\tDelete a workspace and everything in it (admins only)\n:0\n');
    expect(r.loaded).toEqual(['workspace']);
  });

  it('answers top-level names from the placeholders, loading no group', async () => {
    const r = await complete(['wo']);
    expect(r.out).toBe('workspace\tList, create, update and switch workspaces\n:0\n');
    expect(r.loaded).toEqual([]);
  });

  it('follows a help topic into its group', async () => {
    const r = await complete(['help', 'form', 'up']);
    expect(r.out).toBe('update\tChange a form safely: fields you do not mention keep their values\n:0\n');
    expect(r.loaded).toEqual(['form']);
  });

  it('prints the directive alone, and nothing on stderr, when ids cannot be listed', async () => {
    const r = await complete(['workspace', 'use', '']);
    expect({ out: r.out, err: r.err }).toEqual({ out: ':0\n', err: '' });
  });
});
