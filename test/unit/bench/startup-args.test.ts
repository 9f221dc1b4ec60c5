import { describe, expect, it } from 'vitest';
import { startupArgs } from '../../../bench/startup-args.mjs';

describe("bench/startup.mjs's command line", () => {
  it('--help and -h ask for the usage instead of a run', () => {
    expect(startupArgs(['--help'])).toEqual({ help: true });
    expect(startupArgs(['-h'])).toEqual({ help: true });
  });

  it('an unknown option or a stray word is refused, not ignored', () => {
    expect(startupArgs(['--rnus', '3'])).toHaveProperty('error');
    expect(startupArgs(['3'])).toHaveProperty('error');
  });

  it('--runs and --warmup take whole numbers (a typo is refused rather than read as NaN)', () => {
    expect(startupArgs(['--runs', 'x'])).toEqual({ error: '--runs takes a whole number of at least 1, not "x"' });
    expect(startupArgs(['--runs', '0'])).toHaveProperty('error');
    expect(startupArgs(['--warmup', '-1'])).toHaveProperty('error');
  });

  it('defaults, repeated --node, FORMCTL_BENCH_NODES and --bin', () => {
    expect(startupArgs([])).toEqual({ runs: 15, warmup: 2, nodes: [], bin: undefined });
    expect(
      startupArgs(['--runs', '5', '--warmup', '0', '--node', '/a/node', '--node', '/b/node', '--bin', 'old/bin/formctl.js'], {
        FORMCTL_BENCH_NODES: '/c/node:',
      }),
    ).toEqual({
      runs: 5,
      warmup: 0,
      nodes: ['/a/node', '/b/node', '/c/node'],
      bin: 'old/bin/formctl.js',
    });
  });
});
