import { describe, expect, it } from 'vitest';
import { targetCommand } from '../../src/program.js';

describe('targetCommand', () => {
  it('skips root options and their values', () => {
    expect(targetCommand(['--profile', 'work', '--debug', 'form', 'list'])).toEqual({ name: 'form' });
    expect(targetCommand(['--timeout', '5', 'workspace'])).toEqual({ name: 'workspace' });
  });
  it('finds the command a help topic names', () => {
    expect(targetCommand(['help', 'form', 'update'])).toEqual({ name: 'help', helpTopic: 'form' });
  });
  it('has no target for bare flags', () => {
    expect(targetCommand(['--version'])).toEqual({ name: undefined });
  });
});
