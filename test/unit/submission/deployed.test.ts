import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizeSubmission } from '../../../src/api/normalize.js';
import { findSubmission } from '../../../src/submissions/lookup.js';
import { parseSubmissionRef, submissionRefArg } from '../../../src/submissions/ref.js';
import { parseLine } from '../../../src/submissions/bulk-input.js';
import { assertUpdatable, buildUpdateBody, listRecordAnswers, patchApplied } from '../../../src/submissions/answers.js';
import { bulkUpdateRun } from '../../../src/commands/submission/bulk.js';
import { submissionDeleteRun } from '../../../src/commands/submission/delete.js';
import { submissionUpdateRun } from '../../../src/commands/submission/update.js';
import type { CliError } from '../../../src/errors.js';
import { fakeIO } from '../../helpers/io.js';
import { type SubmissionFake, makeSubmissions, startSubmissionFake, uuidFor } from '../../helpers/submission-fake.js';
import { clientFor } from './util.js';

/** A form like the ones people keep on the deployed service: a required field, files, a signature. */
const FORM = {
  id: 42,
  slug: 'contact-us',
  title: 'Contact us',
  visibility: 'public',
  properties: [
    { id: 'p_name', type: 'text', name: 'Name', required: true },
    { id: 'p_email', type: 'email', name: 'Email' },
    { id: 'p_intro', type: 'nf-text', name: 'Intro' },
    { id: 'p_rating', type: 'rating', name: 'Rating' },
    { id: 'p_cv', type: 'files', name: 'CV' },
    { id: 'p_sig', type: 'signature', name: 'Signature' },
  ],
};
const answers = (i: number) => ({ p_name: `N${i}`, p_email: `e${i}@x.io`, p_rating: 1, p_cv: [`cv${i}.pdf`], p_sig: `sig${i}.png` });

let fake: SubmissionFake | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-deployed-'));
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function start(o: { n?: number; flavor?: 'spec' | 'deployed'; form?: Record<string, unknown>; integrations?: Array<Record<string, unknown>> } = {}) {
  fake = await startSubmissionFake({
    flavor: o.flavor ?? 'deployed',
    form: { ...FORM, ...o.form } as typeof FORM,
    submissions: makeSubmissions(o.n ?? 250, answers),
    integrations: o.integrations,
  });
  return fake;
}

async function failure(p: Promise<unknown>): Promise<CliError> {
  try {
    await p;
  } catch (err) {
    return err as CliError;
  }
  throw new Error('expected a failure');
}

const api = () => async () => clientFor(fake!.url);

