// Field names come from the service: printed inside formctl's own lines, a newline in one must not
// make a line of its own (a forged `error:` line), nor a tab a column of its own.
import { afterEach, describe, expect, it } from 'vitest';
import { submissionGetRun } from '../../../src/commands/submission/get.js';
import { json, startStubServer, type StubServer } from '../../helpers/http.js';
import { fakeIO } from '../../helpers/io.js';
import { runCli } from '../../helpers/run-cli.js';
import { clientFor } from './util.js';

let stub: StubServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const FORGED = 'Na\nerror: forged\tx\x1b[2J';
const FORM = {
  id: 42,
  slug: 'contact-us',
  title: 'Contact us',
  properties: [{ id: 'p_name', type: 'text', name: FORGED }],
  removed_properties: [{ id: 'p_old', type: 'text', name: 'Old\nerror: gone' }],
};
const SUB = { id: 7, submission_id: '7', submitted_at: '2026-01-01T10:00:00.000Z', data: { p_name: 'Ann', p_old: 'kept' } };

function serve() {
  return startStubServer((req, res) => {
    if (req.method === 'GET' && /^\/open\/forms\/(42|contact-us)$/.test(req.url)) return json(res, 200, FORM);
    json(res, 200, { data: [SUB], links: { next: null }, meta: { current_page: 1, last_page: 1, per_page: 100, total: 1 } });
  });
}

describe('submission get: field names as labels', () => {
  for (const tty of [false, true]) {
    it(`are escaped in ${tty ? 'the table' : 'TSV'}: no forged line, no extra column`, async () => {
      stub = await serve();
      const fio = fakeIO({ tty });
      await submissionGetRun({ io: fio.io, api: async () => clientFor(stub!.url), now: () => new Date('2026-01-02T00:00:00Z'), form: '42', submissionId: '7' });
      const lines = fio.out().trimEnd().split('\n');
      expect(lines.filter((l) => /^\s*error:/.test(l))).toEqual([]);
      const name = lines.find((l) => l.includes('Ann'))!;
      const removed = lines.find((l) => l.includes('kept'))!;
      if (tty) {
        expect(name).toMatch(/^Na\\x0aerror: forged\\x09x\\x1b\[2J +Ann$/);
        expect(removed).toMatch(/^Old\\x0aerror: gone \(removed field\) +kept$/);
      } else {
        expect(name).toBe('na\\x0aerror: forged\\x09x\\x1b[2j\tAnn');
        expect(removed).toBe('old\\x0aerror: gone (removed field)\tkept');
      }
    });
  }
});

/** Runs formctl in-process against a stub serving `form`; its exit code and stderr. */
async function hintOf(args: string[], form: Record<string, unknown> = FORM): Promise<{ code: number; err: string }> {
  stub = await startStubServer((req, res) => {
    if (req.method === 'GET' && /^\/open\/forms\/(42|contact-us)$/.test(req.url)) return json(res, 200, form);
    json(res, 599, { message: `unexpected ${req.method} ${req.url}` });
  });
  const r = await runCli(args, { url: stub.url });
  return { code: r.code, err: r.err };
}

describe('field names in the hints that list fields', () => {
  // One error line and one hint line: a name's line break would add a line (a forged `error:` one here).
  const lines = (err: string) =>
    err
      .trimEnd()
      .split('\n')
      .map((l) => l.slice(0, 5));

  it('submission export --columns: an unknown column lists the fields, escaped', async () => {
    const { code, err } = await hintOf(['submission', 'export', '42', '--columns', 'nope', '-o', '-']);
    expect(code).toBe(2);
    expect(err).toContain('hint: Valid columns: p_name (Na\\x0aerror: forged\\x09x\\x1b[2J), created_at');
    expect(err).toContain('removed fields: p_old (Old\\x0aerror: gone)');
    expect(lines(err)).toEqual(['error', 'hint:']);
  });

  it('webhook trigger --data: an unknown field lists the fields, escaped; an ambiguous name lists the ids, escaped', async () => {
    const unknown = await hintOf(['webhook', 'trigger', '42', '--data', 'nope=1']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('hint: Fields: "Na\\x0aerror: forged\\x09x\\x1b[2J" (p_name)');
    expect(lines(unknown.err)).toEqual(['error', 'hint:']);
    await stub?.close();
    const twice = {
      ...FORM,
      properties: [...FORM.properties, { id: 'p_dup', type: 'text', name: 'Dup' }, { id: 'p\nerror: id', type: 'text', name: 'Dup' }],
    };
    const ambiguous = await hintOf(['webhook', 'trigger', '42', '--data', 'Dup=1'], twice);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toContain('hint: Use the field id instead: p_dup, p\\x0aerror: id');
    expect(lines(ambiguous.err)).toEqual(['error', 'hint:']);
  });
});
