import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

// A line's JSON errors name the input and the line (`--from FILE, line N`, as submission delete's
// do); a lossy number's column is within that line (docs/forms.md, "Numbers in JSON files").
describe.each(FLAVORS)('bulk update: a line JSON would change or cannot read, on the %s flavour (e2e)', (flavor) => {
  const fx = useSandboxFixture({ flavor, seed: 10 });

  it('names the --from file (or -), the line and the column; sends nothing for it and runs the others', async () => {
    const from = join(fx.work, 'lines.ndjson');
    const text =
      [
        JSON.stringify({ submission_id: 3, Comments: 'fine' }),
        '{"submission_id": 4, "Rating": 12345678901234567890}',
        '{"submission_id": 5, "Comments": oops}',
        '{"submission_id": 6, }',
        '  [6, "Comments"]',
      ].join('\n') + '\n';
    writeFileSync(from, text);
    const inexact =
      'line 2, column 32: the number 12345678901234567890 would be read as 12345678901234567000: a JSON number keeps about 15 significant digits.';
    for (const [arg, input, name] of [
      [from, undefined, from],
      ['-', text, '-'],
    ] as const) {
      const r = await runFormctl(['--debug', 'submission', 'update', String(fx.sb.formId), '--from', arg, '--yes'], { env: fx.env, input });
      expect(r.code).toBe(10);
      const results = r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .sort((a, b) => Number(a.line) - Number(b.line));
      expect(results.map(({ input_hash: _h, ...rest }) => rest)).toEqual([
        { line: 1, submission_id: '3', id: 3, status: 'ok' },
        { line: 2, submission_id: '4', status: 'failed', error: `--from ${name}, ${inexact}` },
        { line: 3, submission_id: null, status: 'failed', error: expect.any(String) },
        // Every JSON error of a line starts `--from FILE, line N, column C:`, the column where V8 gives one.
        { line: 4, submission_id: null, status: 'failed', error: `--from ${name}, line 4, column 22: not valid JSON: Expected double-quoted property name.` },
        { line: 5, submission_id: null, status: 'failed', error: `--from ${name}, line 5, column 3: a JSON object is needed, not a list.` },
      ]);
      expect(String(results[2]!.error).startsWith(`--from ${name}, line 3: not valid JSON: `)).toBe(true);
      const puts = r.stderr.split('\n').filter((l) => l.startsWith('[debug] > PUT'));
      expect(puts.map((l) => l.replace(/^.*\/submissions\//, ''))).toEqual(['3']);
    }
  });
});