describe('the update body (both services read it as a patch)', () => {
  const item = normalizeSubmission({
    id: 7,
    submission_id: uuidFor(7),
    completion_time: 42,
    data: {
      p_name: 'Ada',
      p_email: 'a@x.io',
      p_cv: [{ file_url: 'https://f/cv.pdf?sig=1', file_name: 'cv.pdf' }],
      p_sig: [{ file_url: 'https://f/s.png', file_name: 's.png' }],
      p_gone: 'old answer',
      status: 'partial',
      created_at: '2026-01-01 10:00:00',
      id: 7,
      submission_id: uuidFor(7),
      ip_address: '1.2.3.4',
    },
  });

  it('holds the current answers at the top level (files as URLs, signatures as file names, meta keys out), the completion time, and the patch under data', () => {
    const { body, effects } = buildUpdateBody(FORM, item, { p_rating: 5 });
    expect(body).toEqual({
      p_name: 'Ada',
      p_email: 'a@x.io',
      p_cv: ['https://f/cv.pdf?sig=1'],
      p_sig: 's.png',
      p_rating: 5,
      completion_time: 42,
      data: { p_rating: 5 },
    });
    expect(Object.keys(body)).not.toContain('is_partial');
    expect(effects).toEqual({ partial: true, removed: ['p_gone'] });
  });

  it('sends a stored multi-select back without its null or blank items, which the deployed service refuses (422 on the item)', () => {
    const form = {
      ...FORM,
      properties: [...FORM.properties, { id: 'p_tags', type: 'multi_select', name: 'Tags', multi_select: { options: [{ name: 'Urgent' }] } }],
    };
    // A partial submission keeps what the middleware made of ["Urgent", ""]: ["Urgent", null].
    const held = normalizeSubmission({ id: 8, submission_id: uuidFor(8), data: { p_name: 'Ada', p_tags: ['Urgent', null, ' '], status: 'partial' } });
    expect(buildUpdateBody(form, held, { p_rating: 5 }).body).toEqual({ p_name: 'Ada', p_tags: ['Urgent'], p_rating: 5, data: { p_rating: 5 } });
    const none = normalizeSubmission({ id: 9, submission_id: uuidFor(9), data: { p_name: 'Bo', p_tags: [null] } });
    expect(buildUpdateBody(form, none, { p_rating: 1 }).body).toMatchObject({ p_tags: [] });
  });

  it('sends patched file and signature answers in the form the service keeps (a saved list record holds them as objects)', () => {
    const cv = [{ file_url: 'https://f/cv.pdf?sig=1', file_name: 'cv.pdf' }];
    const sig = [{ file_url: 'https://f/s.png', file_name: 's.png' }];
    const { body } = buildUpdateBody(FORM, item, { p_cv: cv, p_sig: sig, p_rating: 5 });
    expect(body).toMatchObject({ p_cv: ['https://f/cv.pdf?sig=1'], p_sig: 's.png', p_rating: 5 });
    expect(body.data).toEqual({ p_cv: cv, p_sig: sig, p_rating: 5 });
  });

  it('refuses a file or signature the submission does not hold; clearing, keeping and a re-signed URL pass', () => {
    expect(() => buildUpdateBody(FORM, item, { p_cv: ['https://elsewhere/new.pdf'] })).toThrow(
      /^Field "CV" \(p_cv\) is a files field, and "https:\/\/elsewhere\/new.pdf" is not one of the files this submission holds: /,
    );
    expect(() => buildUpdateBody(FORM, item, { p_sig: 'other.png' })).toThrow(/Field "Signature" \(p_sig\) is a signature field/);
    expect(buildUpdateBody(FORM, item, { p_cv: [] }).body.p_cv).toEqual([]);
    expect(buildUpdateBody(FORM, item, { p_sig: null }).body.p_sig).toBeNull();
    expect(buildUpdateBody(FORM, item, { p_cv: ['cv.pdf'] }).body.p_cv).toEqual(['cv.pdf']);
    // A URL saved from an earlier list carries another signature: the same file.
    expect(buildUpdateBody(FORM, item, { p_cv: ['https://f/cv.pdf?sig=2'] }).body.p_cv).toEqual(['https://f/cv.pdf?sig=2']);
    // A url field with file_upload stores its value as a file on the deployed service: the same rule.
    const upload = { ...FORM, properties: [...FORM.properties, { id: 'p_doc', type: 'url', name: 'Doc', file_upload: true }] };
    const withDoc = { ...item, data: { ...item.data, p_doc: 'doc_1b2c.pdf' } };
    expect(() => buildUpdateBody(upload, withDoc, { p_doc: 'https://example.com/x.pdf' })).toThrow(/Field "Doc" \(p_doc\) is a file upload field/);
    expect(buildUpdateBody(upload, withDoc, { p_doc: 'doc_1b2c.pdf' }).body.p_doc).toBe('doc_1b2c.pdf');
    const link = { ...FORM, properties: [...FORM.properties, { id: 'p_doc', type: 'url', name: 'Doc' }] };
    expect(buildUpdateBody(link, withDoc, { p_doc: 'https://example.com/x.pdf' }).body.p_doc).toBe('https://example.com/x.pdf');
  });

  it('refuses to set, or to erase, the answer to a field whose id holds a "." or "*" (the deployed validation reads it as a path)', () => {
    const form = { ...FORM, properties: [...FORM.properties, { id: 'size.cm', type: 'text', name: 'Size' }] };
    const refusal = /cannot store an answer to a field whose id holds a "\." or "\*" \("size\.cm"\).*nothing was sent/;
    expect(() => buildUpdateBody(form, item, { 'size.cm': '42' })).toThrow(refusal);
    expect(() => buildUpdateBody(form, { ...item, data: { ...item.data, 'size.cm': '40' } }, { p_name: 'Bob' })).toThrow(refusal);
    // Nothing there and nothing asked: the update cannot lose it.
    expect(buildUpdateBody(form, item, { p_name: 'Bob' }).body.p_name).toBe('Bob');
    expect(buildUpdateBody(form, { ...item, data: { ...item.data, 'size.cm': '' } }, { p_name: 'Bob' }).body.p_name).toBe('Bob');
    const star = { ...FORM, properties: [...FORM.properties, { id: 'a*b', type: 'text', name: 'Star' }] };
    expect(() => buildUpdateBody(star, item, { 'a*b': 'x' })).toThrow(/\("a\*b"\)/);
  });

  it('tells an applied patch from one not yet applied (resume)', () => {
    expect(patchApplied(item, { p_name: 'Ada' })).toBe(true);
    expect(patchApplied(item, { p_name: 'Bob' })).toBe(false);
  });

  it('refuses captcha forms and field ids that are body keys', () => {
    expect(() => assertUpdatable({ ...FORM, use_captcha: true })).toThrow(/uses a captcha/);
    expect(() => assertUpdatable({ ...FORM, properties: [...FORM.properties, { id: 'completion_time', type: 'number', name: 'Time' }] })).toThrow(
      /reserved key .*completion_time/,
    );
    expect(() => assertUpdatable(FORM)).not.toThrow();
  });

  it('refuses a form with a field id the deployed list shows its own value under (status, created_at, id, ip_address)', () => {
    for (const id of ['status', 'created_at', 'id', 'ip_address']) {
      expect(() => assertUpdatable({ ...FORM, properties: [...FORM.properties, { id, type: 'text', name: 'Tier' }] })).toThrow(
        new RegExp(`submission list uses for its own values \\(${id}\\)`),
      );
    }
    // A layout block with such an id holds no answer.
    expect(() => assertUpdatable({ ...FORM, properties: [...FORM.properties, { id: 'status', type: 'nf-text', name: 'Intro' }] })).not.toThrow();
  });

  it('parses ids: numbers and UUIDs; an NDJSON line with both uses the numeric id', () => {
    expect(parseSubmissionRef('118')).toEqual({ kind: 'id', id: 118 });
    expect(parseSubmissionRef(uuidFor(3))).toEqual({ kind: 'uuid', uuid: uuidFor(3) });
    expect(parseSubmissionRef('4b2e')).toBeNull();
    // As an argument: exit 2 with the way to the ids.
    expect(() => submissionRefArg('abc')).toThrow(
      expect.objectContaining({ exitCode: 2, hint: 'See the ids with `formctl submission list <form>`.' }) as unknown as Error,
    );
    expect(parseSubmissionRef('9007199254740993')).toBeNull();
    expect(parseLine(FORM, JSON.stringify({ submission_id: uuidFor(9), id: 9, Name: 'x' }))).toMatchObject({ label: '9', ref: { kind: 'id', id: 9 } });
    // The other id is kept, so the run can check that both name the same submission.
    expect(parseLine(FORM, JSON.stringify({ submission_id: uuidFor(8), id: 9, Name: 'x' })).also).toEqual({
      label: uuidFor(8),
      ref: { kind: 'uuid', uuid: uuidFor(8) },
    });
    expect(parseLine(FORM, JSON.stringify({ submission_id: '9', id: 9, Name: 'x' })).also).toEqual({ label: '9', ref: { kind: 'id', id: 9 } });
    expect(parseLine(FORM, JSON.stringify({ submission_id: uuidFor(9), Name: 'x' })).also).toBeUndefined();
    expect(parseLine(FORM, JSON.stringify({ submission_id: uuidFor(9), Name: 'x' }))).toMatchObject({ ref: { kind: 'uuid', uuid: uuidFor(9) } });
    expect(() => parseLine(FORM, '{"submission_id": "4b2e-x", "Name": "x"}')).toThrow(/is not a submission id/);
  });

  it('a saved `submission list --json` record gives its answers without the keys the list adds', () => {
    const rec = {
      id: 7,
      submission_id: uuidFor(7),
      form_id: 42,
      completion_time: 3,
      submitted_at: null,
      data: { p_name: 'Ada', status: 'completed', created_at: 'x', id: 7, submission_id: uuidFor(7) },
    };
    expect(listRecordAnswers(rec)).toEqual({ p_name: 'Ada' });
    expect(listRecordAnswers({ p_name: 'Ada' })).toBeUndefined();
  });

  it('a `submission list --ndjson` line is a valid --from line, as the record is for --file', () => {
    const rec = {
      id: 7,
      submission_id: uuidFor(7),
      form_id: 42,
      completion_time: 3,
      submitted_at: '2026-01-02 03:04:05',
      data: { p_name: 'Ada', p_rating: 4, status: 'completed', created_at: 'x', id: 7, submission_id: uuidFor(7) },
    };
    expect(parseLine(FORM, JSON.stringify(rec))).toEqual({
      label: '7',
      ref: { kind: 'id', id: 7 },
      also: { label: uuidFor(7), ref: { kind: 'uuid', uuid: uuidFor(7) } },
      data: { p_name: 'Ada', p_rating: 4 },
    });
    // The spec's list record, and one whose answers are all list keys: nothing to update.
    expect(parseLine(FORM, JSON.stringify({ id: 3, submission_id: '3', submitted_at: null, data: { Name: 'Bo' } }))).toEqual({
      label: '3',
      ref: { kind: 'id', id: 3 },
      also: { label: '3', ref: { kind: 'id', id: 3 } },
      data: { p_name: 'Bo' },
    });
    expect(() => parseLine(FORM, JSON.stringify({ id: 3, submitted_at: null, data: { status: 'completed' } }))).toThrow(/no fields to update/);
    // A plain line with `data` keeps what it says, and a line with another key is fields as before.
    expect(parseLine(FORM, JSON.stringify({ submission_id: '4', data: { Rating: 2 } })).data).toEqual({ p_rating: 2 });
    expect(() => parseLine(FORM, JSON.stringify({ submission_id: '4', Nme: 'x', submitted_at: null, data: {} }))).toThrow(/Unknown field "Nme"/);
  });
});

