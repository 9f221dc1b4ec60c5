import { afterEach, describe, expect, it } from 'vitest';
import { submissionDeleteRun } from '../../../src/commands/submission/delete.js';
import { submissionListRun } from '../../../src/commands/submission/list.js';
import { submissionUpdateRun } from '../../../src/commands/submission/update.js';
import { checkValue, coerceValue } from '../../../src/submissions/fields.js';
import type { CliError } from '../../../src/errors.js';
import { json, startStubServer, type StubServer } from '../../helpers/http.js';
import { fakeIO } from '../../helpers/io.js';
import { FORM, clientFor, serveForm } from './util.js';

let stub: StubServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const sub = (id: number) => ({
  id,
  submission_id: String(id),
  submitted_at: `2026-01-0${id}T10:00:00.000Z`,
  data: { p_name: `N${id}`, p_email: `e${id}@x.io`, p_age: id },
});
/** The deployed shape: no submitted_at, UUID submission_id, created_at inside data. */
const deployed = (id: number) => ({ id, submission_id: `uuid-${id}`, form_id: 42, data: { p_name: `N${id}`, created_at: `2026-01-0${id} 10:00:00` } });

/** A Laravel envelope with two items per page. */
function envelopeServer(all: unknown[]) {
  return startStubServer((req, res) => {
    if (serveForm(req, res)) return;
    const u = new URL(req.url, 'http://x');
    const page = Number(u.searchParams.get('page') ?? 1);
    const per = 2;
    const last = Math.ceil(all.length / per);
    json(res, 200, {
      data: all.slice((page - 1) * per, page * per),
      links: { next: page < last ? 'next' : null },
      meta: { current_page: page, last_page: last, per_page: per, total: all.length },
    });
  });
}

async function failure(p: Promise<unknown>): Promise<CliError> {
  try {
    await p;
  } catch (err) {
    return err as CliError;
  }
  throw new Error('expected a failure');
}

describe('submission list', () => {
  it('streams every page as NDJSON and passes status/search through', async () => {
    stub = await envelopeServer([sub(5), sub(4), deployed(3)]);
    const fio = fakeIO();
    await submissionListRun({
      io: fio.io,
      api: async () => clientFor(stub!.url),
      now: () => new Date(0),
      form: 'contact-us',
      status: 'completed',
      search: 'a b',
      ndjson: true,
    });
    expect(
      fio
        .out()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      sub(5),
      sub(4),
      { id: 3, submission_id: 'uuid-3', form_id: 42, submitted_at: '2026-01-03T10:00:00Z', data: { p_name: 'N3', created_at: '2026-01-03 10:00:00' } },
    ]);
    expect(stub.requests.slice(1).map((r) => r.url)).toEqual([
      '/open/forms/42/submissions?status=completed&search=a+b&page=1&per_page=100',
      '/open/forms/42/submissions?status=completed&search=a+b&page=2&per_page=100',
    ]);
  });

  it("accepts the spec's bare array, and prints TSV rows when piped", async () => {
    stub = await startStubServer((req, res) => void (serveForm(req, res) || json(res, 200, [sub(2), sub(1)])));
    const fio = fakeIO();
    await submissionListRun({ io: fio.io, api: async () => clientFor(stub!.url), now: () => new Date(0), form: '42' });
    expect(fio.out()).toBe('2\t2026-01-02T10:00:00.000Z\tN2\te2@x.io\t2\n1\t2026-01-01T10:00:00.000Z\tN1\te1@x.io\t1\n');
    expect(stub.requests[1]!.url).toBe('/open/forms/42/submissions?page=1&per_page=30');
  });

  it('shows a table with field names on a TTY, limited, with a note on stderr', async () => {
    stub = await envelopeServer([sub(5), sub(4), sub(3)]);
    const fio = fakeIO({ tty: true });
    await submissionListRun({ io: fio.io, api: async () => clientFor(stub!.url), now: () => new Date('2026-01-06T10:00:00Z'), form: '42', limit: 2 });
    expect(fio.out()).toBe(['ID  SUBMITTED   NAME  EMAIL    AGE', '5   1 day ago   N5    e5@x.io  5', '4   2 days ago  N4    e4@x.io  4', ''].join('\n'));
    expect(fio.err()).toBe('note: showing the first 2 submissions; pass --all or --limit N for more.\n');
  });
});

