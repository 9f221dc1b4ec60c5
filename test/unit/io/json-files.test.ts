import { describe, expect, it } from 'vitest';
import { type UsageError } from '../../../src/errors.js';
import { jsonDepth, notJsonObject, parseJsonObject, parseJsonText } from '../../../src/io/files.js';

function failure(f: () => unknown): UsageError {
  try {
    f();
  } catch (err) {
    return err as UsageError;
  }
  throw new Error('expected an error');
}

describe('reading a JSON object from a file or stdin: one wording for every caller', () => {
  it('returns the object', () => {
    expect(parseJsonObject('{"a": 1}', 'data.json')).toEqual({ a: 1 });
  });

  it('a syntax error names the source, gives the parser reason, and ends with one period (exit 2)', () => {
    const err = failure(() => parseJsonObject('{not json', 'data.json'));
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(/^data\.json is not valid JSON: \S.*[^.]\.$/);
    expect(err.message.split('\n')).toHaveLength(1);
  });

  it('a value of another shape names the source, what was expected and what was found', () => {
    expect(failure(() => parseJsonObject('[1]', 'stdin')).message).toBe('stdin must hold a JSON object, not a list.');
    expect(failure(() => parseJsonObject('null', 'x.json', { expected: 'a JSON object (a form)' })).message).toBe(
      'x.json must hold a JSON object (a form), not null.',
    );
    expect(failure(() => parseJsonObject('"s"', 'x.json')).message).toBe('x.json must hold a JSON object, not a string.');
    expect(failure(() => parseJsonObject('3', 'x.json')).message).toBe('x.json must hold a JSON object, not a number.');
  });

  it('carries the hint on both errors', () => {
    expect(failure(() => parseJsonObject('{', 'c', { hint: 'Fix it.' })).hint).toBe('Fix it.');
    expect(failure(() => parseJsonObject('[]', 'c', { hint: 'Fix it.' })).hint).toBe('Fix it.');
  });

  it('parseJsonText accepts any JSON value; notJsonObject words a wrong one', () => {
    expect(parseJsonText('null', '--logic-file l.json')).toBeNull();
    expect(notJsonObject('--logic-file l.json', true, 'a JSON object (or null to always deliver)').message).toBe(
      '--logic-file l.json must hold a JSON object (or null to always deliver), not a boolean.',
    );
  });
});

describe('a JSON syntax error never quotes the input (it may be a config file holding a token)', () => {
  const secret = 'tok_live_1234567890abcdefghijklmnopqrstuvwxyz';
  for (const text of [secret, `${secret} trailing`, `{"token": "${secret}"} x`, `{"token": ${secret}}`, `${secret.repeat(5)}`]) {
    it(JSON.stringify(text.slice(0, 24)), () => {
      const err = failure(() => parseJsonText(text, 'config.json'));
      expect(err.message).toMatch(/^config\.json is not valid JSON: .+\.$/);
      expect(err.message).not.toContain('tok_live');
      expect(err.message).not.toContain('1234');
    });
  }
  it('keeps the parser reason where it quotes nothing', () => {
    expect(failure(() => parseJsonText('{"a":1,}', 'x.json')).message).toMatch(
      /^x\.json is not valid JSON: (Expected double-quoted property name|Unexpected token).*\.$/,
    );
  });
});

describe('a document nested deeper than formctl walks', () => {
  it('is refused in one line (exit 2) instead of overflowing the stack later; 100 levels pass', () => {
    const nest = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    expect(() => parseJsonObject(nest(3000), 'deep.json')).toThrow('deep.json nests deeper than 100 levels of objects and lists.');
    expect(() => parseJsonText('['.repeat(101) + ']'.repeat(101), 'stdin')).toThrow(/nests deeper than 100/);
    expect(jsonDepth(JSON.parse(nest(100)))).toBe(100);
    expect(() => parseJsonObject(nest(100), 'ok.json')).not.toThrow();
  });
});