describe('submission update on the deployed service (replaces answers with the top-level keys)', () => {
  it('a one-field update keeps every other answer, the files, the signature and completion_time', async () => {
    await start();
    await submissionUpdateRun({ io: fakeIO().io, api: api(), form: '42', submissionId: '118', set: [['Rating', '5']] });
    expect(fake!.subs.get(118)).toMatchObject({ data: { ...answers(118), p_rating: 5 }, completion_time: 148, status: 'completed' });
    expect(fake!.puts.map((p) => p.path)).toEqual(['/open/forms/42/submissions/118']);
  });

  it('finds the submission by a binary search over the pages: a few list requests, not one per page', async () => {
    await start({ n: 1000 });
    const c = clientFor(fake!.url);
    const cost = { pages: 0 };
    const found = await findSubmission(c, 42, { kind: 'id', id: 5 }, { cost });
    expect(found.id).toBe(5);
    expect(cost.pages).toBeLessThanOrEqual(5);
    const missing = await failure(findSubmission(c, 42, { kind: 'id', id: 5000 }));
    expect(missing.exitCode).toBe(6);
  });

  it('an envelope without a page count (only links.next) is read page after page', async () => {
    const { startStubServer, json } = await import('../../helpers/http.js');
    const stub = await startStubServer((req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page'));
      const ids = [3 - page]; // page 1: #2, page 2: #1
      json(res, 200, { data: ids.map((id) => ({ id, submission_id: uuidFor(id), data: {} })), links: { next: page < 2 ? `?page=${page + 1}` : null } });
    });
    try {
      const found = await findSubmission(clientFor(stub.url), 42, { kind: 'id', id: 1 });
      expect(found.id).toBe(1);
      expect(stub.requests.length).toBe(2);
    } finally {
      await stub.close();
    }
  });

  it('a UUID is looked up and the numeric id goes in the path (never the UUID)', async () => {
    await start();
    const fio = fakeIO();
    await submissionUpdateRun({ io: fio.io, api: api(), form: '42', submissionId: uuidFor(30), set: [['Email', 'new@x.io']], json: true });
    expect(fake!.puts.map((p) => [p.path, p.target])).toEqual([['/open/forms/42/submissions/30', 30]]);
    expect(fake!.subs.get(30)!.data.p_email).toBe('new@x.io');
    expect(JSON.parse(fio.out())).toMatchObject({ submission_id: uuidFor(30), id: 30 });
    const del = fakeIO({ tty: true });
    await submissionDeleteRun({ io: del.io, api: api(), prompter: () => ({}) as never, form: '42', submissionId: uuidFor(31), yes: true });
    expect(fake!.deletes.map((d) => d.path)).toEqual(['/open/forms/42/submissions/31']);
    expect(fake!.subs.has(31)).toBe(false);
    // The submission a leading-digits path would have hit is still there.
    expect(fake!.subs.has(Number(/^\d+/.exec(uuidFor(31))![0]))).toBe(true);
    expect(del.out()).toBe(`✓ Deleted submission 31 (${uuidFor(31)}) of form "Contact us" (id 42).\n`);
    const bad = await failure(
      submissionDeleteRun({ io: fakeIO().io, api: api(), prompter: () => ({}) as never, form: '42', submissionId: '4b2e9c1a', yes: true }),
    );
    expect(bad.exitCode).toBe(2);
  });

  it('a captcha form is refused before anything is sent (exit 2)', async () => {
    await start({ form: { use_captcha: true } });
    const err = await failure(submissionUpdateRun({ io: fakeIO().io, api: api(), form: '42', submissionId: '3', set: [['Rating', '5']] }));
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(/uses a captcha/);
    expect(fake!.puts).toEqual([]);
  });

  it('warns when the submission is partial, holds answers to removed fields, and when integrations will fire again', async () => {
    await start({
      n: 5,
      integrations: [
        { id: 1, integration_id: 'webhook', status: 'active' },
        { id: 2, integration_id: 'slack', status: 'active' },
        { id: 3, integration_id: 'email', status: 'inactive' },
      ],
    });
    fake!.subs.get(2)!.status = 'partial';
    fake!.subs.get(2)!.data.p_old = 'x';
    const fio = fakeIO();
    await submissionUpdateRun({ io: fio.io, api: api(), form: '42', submissionId: '2', set: [['Rating', '4']], yes: true });
    expect(fio.err()).toContain('warning: Submission 2 is a partial submission; on the deployed OpnForm service an update stores it as completed.');
    expect(fio.err()).toContain(
      'warning: Submission 2 holds answers to fields the form no longer has (p_old); the deployed OpnForm service drops them on update.',
    );
    expect(fio.err()).toContain(
      'warning: the form has 2 active integrations; on the deployed OpnForm service they run again for each updated submission: 1 webhook, 1 Slack will fire again.',
    );
    expect(fake!.fired).toBe(2);
  });

  it('a partial submission (completed by the update) or answers to removed fields (dropped by it): exit 2 without --yes off a terminal, nothing sent', async () => {
    await start({ n: 5 });
    fake!.subs.get(2)!.status = 'partial';
    fake!.subs.get(3)!.data.p_old = 'x';
    for (const submissionId of ['2', '3']) {
      const fio = fakeIO();
      const err = await failure(submissionUpdateRun({ io: fio.io, api: api(), form: '42', submissionId, set: [['Rating', '4']] }));
      expect(err.exitCode).toBe(2);
      expect(err.message).toMatch(new RegExp(`^Updating submission ${submissionId} of form .* has the side effects above: refusing without --yes\\.$`));
      expect(err.hint).toBe('Pass --yes to go ahead.');
    }
    expect(fake!.puts).toEqual([]);
    // --dry-run sends nothing, so it needs no yes.
    await submissionUpdateRun({ io: fakeIO().io, api: api(), form: '42', submissionId: '3', set: [['Rating', '4']], dryRun: true });
    expect(fake!.puts).toEqual([]);
  });

  it('an update with no side effects needs no --yes', async () => {
    await start({ n: 5 });
    await submissionUpdateRun({ io: fakeIO().io, api: api(), form: '42', submissionId: '4', set: [['Rating', '4']] });
    expect(fake!.puts.length).toBe(1);
  });

  it("a 403 names forms-write (the deployed ability) and the spec's submissions-write", async () => {
    const { startStubServer, json } = await import('../../helpers/http.js');
    const stub = await startStubServer((req, res) => {
      if (req.url === '/open/forms/42') return json(res, 200, FORM);
      if (req.url.includes('/submissions?')) return json(res, 200, { data: [{ id: 3, data: answers(3) }], meta: { current_page: 1, last_page: 1 } });
      if (req.method === 'GET') return json(res, 200, []);
      json(res, 403, { message: 'This action is unauthorized.' });
    });
    try {
      const err = await failure(
        submissionUpdateRun({ io: fakeIO().io, api: async () => clientFor(stub.url), form: '42', submissionId: '3', set: [['Rating', '5']] }),
      );
      expect(err.exitCode).toBe(5);
      expect(err.hint).toContain('`forms-write`');
      expect(err.hint).toContain('`submissions-write`');
    } finally {
      await stub.close();
    }
  });
});

