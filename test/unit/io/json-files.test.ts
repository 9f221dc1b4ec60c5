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

describe('a byte order mark and text that is not JSON', () => {
  it('a UTF-8 byte order mark at the start is skipped, as editors on Windows write one; a second one is not JSON', () => {
    expect(parseJsonObject('\uFEFF{"a": 1}', 'bom.json')).toEqual({ a: 1 });
    // Places are counted after it, as an editor shows them (it is invisible there).
    expect(failure(() => parseJsonText('\uFEFF[1, 12345678901234567890]', 'x.json')).message).toBe(
      'x.json, line 1, column 5: the number 12345678901234567890 would be read as 12345678901234567000: a JSON number keeps about 15 significant digits.',
    );
  });

  it('a second byte order mark is named by its code point, with its place', () => {
    const err = failure(() => parseJsonText('\uFEFF\uFEFF{}', 'bb.json'));
    expect(err.message).toBe('bb.json is not valid JSON: it starts with U+FEFF (line 1, column 1); a JSON text starts with {, [ or a value.');
  });

  it('text that is not JSON at all (a CSV, a page) is named with its first character and place, and a hint to check the file', () => {
    const err = failure(() => parseJsonText('\n  name,email\na,b\n', 'x.csv'));
    expect(err.message).toBe("x.csv is not valid JSON: it starts with 'n' (line 2, column 3); a JSON text starts with {, [ or a value.");
    expect(err.hint).toBe('Check that it is the file you meant: formctl reads JSON here (a CSV, YAML or HTML file is not).');
    expect(failure(() => parseJsonText('nope', 'n.json')).message).toBe(
      "n.json is not valid JSON: it starts with 'n' (line 1, column 1); a JSON text starts with {, [ or a value.",
    );
    expect(parseJsonText(' null', 'n.json')).toBeNull();
  });

  it('a syntax error is placed by line and column, the same way on every Node line (Node 20 gives only an index)', () => {
    const err = failure(() => parseJsonText('{\n  "title": "x",\n  oops\n}', 'bad.json'));
    expect(err.message).toBe('bad.json is not valid JSON: Expected double-quoted property name (line 3, column 3).');
    expect(err.hint).toBe('Fix the JSON there: a missing comma or quote, or a comma before } or ], is the usual cause.');
    expect(failure(() => parseJsonText('\uFEFF{"a":1', 'e.json')).message).toBe(
      "e.json is not valid JSON: Expected ',' or '}' after property value (line 1, column 7).",
    );
    expect(failure(() => parseJsonText('{', 'c', 'Fix it.')).hint).toBe('Fix it.');
  });

  it('text after a complete value: a second value (NDJSON, two documents) is said as such, anything else as a syntax error, placed on every Node line', () => {
    const two = failure(() => parseJsonText('{"a":1}\n{"b":2}\n', 'two.json'));
    expect(two.message).toBe('two.json holds more than one JSON value: a second one starts at line 2, column 1.');
    expect(two.hint).toBe('formctl reads one JSON value here: NDJSON (a value per line) or values in a row are not read.');
    expect(failure(() => parseJsonText('{"a":1}{"b":2}', 'row.json')).message).toBe(
      'row.json holds more than one JSON value: a second one starts at line 1, column 8.',
    );
    expect(failure(() => parseJsonText('[1]\n\n3', 'n.json')).message).toBe('n.json holds more than one JSON value: a second one starts at line 3, column 1.');
    expect(failure(() => parseJsonText('{"a":1}\n{"b":2}', 'f.json', { severalHint: 'One form per file.' })).hint).toBe('One form per file.');
    const junk = failure(() => parseJsonText('{"a":1} xyz', 'j.json'));
    expect(junk.message).toBe('j.json is not valid JSON: Unexpected non-whitespace character after the JSON value (line 1, column 9).');
    expect(junk.hint).toBe('Fix the JSON there: a missing comma or quote, or a comma before } or ], is the usual cause.');
  });

  it('an HTML page is placed at line 1, column 1, as every other place of a file (one format, also for text of one line)', () => {
    for (const page of ['<html>\n<body>', '<html><body>'])
      expect(failure(() => parseJsonText(page, 'page.json')).message).toBe(
        "page.json is not valid JSON: it starts with '<' (line 1, column 1); a JSON text starts with {, [ or a value.",
      );
  });

  it('one line of an input (oneLine): every error starts SOURCE, column C (the column where known)', () => {
    const where = '--from u.ndjson, line 2';
    const line = (text: string) => failure(() => parseJsonObject(text, where, { oneLine: true })).message;
    expect(line('{"submission_id": 1, }')).toBe('--from u.ndjson, line 2, column 22: not valid JSON: Expected double-quoted property name.');
    expect(line('[1, 2]')).toBe('--from u.ndjson, line 2, column 1: a JSON object is needed, not a list.');
    expect(line('   "x"')).toBe('--from u.ndjson, line 2, column 4: a JSON object is needed, not a string.');
    expect(line('{"a":1}{"b":2}')).toBe('--from u.ndjson, line 2, column 8: a second JSON value starts here; a line holds one.');
    expect(line('{"a": 12345678901234567890}')).toMatch(/^--from u\.ndjson, line 2, column 7: the number 12345678901234567890 would be read as /);
    expect(line('<p>')).toBe("--from u.ndjson, line 2, column 1: not valid JSON: it starts with '<'; a JSON text starts with {, [ or a value.");
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

describe('a number JSON.parse would change is refused, naming where it is (exit 2)', () => {
  const refused = (text: string) => failure(() => parseJsonText(text, 'x.json'));

  it('an integer beyond 2^53, an over-long decimal, one out of range: the line and column, what it would become, how to keep it', () => {
    const big = refused('{\n  "settings": {\n    "big": 12345678901234567891\n  }\n}\n');
    expect(big.exitCode).toBe(2);
    expect(big.message).toBe(
      'x.json, line 3, column 12: the number 12345678901234567891 would be read as 12345678901234567000: a JSON number keeps about 15 significant digits.',
    );
    expect(big.hint).toBe('To keep every digit, write it as a string: "12345678901234567891".');
    expect(refused('{"a": [1, 0.10000000000000000555]}\n').message).toBe(
      'x.json, line 1, column 11: the number 0.10000000000000000555 would be read as 0.1: a JSON number keeps about 15 significant digits.',
    );
    expect(refused('[9007199254740993]').message).toContain('9007199254740993 would be read as 9007199254740992');
    expect(refused('[123456789012345.123456789]').message).toContain('would be read as 123456789012345.12');
    expect(refused('[1e400]').message).toBe(
      'x.json, line 1, column 2: the number 1e400 is beyond the largest number JSON holds here (about 1.8e308) and would be read as infinity.',
    );
    expect(refused('[-1e400]').message).toContain('and would be read as minus infinity.');
    expect(refused('[-1E-400]').message).toBe(
      'x.json, line 1, column 2: the number -1E-400 is closer to 0 than any number JSON holds here and would be read as 0.',
    );
    expect(refused('12345678901234567891').message).toContain('column 1: the number 12345678901234567891');
    const long = refused(`[${'9'.repeat(500)}]`);
    expect(long.message).toBe(
      `x.json, line 1, column 2: the number ${'9'.repeat(32)}… (500 characters) is beyond the largest number JSON holds here (about 1.8e308) and would be read as infinity.`,
    );
    expect(long.hint).toBe('To keep every digit, write it as a string (in double quotes).');
  });

  it('every caller of the reader refuses it: a JSON object, a line of a bulk input', () => {
    expect(failure(() => parseJsonObject('{"Rating": 4.00000000000000000001}', 'the line', { oneLine: true })).message).toBe(
      'the line, column 12: the number 4.00000000000000000001 would be read as 4: a JSON number keeps about 15 significant digits.',
    );
  });

  it('numbers a double holds exactly pass, however written; digits inside strings are not numbers', () => {
    const text =
      '{"a": [1.0, 1e3, 2.50E+1, -0, 0, 9007199254740992, 12345678901234567000, 0.30000000000000004, 5e-324, 1.7976931348623157e308],' +
      ' "s": "12345678901234567891", "e": "\\\\\\"99999999999999999999\\"", "u": "f1-4e5a 1e999", "k": {"12345678901234567891": 1}}';
    expect(parseJsonText(text, 'x.json')).toEqual(JSON.parse(text));
  });

  it('a long string full of escapes before the number is skipped whole (no regular expression runs out of stack on it)', () => {
    expect(refused(JSON.stringify({ s: '\\"'.repeat(1_000_000) }).replace('}', ', "n": 12345678901234567891}')).message).toContain(
      'the number 12345678901234567891 would be read as 12345678901234567000',
    );
  });

  it('the depth limit still comes first', () => {
    const deep = `${'['.repeat(150)}12345678901234567891${']'.repeat(150)}`;
    expect(refused(deep).message).toBe('x.json nests deeper than 100 levels of objects and lists.');
  });
});
