// JSON files as people hand them to formctl, from the built binary: one a Windows editor saved with
// a byte order mark (accepted), and one that is not JSON at all (named, with its place and a hint).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

describe('form apply -f with a byte order mark or a file that is not JSON', () => {
  const fx = useSandboxFixture({ seed: 0 });

  it('a form document saved with a byte order mark is read as without it', async () => {
    const got = await runFormctl(['form', 'get', String(fx.sb.formId), '--json'], { env: fx.env });
    expect(got.code, got.stderr).toBe(0);
    const file = join(fx.work, 'bom.json');
    writeFileSync(file, '\uFEFF' + got.stdout);
    const r = await runFormctl(['form', 'apply', '-f', file, '--onto', String(fx.sb.formId), '--dry-run'], { env: fx.env });
    expect(r.stderr).not.toMatch(/error|FEFF|\uFEFF/);
    expect(r.code).toBe(0);
  });

  it('a file of two forms (NDJSON, or two documents in a row) is said to hold more than one JSON value, placed by line and column on every Node line', async () => {
    const got = await runFormctl(['form', 'get', String(fx.sb.formId), '--json'], { env: fx.env });
    const one = JSON.stringify(JSON.parse(got.stdout));
    const file = join(fx.work, 'two.json');
    writeFileSync(file, `${one}\n${one}\n`);
    const r = await runFormctl(['form', 'apply', '-f', file, '--onto', String(fx.sb.formId)], { env: fx.env });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `error: ${file} holds more than one JSON value: a second one starts at line 2, column 1.\n` +
        'hint: One form per file (NDJSON is not read here): `formctl form get --json` prints one, as form apply, create and update take it.\n',
    });
    const page = join(fx.work, 'page.json');
    writeFileSync(page, '<html><body>Sign in</body></html>');
    const html = await runFormctl(['form', 'apply', '-f', page, '--onto', String(fx.sb.formId)], { env: fx.env });
    expect(html.stderr).toBe(
      `error: ${page} is not valid JSON: it starts with '<' (line 1, column 1); a JSON text starts with {, [ or a value.\n` +
        'hint: Check that it is the file you meant: formctl reads JSON here (a CSV, YAML or HTML file is not).\n',
    );
  });

  it('a CSV given as the form document: its name, where it stops being JSON, and a hint (exit 2, nothing sent)', async () => {
    const file = join(fx.work, 'x.csv');
    writeFileSync(file, '\uFEFFname,email\nAda,ada@example.com\n');
    const r = await runFormctl(['form', 'apply', '-f', file, '--onto', String(fx.sb.formId)], { env: fx.env });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `error: ${file} is not valid JSON: it starts with 'n' (line 1, column 1); a JSON text starts with {, [ or a value.\n` +
        'hint: Check that it is the file you meant: formctl reads JSON here (a CSV, YAML or HTML file is not).\n',
    });
  });
});