describe('bulk update on the deployed service', () => {
  const run = (from: string, o: Record<string, unknown> = {}) => {
    const fio = fakeIO();
    const p = bulkUpdateRun({
      io: fio.io,
      api: api(),
      now: () => 0,
      sleep: async () => undefined,
      form: '42',
      from,
      concurrency: 2,
      rateLimit: 6000,
      results: join(dir, 'r.ndjson'),
      ...o,
    });
    return { fio, p };
  };

  it('3 lines touch exactly those 3 submissions, keep their other answers, and a line with both ids uses the numeric one', async () => {
    await start();
    const from = join(dir, 'in.ndjson');
    writeFileSync(
      from,
      [
        JSON.stringify({ id: 10, submission_id: uuidFor(10), Rating: 5 }),
        JSON.stringify({ submission_id: uuidFor(150), Email: 'z@x.io' }),
        JSON.stringify({ submission_id: '200', Rating: 2 }),
      ].join('\n') + '\n',
    );
    const before = new Map([...fake!.subs].map(([k, v]) => [k, JSON.stringify(v)]));
    await run(from).p;
    expect(fake!.puts.map((p) => p.target).sort((a, b) => a - b)).toEqual([10, 150, 200]);
    expect(fake!.puts.every((p) => /\/submissions\/\d+$/.test(p.path))).toBe(true);
    expect(fake!.subs.get(10)!.data).toEqual({ ...answers(10), p_rating: 5 });
    expect(fake!.subs.get(150)!.data).toEqual({ ...answers(150), p_email: 'z@x.io' });
    expect(fake!.subs.get(10)!.completion_time).toBe(40);
    const touched = [...fake!.subs].filter(([k, v]) => before.get(k) !== JSON.stringify(v)).map(([k]) => k);
    expect(touched).toEqual([10, 150, 200]);
    // One scan of the list, stopped once every id was found (250 rows: 3 pages).
    expect(fake!.listRequests()).toBeLessThanOrEqual(3);
  });

  it('a copy read more than a minute before its line is read again: a change made meanwhile by someone else is kept', async () => {
    await start();
    const from = join(dir, 'in.ndjson');
    writeFileSync(from, '{"id": 10, "Rating": 5}\n');
    // The clock jumps two minutes once the list was read (with --yes the integrations request comes
    // after it), and someone edits submission 10 in that time.
    let later = false;
    const now = () => {
      if (!later && fake!.requests.some((r) => r.url.endsWith('/integrations'))) {
        later = true;
        fake!.subs.get(10)!.data = { ...fake!.subs.get(10)!.data, p_email: 'edited@elsewhere.io' };
      }
      return later ? 120_000 : 0;
    };
    const lists = () => fake!.listRequests();
    await run(from, { now, yes: true }).p;
    expect(fake!.subs.get(10)!.data).toEqual({ ...answers(10), p_email: 'edited@elsewhere.io', p_rating: 5 });
    expect(fake!.puts.map((p) => p.target)).toEqual([10]);
    // The scan's 3 pages (submission 10 is on the last), then that page read again for the line.
    expect(lists()).toBe(4);
  });

  it('a submission deleted since the list was read fails its line, nothing sent for it', async () => {
    await start();
    const from = join(dir, 'in.ndjson');
    writeFileSync(from, '{"id": 10, "Rating": 5}\n{"id": 11, "Rating": 4}\n');
    let later = false;
    const now = () => {
      if (!later && fake!.requests.some((r) => r.url.endsWith('/integrations'))) {
        later = true;
        fake!.subs.delete(10);
      }
      return later ? 120_000 : 0;
    };
    const err = await failure(run(from, { now, yes: true }).p);
    expect(err.exitCode).toBe(10);
    expect(fake!.puts.map((p) => p.target)).toEqual([11]);
    const r = readFileSync(join(dir, 'r.ndjson'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; status: string; error?: string });
    expect(
      r
        .filter((x) => x.status !== 'sending')
        .map((x) => [x.line, x.status])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [1, 'failed'],
      [2, 'ok'],
    ]);
    expect(r.find((x) => x.line === 1 && x.status === 'failed')!.error).toMatch(/has no submission 10/);
  });

  it("two lines for one submission both stay applied (the second body carries the first line's answer)", async () => {
    await start();
    const from = join(dir, 'in.ndjson');
    writeFileSync(from, '{"id": 5, "Rating": 4}\n{"id": 5, "Email": "q@x.io"}\n');
    await run(from).p;
    expect(fake!.subs.get(5)!.data).toMatchObject({ p_rating: 4, p_email: 'q@x.io', p_name: 'N5' });
  });

  it('with active integrations, off a terminal and without --yes: exit 2 and nothing sent; --dry-run prints the bodies', async () => {
    await start({ integrations: [{ id: 8, integration_id: 'slack', status: 'active' }] });
    const from = join(dir, 'in.ndjson');
    writeFileSync(from, '{"id": 5, "Rating": 4}\n');
    const { fio, p } = run(from);
    const err = await failure(p);
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(/refusing without --yes/);
    expect(fio.err()).toContain('the form has 1 active integration');
    expect(fake!.puts).toEqual([]);
    // Refused after the form and its integrations were read, before any page of the list; also
    // with a prompter, as the command has, when prompts are off.
    expect(fake!.listRequests()).toBe(0);
    const offTerminal = run(from, { prompter: () => ({}) as never });
    expect((await failure(offTerminal.p)).message).toMatch(/refusing without confirmation/);
    expect(fake!.listRequests()).toBe(0);
    const dry = run(from, { dryRun: true, results: undefined });
    await dry.p;
    const line = JSON.parse(dry.fio.out());
    expect(line).toMatchObject({
      status: 'dry-run',
      id: 5,
      data: { p_rating: 4 },
      body: { ...answers(5), p_cv: ['https://files.example/cv5.pdf?sig=x'], p_rating: 4, completion_time: 35, data: { p_rating: 4 } },
    });
    await run(from, { yes: true }).p;
    expect(fake!.puts.length).toBe(1);
  });

  it("records each line's intent before sending; --resume sends an in-flight line only when its values are not in place", async () => {
    await start();
    const from = join(dir, 'in.ndjson');
    writeFileSync(from, '{"id": 5, "Rating": 4}\n{"id": 6, "Rating": 4}\n{"id": 7, "Rating": 4}\n');
    await run(from).p;
    const log = readFileSync(join(dir, 'r.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.filter((r) => r.status === 'sending').length).toBe(3);
    // A run killed after sending line 1 (applied) and line 2 (never arrived): the log ends in their intents.
    const [i1, i2] = [log.find((r) => r.line === 1 && r.status === 'sending'), log.find((r) => r.line === 2 && r.status === 'sending')];
    const ok3 = log.find((r) => r.line === 3 && r.status === 'ok');
    writeFileSync(join(dir, 'r.ndjson'), [i1, i2, ok3].map((r) => JSON.stringify(r)).join('\n') + '\n');
    fake!.subs.get(6)!.data.p_rating = 1;
    fake!.puts.length = 0;
    const { fio, p } = run(from, { resume: true });
    await p;
    expect(fake!.puts.map((x) => x.target)).toEqual([6]);
    expect(fio.err()).toContain('3/3 lines · 2 ok · 0 failed · 1 skipped');
    const after = readFileSync(join(dir, 'r.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(after.find((r) => r.line === 1 && r.status === 'ok')).toMatchObject({ already_applied: true });
  });

  it('a line naming a submission the form does not have fails on its own, and nothing is sent for it', async () => {
    await start({ n: 20 });
    const from = join(dir, 'in.ndjson');
    writeFileSync(from, '{"id": 5, "Rating": 4}\n{"id": 999, "Rating": 4}\n');
    const err = await failure(run(from).p);
    expect(err.exitCode).toBe(10);
    expect(fake!.puts.map((x) => x.target)).toEqual([5]);
    const log = readFileSync(join(dir, 'r.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.find((r) => r.line === 2)).toMatchObject({
      status: 'failed',
      error: 'form 42 has no submission 999 (it is not in `formctl submission list 42`)',
    });
  });
});