describe('submission messages name the form by title and id', () => {
  it('an empty list, and a deletion', async () => {
    stub = await startStubServer(
      (req, res) => void (serveForm(req, res) || json(res, 200, req.method === 'DELETE' ? { message: 'Record successfully removed.' } : [])),
    );
    const list = fakeIO({ tty: true });
    await submissionListRun({ io: list.io, api: async () => clientFor(stub!.url), now: () => new Date(0), form: '42', search: 'zz' });
    expect(list.err()).toBe('No submissions match in form "Contact us" (id 42).\n');
    const del = fakeIO({ tty: true });
    await submissionDeleteRun({
      io: del.io,
      api: async () => clientFor(stub!.url),
      prompter: () => ({}) as never,
      form: 'contact-us',
      submissionId: '9',
      yes: true,
    });
    expect(del.out()).toBe('✓ Deleted submission 9 of form "Contact us" (id 42).\n');
    // --json: the keys form and workspace delete print, plus the form and the submission as given.
    const asJson = fakeIO();
    const o = { io: asJson.io, api: async () => clientFor(stub!.url), prompter: () => ({}) as never, form: '42', submissionId: '9', yes: true as const };
    await submissionDeleteRun({ ...o, json: true });
    expect(JSON.parse(asJson.out())).toEqual({ id: 9, deleted: true, form_id: 42, submission_id: '9' });
    const jq = fakeIO();
    await submissionDeleteRun({ ...o, io: jq.io, jq: '.deleted' });
    expect(jq.out()).toBe('true\n');
    expect(stub.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual(Array(3).fill('/open/forms/42/submissions/9'));
    const refused = await failure(
      submissionDeleteRun({ io: fakeIO().io, api: async () => clientFor(stub!.url), prompter: () => ({}) as never, form: '42', submissionId: '9' }),
    );
    expect(refused.message).toBe('Delete submission 9 of form "Contact us" (id 42) for good: refusing without confirmation.');
  });
});

/** The stub FORM's submissions 1..n on a fake of the spec's service (patch with `data`). */
async function specFake(n = 120) {
  const { startSubmissionFake, makeSubmissions } = await import('../../helpers/submission-fake.js');
  const fake = await startSubmissionFake({
    flavor: 'spec',
    form: FORM,
    submissions: makeSubmissions(n, (i) => ({ p_name: `N${i}`, p_email: `e${i}@x.io`, p_age: i })),
  });
  stub = fake;
  return fake;
}

describe('submission update', () => {
  it('resolves field names to ids, coerces numbers for numeric fields, and sends the patch under data with the other answers at the top level', async () => {
    const fake = await specFake();
    const fio = fakeIO({ tty: true });
    await submissionUpdateRun({
      io: fio.io,
      api: async () => clientFor(fake.url),
      form: 'contact-us',
      submissionId: '118',
      set: [
        ['Name', 'Ada'],
        ['age', '36'],
        ['p_email', 'a@b.c'],
      ],
    });
    expect(fake.puts.map((p) => p.path)).toEqual(['/open/forms/42/submissions/118']);
    expect(fake.puts[0]!.body).toEqual({ p_name: 'Ada', p_email: 'a@b.c', p_age: 36, data: { p_name: 'Ada', p_age: 36, p_email: 'a@b.c' } });
    expect(fio.out()).toBe('✓ Updated 3 fields of submission 118 of form "Contact us" (id 42).\n');
  });

  it('a non-number for a numeric field is exit 2 naming the field and the type, and nothing is sent', async () => {
    stub = await startStubServer((req, res) => void (serveForm(req, res) || json(res, 500, {})));
    const err = await failure(
      submissionUpdateRun({ io: fakeIO().io, api: async () => clientFor(stub!.url), form: '42', submissionId: '1', set: [['Age', 'abc']] }),
    );
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('Field "Age" (p_age) is a number field and takes a number, got "abc".');
    expect(stub.requests.map((r) => r.method)).toEqual(['GET']);
    const fromFile = await failure(
      submissionUpdateRun({ io: fakeIO({ stdin: '{"p_age": [3]}' }).io, api: async () => clientFor(stub!.url), form: '42', submissionId: '1', file: '-' }),
    );
    expect(fromFile.message).toBe('Field "p_age" is a number field and takes a number, got [3].');
    expect(stub.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('checks numeric and checkbox values: --set parses them, JSON values must already fit', () => {
    const rating = { id: 'r', type: 'rating', name: 'Rating' };
    const box = { id: 'b', type: 'checkbox', name: 'Agree' };
    expect(coerceValue(rating, ' 4 ')).toBe(4);
    expect(() => coerceValue(rating, '')).toThrow('Field "r" is a rating field and takes a number, got "".');
    expect(coerceValue(box, 'TRUE')).toBe(true);
    expect(() => coerceValue(box, 'yes', 'Agree')).toThrow('Field "Agree" (b) is a checkbox field and takes true or false, got "yes".');
    expect(coerceValue({ id: 't', type: 'text', name: 'T' }, '12')).toBe('12');
    expect(checkValue(rating, 3)).toBe(3);
    expect(checkValue(rating, '3')).toBe('3');
    expect(checkValue(rating, null)).toBe(null);
    expect(() => checkValue(rating, 'abc')).toThrow('takes a number, got "abc".');
    expect(() => checkValue(rating, true)).toThrow('takes a number, got true.');
    expect(checkValue(box, false)).toBe(false);
    expect(() => checkValue(box, 1)).toThrow('Field "b" is a checkbox field and takes true or false, got 1.');
  });

  it('a number is taken only as written in decimal, and only when it is stored exactly', () => {
    const rating = { id: 'r', type: 'rating', name: 'Rating' };
    for (const [raw, n] of [
      ['-3.5', -3.5],
      ['1e3', 1000],
      ['+7', 7],
      ['.5', 0.5],
      ['9007199254740991', 9007199254740991],
    ] as const)
      expect(coerceValue(rating, raw)).toBe(n);
    for (const raw of ['0x10', '0b11', '0o7', 'Infinity', '1_000', '1,5']) expect(() => coerceValue(rating, raw), raw).toThrow(`takes a number, got "${raw}".`);
    expect(() => coerceValue(rating, '12345678901234567890')).toThrow(
      'Field "r" takes a number, and 12345678901234567890 is beyond what is stored exactly (±9007199254740991): it would become 12345678901234567000.',
    );
    expect(() => checkValue(rating, '0x10')).toThrow('takes a number, got "0x10".');
  });

  it('an unreadable --file is exit 2 in short words, before any request', async () => {
    const err = await failure(
      submissionUpdateRun({
        io: fakeIO().io,
        api: async () => Promise.reject(new Error('no request expected')),
        form: '42',
        submissionId: '1',
        file: 'nofile.json',
      }),
    );
    expect([err.exitCode, err.message]).toEqual([2, 'Cannot read nofile.json: no such file.']);
  });

  it('--dry-run prints the exact body (current answers, the patch over them and under data) and sends nothing', async () => {
    const fake = await specFake();
    const fio = fakeIO();
    await submissionUpdateRun({
      io: fio.io,
      api: async () => clientFor(fake.url),
      form: '42',
      submissionId: '118',
      set: [
        ['Name', 'Ada'],
        ['age', '36'],
      ],
      dryRun: true,
    });
    expect(JSON.parse(fio.out())).toEqual({ p_name: 'Ada', p_email: 'e118@x.io', p_age: 36, data: { p_name: 'Ada', p_age: 36 } });
    expect(fio.err()).toBe('note: dry run: nothing was sent to submission 118 of form "Contact us" (id 42).\n');
    expect(fake.puts).toEqual([]);
  });

  it('an ambiguous name is a usage error and nothing is sent', async () => {
    stub = await startStubServer((req, res) => void (serveForm(req, res) || json(res, 500, {})));
    const fio = fakeIO();
    const err = await failure(
      submissionUpdateRun({ io: fio.io, api: async () => clientFor(stub!.url), form: '42', submissionId: '1', set: [['COMMENT', 'x']] }),
    );
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain('ambiguous');
    expect(stub.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('reads --file from stdin and prints {submission_id, id, form_id, updated, message} with --json, not the service envelope', async () => {
    const fake = await specFake(10);
    const fio = fakeIO({ stdin: '{"Email": "z@z.z", "p_age": 40}' });
    await submissionUpdateRun({ io: fio.io, api: async () => clientFor(fake.url), form: '42', submissionId: '7', file: '-', json: true });
    expect(fake.puts[0]!.body.data).toEqual({ p_email: 'z@z.z', p_age: 40 });
    expect(JSON.parse(fio.out())).toEqual({ submission_id: '7', id: 7, form_id: 42, updated: ['p_email', 'p_age'], message: 'Record successfully updated.' });
  });

  it('a saved list record of another submission (its id) is refused for this one (exit 2) before any request; its own record goes through', async () => {
    const fake = await specFake(10);
    const record = (id: number) => JSON.stringify({ id, submission_id: String(id), form_id: 42, data: { p_name: `Copied from ${id}`, p_age: id } });
    const err = await failure(
      submissionUpdateRun({ io: fakeIO({ stdin: record(4) }).io, api: async () => clientFor(fake.url), form: '42', submissionId: '7', file: '-' }),
    );
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('stdin is a record of submission 4 (its "id"), not of submission 7: nothing was sent.');
    expect(err.hint).toBe('Pass 4 as the submission id, or remove "id" from the file to apply its answers to 7.');
    expect(fake.requests).toEqual([]);
    await submissionUpdateRun({ io: fakeIO({ stdin: record(7) }).io, api: async () => clientFor(fake.url), form: '42', submissionId: '7', file: '-' });
    expect(fake.puts.map((p) => p.body.data)).toEqual([{ p_name: 'Copied from 7', p_age: 7 }]);
  });

  it('a server validation error exits 7 with the field errors', async () => {
    stub = await startStubServer((req, res) => {
      if (serveForm(req, res)) return;
      if (req.method === 'GET' && req.url.includes('/submissions?')) return json(res, 200, { data: [sub(7)], meta: { current_page: 1, last_page: 1 } });
      if (req.method === 'GET') return json(res, 200, []);
      json(res, 422, { message: 'Invalid.', errors: { 'data.p_email': ['Must be an email.'] } });
    });
    const err = await failure(
      submissionUpdateRun({ io: fakeIO().io, api: async () => clientFor(stub!.url), form: '42', submissionId: '7', set: [['Email', 'nope']] }),
    );
    expect(err.exitCode).toBe(7);
    expect(err.message).toBe('Invalid. (HTTP 422, PUT /open/forms/42/submissions/7)\n  data.p_email: Must be an email.');
  });
});
