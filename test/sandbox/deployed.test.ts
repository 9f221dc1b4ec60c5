// The deployed flavour over real HTTP: each behaviour of the deployed OpnForm server that the
// sandbox reproduces (docs/service.md), sharp edges included.
import { describe, expect, it } from 'vitest';
import { exportIdCode, exportIdOf, phpInt } from '../../src/sandbox/deployed.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { DEPLOYED_STYLE, boot, call, deployedFormBody, formBody, memberToken } from './helpers.js';

const boots = (opts: Parameters<typeof boot>[0] = {}) => boot({ flavor: 'deployed', ...opts });

const PROPS = [
  { id: 'name', type: 'text', name: 'Name', required: false },
  { id: 'email', type: 'email', name: 'Email', required: false },
  { id: 'rating', type: 'rating', name: 'Rating', required: false },
  { id: 'docs', type: 'files', name: 'Docs', required: false },
  { id: 'sig', type: 'signature', name: 'Signature', required: false },
];

async function newForm(sb: SandboxHandle, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await call(sb, 'POST', '/open/forms', deployedFormBody(sb.workspaceId, { properties: PROPS, ...extra }));
  if (res.status !== 200) throw new Error(`create: ${res.status} ${res.text}`);
  return res.json.form;
}

async function answerOf(sb: SandboxHandle, slug: string, values: Record<string, unknown>): Promise<void> {
  const res = await call(sb, 'POST', `/forms/${slug}/answer`, values, null);
  if (res.status !== 200) throw new Error(`answer: ${res.status} ${res.text}`);
}

async function items(sb: SandboxHandle, formId: number): Promise<any[]> {
  return (await call(sb, 'GET', `/open/forms/${formId}/submissions`)).json.data;
}

const FULL = { name: 'Grace', email: 'grace@example.com', rating: 4, docs: ['cv.pdf', 'photo.png'], sig: 'sig-1.png', completion_time: 42 };

describe('deployed flavour: submission update replaces the answer set', () => {
  it('a {data: patch} body is ignored: every answer is erased, completion_time nulled, integrations fire again', async () => {
    const sb = await boots();
    const form = await newForm(sb);
    const slack = await call(sb, 'POST', `/open/forms/${form.id}/integrations`, {
      integration_id: 'slack',
      status: 'active',
      data: { slack_webhook_url: 'https://hooks.slack.com/x' },
    });
    expect(slack.status).toBe(200);
    await answerOf(sb, form.slug, FULL);
    const [before] = await items(sb, form.id);
    expect(before.completion_time).toBe(42);
    await sb.admin.deliveries();
    const events = async () => (await call(sb, 'GET', `/open/forms/${form.id}/integrations/${slack.json.form_integration.id}/events`)).json;
    expect(await events()).toHaveLength(1);

    const put = await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${before.id}`, { data: { rating: 5 } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ type: 'success', message: 'Record successfully updated.' });
    const [after] = await items(sb, form.id);
    expect(Object.keys(after.data).sort()).toEqual(['created_at', 'id', 'status', 'submission_id']);
    expect(after.completion_time).toBeNull();
    await sb.admin.deliveries();
    expect(await events()).toHaveLength(2);
  });

  it('top-level field ids replace the stored answers; completion_time is what was sent; the data key is not read', async () => {
    const sb = await boots();
    const form = await newForm(sb);
    await answerOf(sb, form.slug, FULL);
    const [sub] = await items(sb, form.id);
    await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { rating: 5, data: { name: 'Ignored' } });
    let [got] = await items(sb, form.id);
    expect(got.data.rating).toBe(5);
    expect(got.data.name).toBeUndefined();
    expect(got.completion_time).toBeNull();
    // The full current answers sent back keep everything (files as file_url strings, the signature as its file name).
    const full = { name: 'Grace', email: 'grace@example.com', rating: 3, docs: ['cv.pdf'], sig: 'sig-1.png', completion_time: 42 };
    await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, full);
    [got] = await items(sb, form.id);
    expect(got.data).toMatchObject({ name: 'Grace', email: 'grace@example.com', rating: 3 });
    expect(got.data.docs.map((f: { file_name: string }) => f.file_name)).toEqual(['cv.pdf']);
    expect(got.data.sig).toEqual([{ file_url: expect.stringMatching(/^http:.*sig-1\.png\?/), file_name: 'sig-1.png' }]);
    expect(got.completion_time).toBe(42);
  });

  it('files survive only as strings: file_url strings keep them, objects erase them; a signature URL becomes null', async () => {
    const sb = await boots();
    const form = await newForm(sb);
    await answerOf(sb, form.slug, FULL);
    const [sub] = await items(sb, form.id);
    expect(sub.data.docs).toEqual([
      { file_url: expect.stringContaining('/cv.pdf?'), file_name: 'cv.pdf' },
      { file_url: expect.stringContaining('/photo.png?'), file_name: 'photo.png' },
    ]);
    const urls = sub.data.docs.map((f: { file_url: string }) => f.file_url);
    await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { docs: urls, sig: sub.data.sig[0].file_url });
    let [got] = await items(sb, form.id);
    expect(got.data.docs.map((f: { file_name: string }) => f.file_name)).toEqual(['cv.pdf', 'photo.png']);
    expect(got.data.sig).toEqual([]);
    await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { docs: sub.data.docs });
    [got] = await items(sb, form.id);
    expect(got.data.docs).toEqual([]);
  });

  it('a file answer keeps only files the server stored for the form: another URL or an unknown name is stored as nothing', async () => {
    const sb = await boots();
    const form = await newForm(sb);
    await answerOf(sb, form.slug, FULL);
    const [sub] = await items(sb, form.id);
    const path = `/open/forms/${form.id}/submissions/${sub.id}`;
    await call(sb, 'PUT', path, { docs: ['https://files.example.com/new.pdf', 'new.pdf', 'cv.pdf'], sig: 'other.png' });
    let [got] = await items(sb, form.id);
    expect(got.data.docs.map((f: { file_name: string }) => f.file_name)).toEqual(['cv.pdf']);
    expect(got.data.sig).toEqual([]);
    // Dropped from the answer, photo.png and the signature are still in the server's storage.
    await call(sb, 'PUT', path, { docs: ['photo.png'], sig: 'sig-1.png' });
    [got] = await items(sb, form.id);
    expect(got.data.docs.map((f: { file_name: string }) => f.file_name)).toEqual(['photo.png']);
    expect(got.data.sig.map((f: { file_name: string }) => f.file_name)).toEqual(['sig-1.png']);
  });

  it('a visible required field must be at the top level (hidden ones need not); captcha forms are always 422', async () => {
    const sb = await boots();
    const props = [
      { id: 'name', type: 'text', name: 'Name', required: true },
      { id: 'secret', type: 'text', name: 'Secret', required: true, hidden: true },
      { id: 'rating', type: 'rating', name: 'Rating', required: false },
    ];
    const form = await newForm(sb, { properties: props });
    await answerOf(sb, form.slug, { name: 'Ada', rating: 2 });
    const [sub] = await items(sb, form.id);
    const patch = await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { data: { name: 'Ada', rating: 5 } });
    expect(patch.status).toBe(422);
    expect(patch.json).toEqual({ message: 'The Name field is required.', errors: { name: ['The Name field is required.'] } });
    expect((await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { name: 'Ada', rating: 5 })).status).toBe(200);

    const captcha = await newForm(sb, { use_captcha: true });
    await answerOf(sb, captcha.slug, { name: 'Bo' });
    const [c] = await items(sb, captcha.id);
    const refused = await call(sb, 'PUT', `/open/forms/${captcha.id}/submissions/${c.id}`, { name: 'Bo' });
    expect(refused.status).toBe(422);
    expect(refused.json.errors).toEqual({ 'h-captcha-response': ['Please complete the captcha.'] });
  });

  it('a multi-select answer must be a list (update and public answer): a string is 422, null and a list pass; the spec flavour stores what was sent', async () => {
    const props = [
      { id: 'name', type: 'text', name: 'Name', required: false },
      { id: 'tags', type: 'multi_select', name: 'Tags', required: false, multi_select: { options: [{ id: 'u', name: 'Urgent' }] } },
    ];
    const sb = await boots();
    const form = await newForm(sb, { properties: props });
    await answerOf(sb, form.slug, { name: 'Ada', tags: ['Urgent'] });
    const [sub] = await items(sb, form.id);
    const put = (body: Record<string, unknown>) => call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, body);
    const refused = await put({ name: 'Ada', tags: 'Urgent' });
    expect([refused.status, refused.json]).toEqual([422, { message: 'The Tags must be an array.', errors: { tags: ['The Tags must be an array.'] } }]);
    expect((await items(sb, form.id))[0].data.tags).toEqual(['Urgent']);
    const answer = await call(sb, 'POST', `/forms/${form.slug}/answer`, { name: 'Bo', tags: 'Urgent' }, null);
    expect([answer.status, answer.json.errors]).toEqual([422, { tags: ['The Tags must be an array.'] }]);
    expect((await put({ name: 'Ada', tags: null })).status).toBe(200);
    expect((await put({ name: 'Ada', tags: '' })).status).toBe(200);
    expect((await put({ name: 'Ada', tags: ['Urgent'] })).status).toBe(200);
    expect((await items(sb, form.id))[0].data.tags).toEqual(['Urgent']);

    const spec = await boot();
    const specForm = (await call(spec, 'POST', '/open/forms', formBody(spec.workspaceId, { properties: props }))).json;
    expect((await call(spec, 'POST', `/forms/${specForm.slug}/answer`, { name: 'Bo', tags: 'Urgent' }, null)).status).toBe(200);
  });

  it('blank multi-select answers as the server reads them: "" is null, [""] and a blank among options are 422, create leaves blanks out, update stores null or []', async () => {
    const props = [
      { id: 'tags', type: 'multi_select', name: 'Tags', required: false, multi_select: { options: [{ id: 'u', name: 'Urgent' }] } },
      { id: 'name', type: 'text', name: 'Name', required: false },
      { id: 'free', type: 'multi_select', name: 'Free', required: false, allow_creation: true, multi_select: { options: [] } },
    ];
    const sb = await boots();
    const form = await newForm(sb, { properties: props });
    const post = (body: Record<string, unknown>) => call(sb, 'POST', `/forms/${form.slug}/answer`, body, null);
    const invalid = (key: string) => ({ message: `The selected ${key} is invalid.`, errors: { [key]: [`The selected ${key} is invalid.`] } });

    // Create: a blank answer ("", "  ", null, []) is not stored at all; a list holding a blank is refused.
    for (const tags of ['', '  ', null, []]) expect((await post({ name: `n${JSON.stringify(tags)}`, tags })).status).toBe(200);
    for (const item of await items(sb, form.id)) expect(item.data).not.toHaveProperty('tags');
    expect(await post({ name: 'x', tags: [''] }).then((r) => [r.status, r.json])).toEqual([422, invalid('tags.0')]);
    expect(await post({ name: 'x', tags: ['Urgent', ' '] }).then((r) => [r.status, r.json])).toEqual([422, invalid('tags.1')]);
    const text = await post({ free: ['own', ''] });
    expect([text.status, text.json.errors]).toEqual([422, { 'free.1': ['The free.1 must be a valid text.'] }]);
    expect(await items(sb, form.id)).toHaveLength(4);

    // The item errors come after every field's own errors, as Laravel adds the rules it expands from `tags.*` last.
    const required = await newForm(sb, { properties: [props[0], { ...props[1], required: true }] });
    const both = await call(sb, 'POST', `/forms/${required.slug}/answer`, { tags: [''] }, null);
    expect([both.status, both.json.message, Object.keys(both.json.errors)]).toEqual([
      422,
      'The Name field is required. (and 1 more error)',
      ['name', 'tags.0'],
    ]);

    // Update: every answer sent is stored, so "" and null become null and [] stays [].
    await post({ name: 'Ada', tags: ['Urgent'] });
    const [sub] = await items(sb, form.id);
    const put = (body: Record<string, unknown>) => call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, body);
    const stored = async () => (await items(sb, form.id)).find((i) => i.id === sub.id).data.tags;
    expect(await put({ name: 'Ada', tags: [''] }).then((r) => [r.status, r.json])).toEqual([422, invalid('tags.0')]);
    expect(await put({ name: 'Ada', tags: ['Urgent', ''] }).then((r) => [r.status, r.json])).toEqual([422, invalid('tags.1')]);
    expect(await stored()).toEqual(['Urgent']);
    for (const [tags, want] of [
      ['', null],
      [' ', null],
      [null, null],
      [[], []],
    ] as const) {
      expect((await put({ name: 'Ada', tags })).status).toBe(200);
      expect(await stored()).toEqual(want);
    }

    // A form that clears empty fields stores blanks on create too.
    const clearing = await newForm(sb, { properties: props, clear_empty_fields_on_update: true });
    await call(sb, 'POST', `/forms/${clearing.slug}/answer`, { name: 'Bo', tags: '', free: [] }, null);
    const [kept] = await items(sb, clearing.id);
    expect([kept.data.tags, kept.data.free]).toEqual([null, []]);
  });

  it('the spec flavour stores blank multi-select answers as they were sent', async () => {
    const props = [{ id: 'tags', type: 'multi_select', name: 'Tags', required: false, multi_select: { options: [{ id: 'u', name: 'Urgent' }] } }];
    const spec = await boot();
    const form = (await call(spec, 'POST', '/open/forms', formBody(spec.workspaceId, { properties: props }))).json;
    for (const tags of ['', [''], ['Urgent', ''], []]) expect((await call(spec, 'POST', `/forms/${form.slug}/answer`, { tags }, null)).status).toBe(200);
    const listed = (await call(spec, 'GET', `/open/forms/${form.id}/submissions`)).json.map((s: { data: { tags: unknown } }) => s.data.tags);
    expect(listed).toEqual([[], ['Urgent', ''], [''], '']);
    const [sub] = (await call(spec, 'GET', `/open/forms/${form.id}/submissions`)).json;
    expect((await call(spec, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { data: { tags: [''] } })).status).toBe(200);
    expect((await call(spec, 'GET', `/open/forms/${form.id}/submissions`)).json[0].data.tags).toEqual(['']);
  });

  it('is_partial: true wipes the answers on a form that takes partial submissions; a partial submission becomes completed', async () => {
    const sb = await boots();
    const form = await newForm(sb);
    await answerOf(sb, form.slug, { name: 'Half', is_partial: true });
    let [sub] = await items(sb, form.id);
    expect(sub.data.status).toBe('partial');
    expect((await call(sb, 'GET', `/open/forms/${form.id}/submissions?status=partial`)).json.data).toHaveLength(1);
    await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { name: 'Half', rating: 1 });
    [sub] = await items(sb, form.id);
    expect(sub.data.status).toBe('completed');
    // Laravel's boolean() reads false as false, and a form without partial submissions keeps its rules.
    await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { name: 'Half', rating: 2, is_partial: false });
    [sub] = await items(sb, form.id);
    expect([sub.data.name, sub.data.rating]).toEqual(['Half', 2]);
    await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { name: 'Half', rating: 3, is_partial: true });
    [sub] = await items(sb, form.id);
    expect([sub.data.name, sub.data.rating]).toEqual(['Half', 3]);
    const fetched = (await call(sb, 'GET', `/open/forms/${form.id}`)).json;
    expect((await call(sb, 'PUT', `/open/forms/${form.id}`, { ...fetched, enable_partial_submissions: true })).status).toBe(200);
    await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { name: 'Half', rating: 1, is_partial: 'yes' });
    [sub] = await items(sb, form.id);
    expect(sub.data.name).toBeUndefined();
    expect(sub.data.rating).toBeUndefined();
    expect(sub.data.status).toBe('completed');
  });

  it('answers to fields removed from the form are listed until an update drops them', async () => {
    const sb = await boots();
    const form = await newForm(sb);
    await answerOf(sb, form.slug, { name: 'Old', email: 'old@example.com' });
    const fetched = (await call(sb, 'GET', `/open/forms/${form.id}`)).json;
    const put = await call(sb, 'PUT', `/open/forms/${form.id}`, { ...fetched, properties: PROPS.filter((p) => p.id !== 'email') });
    expect(put.json).toMatchObject({ type: 'success', message: 'Form updated.' });
    let [sub] = await items(sb, form.id);
    expect(sub.data.email).toBe('old@example.com');
    await call(sb, 'PUT', `/open/forms/${form.id}/submissions/${sub.id}`, { name: 'Old', email: 'old@example.com' });
    [sub] = await items(sb, form.id);
    expect(sub.data.email).toBeUndefined();
    expect(sub.data.name).toBe('Old');
  });

  it('path ids are coerced like PHP (int) and MySQL: a UUID means its leading digits', async () => {
    const sb = await boots({ seed: 5 });
    const ids = async () => (await items(sb, sb.formId!)).map((s) => s.id);
    expect(await ids()).toEqual([5, 4, 3, 2, 1]);
    const del = await call(sb, 'DELETE', `/open/forms/${sb.formId}/submissions/4b2e9c1a-0000-4000-8000-000000000118`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ type: 'success', message: 'Record successfully removed.' });
    expect(await ids()).toEqual([5, 3, 2, 1]);
    expect((await call(sb, 'DELETE', `/open/forms/${sb.formId}/submissions/e3b0c442-0000-4000-8000-000000000117`)).status).toBe(404);
    const put = await call(sb, 'PUT', `/open/forms/${sb.formId}/submissions/2abc`, { name: 'Overwritten' });
    expect(put.status).toBe(200);
    const two = (await items(sb, sb.formId!)).find((s) => s.id === 2);
    expect(two.data.name).toBe('Overwritten');
    expect(two.data.email).toBeUndefined();
  });

  it('ability: forms-write edits answers (there is no submissions-write); the single GET is closed to tokens', async () => {
    const sb = await boots({ seed: 1 });
    const put = await call(sb, 'PUT', `/open/forms/${sb.formId}/submissions/1`, { name: 'By forms token' }, sb.tokens.forms);
    expect(put.status).toBe(200);
    const get = await call(sb, 'GET', `/open/forms/${sb.formId}/submissions/1`);
    expect(get.status).toBe(404);
    expect(get.text).toBe('{"message":""}');
  });
});

describe('deployed flavour: lists, exports', () => {
  it('list items: numeric id, UUID submission_id, data.created_at, no submitted_at; always the envelope', async () => {
    const sb = await boots({ seed: 3 });
    const res = await call(sb, 'GET', `/open/forms/${sb.formId}/submissions`);
    expect(Object.keys(res.json).sort()).toEqual(['data', 'links', 'meta']);
    expect(res.json.meta.per_page).toBe(100);
    const item = res.json.data[0];
    expect(item).toMatchObject({ id: 3, form_id: sb.formId, completion_time: expect.any(Number) });
    expect(item.submission_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(item.submitted_at).toBeUndefined();
    expect(item.data).toMatchObject({
      id: 3,
      submission_id: item.submission_id,
      status: 'completed',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect((await call(sb, 'GET', `/open/forms/${sb.formId}/submissions?per_page=0`)).json.meta.per_page).toBe(15);
    expect((await call(sb, 'GET', `/open/forms/${sb.formId}/submissions?per_page=500`)).json.meta.per_page).toBe(100);
  });

  it('the public answer names the submission by its UUID and keeps completion_time', async () => {
    const sb = await boots();
    const form = await newForm(sb);
    const res = await call(sb, 'POST', `/forms/${form.slug}/answer`, { name: 'Uma', completion_time: 12 }, null);
    const [item] = await items(sb, form.id);
    expect(res.json.submission_id).toBe(item.submission_id);
    expect(item.completion_time).toBe(12);
    expect((await call(sb, 'POST', `/forms/${form.slug}/answer`, { name: 'Uma', completion_time: 'soon' }, null)).status).toBe(422);
  });

  it('export: sync up to 1000 rows or 1000 submissionIds; above, a job whose status route is closed to tokens (the docs path does not exist)', async () => {
    const sb = await boots({ seed: 1001 });
    const path = `/open/forms/${sb.formId}/submissions/export`;
    const job = await call(sb, 'POST', path, { columns: { name: true } });
    expect(job.json).toMatchObject({ is_async: true, job_id: expect.any(String) });
    // The code's path exists but is not open to tokens (api.php:257-260, AuthenticateWithJwtOrSanctum.php:30-37).
    const closed = await call(sb, 'GET', `${path}/status/${job.json.job_id}`);
    expect([closed.status, closed.text]).toEqual([404, '{"message":""}']);
    // The docs' path is no route at all: Laravel's router answers, naming the path.
    const docs = await call(sb, 'GET', `${path}/${job.json.job_id}/status`);
    expect([docs.status, docs.json]).toEqual([404, { message: `The route ${path.slice(1)}/${job.json.job_id}/status could not be found.` }]);
    const wrong = await call(sb, 'DELETE', '/open/workspaces');
    expect([wrong.status, wrong.headers.get('allow'), wrong.json]).toEqual([
      405,
      'GET, HEAD',
      { message: 'The DELETE method is not supported for route open/workspaces. Supported methods: GET, HEAD.' },
    ]);
    const ids = Array.from({ length: 1000 }, (_, i) => i + 2);
    const csv = await call(sb, 'POST', path, { columns: { name: true }, submissionIds: ids });
    expect(csv.headers.get('content-type')).toBe('text/csv');
    const lines = csv.text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1001);
    expect(lines[0]).toBe('id,Name'); // fetch's text() drops the BOM
    // The id column holds a code standing in for Hashids::encode($submission->id) (FormExportService.php:55), never the number.
    const cells = lines.slice(1).map((l) => l.split(',')[0]!);
    expect(cells[0]).toBe(exportIdCode(1001));
    expect(cells.at(-1)).toBe(exportIdCode(2));
    expect(cells.map((c) => exportIdOf(c))).toEqual([...ids].reverse());
    expect(cells.filter((c, i) => c === String(ids[ids.length - 1 - i]))).toEqual([]);

    const over = await call(sb, 'POST', path, { columns: { name: true }, submissionIds: [...ids, 1] });
    expect(over.json.is_async).toBe(true);
    // Every id must be a submission of this form (the server's `exists` rule): a deleted one is 422.
    const gone = await call(sb, 'POST', path, { columns: { name: true }, submissionIds: [2, 999_999] });
    expect([gone.status, gone.json.errors]).toEqual([422, { 'submissionIds.1': ['The selected submissionIds.1 is invalid.'] }]);
  });
});

describe("deployed flavour: the export's id column", () => {
  it('a code for every id: 3 or more letters and digits, one per id, never the id itself, read back by exportIdOf', () => {
    const seen = new Set<string>();
    for (let id = 1; id <= 200_000; id++) {
      const code = exportIdCode(id);
      expect(code).toMatch(/^[a-zA-Z0-9]{3,}$/);
      expect(code).not.toBe(String(id));
      expect(exportIdOf(code)).toBe(id);
      seen.add(code);
    }
    expect(seen.size).toBe(200_000);
    // As a Hashids code may be, some are all digits: a client must not take digits for the id.
    expect(exportIdCode(584)).toBe('7656');
    expect(exportIdOf('not-a-code')).toBeUndefined();
  });
});

describe('deployed flavour: integrations', () => {
  it('the seeded demo form lists a webhook, a Slack and an e-mail integration; delete and events take any kind', async () => {
    const sb = await boots({ seed: 1 });
    const base = `/open/forms/${sb.formId}/integrations`;
    const list = (await call(sb, 'GET', base)).json;
    expect(list.map((i: any) => [i.id, i.integration_id, i.status])).toEqual([
      [1, 'webhook', 'inactive'],
      [2, 'slack', 'active'],
      [3, 'email', 'active'],
    ]);
    // A new answer fires the active ones: events {date, status, data}.
    await answerOf(sb, sb.formSlug!, { name: 'Eve' });
    await sb.admin.deliveries();
    const events = (await call(sb, 'GET', `${base}/3/events`)).json;
    expect(events).toEqual([{ date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/), status: 'Success', data: { sent_to: 'email' } }]);
    const del = await call(sb, 'DELETE', `${base}/2`);
    expect(del.json).toEqual({ type: 'success', message: 'Form Integration was deleted.' });
    expect((await call(sb, 'GET', base)).json.map((i: any) => i.integration_id)).toEqual(['webhook', 'email']);
  });

  it('a webhook skipped by its logic records a Success; a failed delivery an Error with what went wrong', async () => {
    const sb = await boots({ allowPrivateWebhooks: true });
    const form = await newForm(sb);
    const base = `/open/forms/${form.id}/integrations`;
    const never = { operatorIdentifier: 'and', children: [{ identifier: 'name', value: { operator: 'equals', value: 'nobody' } }] };
    const skipped = (
      await call(sb, 'POST', base, { integration_id: 'webhook', status: 'active', data: { webhook_url: 'http://127.0.0.1:9/skip' }, logic: never })
    ).json.form_integration.id;
    const failing = (await call(sb, 'POST', base, { integration_id: 'webhook', status: 'active', data: { webhook_url: 'http://127.0.0.1:9/fail' } })).json
      .form_integration.id;
    await answerOf(sb, form.slug, { name: 'Zed' });
    await sb.admin.deliveries();
    expect((await call(sb, 'GET', `${base}/${skipped}/events`)).json).toEqual([{ date: expect.any(String), status: 'Success', data: null }]);
    const [failed] = (await call(sb, 'GET', `${base}/${failing}/events`)).json;
    expect(failed).toMatchObject({ status: 'Error', data: { message: expect.stringContaining('ECONNREFUSED'), status: null, response: null } });
  });

  it('update erases an omitted secret, headers and logic; status and webhook_url are required; an unknown kind is 500', async () => {
    const sb = await boots({ seed: 1, allowPrivateWebhooks: true });
    const base = `/open/forms/${sb.formId}/integrations`;
    const logic = { operatorIdentifier: 'and', children: [{ identifier: 'name', value: { operator: 'is_not_empty', value: null } }] };
    const created = await call(sb, 'POST', base, {
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: 'http://127.0.0.1:9/a', webhook_secret: 'a-long-enough-secret', webhook_headers: { 'X-Team': 'ops' } },
      logic,
    });
    expect(created.json).toMatchObject({
      type: 'success',
      message: 'Form Integration was created.',
      form_integration: { logic, data: { webhook_secret: 'a-long-enough-secret' } },
    });
    const id = created.json.form_integration.id;
    const noStatus = await call(sb, 'PUT', `${base}/${id}`, { integration_id: 'webhook', data: { webhook_url: 'http://127.0.0.1:9/b' } });
    expect(noStatus.json.errors.status).toEqual(['The status field is required.']);
    const noUrl = await call(sb, 'PUT', `${base}/${id}`, { integration_id: 'webhook', status: 'active', data: {} });
    expect(noUrl.json.errors['data.webhook_url']).toEqual(['The webhook url field is required.']);
    const put = await call(sb, 'PUT', `${base}/${id}`, { integration_id: 'webhook', status: 'inactive', data: { webhook_url: 'http://127.0.0.1:9/b' } });
    expect(put.status).toBe(200);
    expect(put.json.form_integration).toMatchObject({
      status: 'inactive',
      logic: [],
      data: { webhook_url: 'http://127.0.0.1:9/b', webhook_secret: null, webhook_headers: {} },
    });
    expect((await call(sb, 'POST', base, { integration_id: 'carrier-pigeon', status: 'active', data: {} })).status).toBe(500);
  });
});

describe('deployed flavour: envelopes, workspaces, members, forms', () => {
  it('form create needs all 14 fields and answers 200 {type, message, form}; titles up to 255 characters', async () => {
    const sb = await boots();
    const title = 'T'.repeat(255);
    const minimal = await call(sb, 'POST', '/open/forms', formBody(sb.workspaceId));
    expect(minimal.status).toBe(422);
    expect(Object.keys(minimal.json.errors).sort()).toEqual(Object.keys(DEPLOYED_STYLE).sort());
    const created = await call(sb, 'POST', '/open/forms', deployedFormBody(sb.workspaceId, { title }));
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ type: 'success', message: expect.any(String), form: { title }, users_first_form: true });
    const long = await call(sb, 'POST', '/open/forms', deployedFormBody(sb.workspaceId, { title: `${title}x` }));
    // FormDataNormalizer cuts the title to 255 before the max:255 rule runs: a longer one is cut, never refused.
    expect(long.status).toBe(200);
    expect(long.json.form.title).toBe(title);
    const spec = await boot();
    expect((await call(spec, 'POST', '/open/forms', formBody(spec.workspaceId, { title: 'T'.repeat(61) }))).status).toBe(422);
  });

  it('workspace update without emoji clears the icon; delete answers {type, message, workspace_id}', async () => {
    const sb = await boots();
    const ws = `/open/workspaces/${sb.workspaceId}`;
    expect((await call(sb, 'PUT', ws, { name: 'Renamed' })).json.workspace.icon).toBe('');
    const extra = (await call(sb, 'POST', '/open/workspaces/create', { name: 'Extra', emoji: '📣' })).json.workspace_id;
    const del = await call(sb, 'DELETE', `/open/workspaces/${extra}`);
    expect(del.json).toEqual({ type: 'success', message: 'Workspace successfully deleted.', workspace_id: extra });
    const spec = await boot();
    expect((await call(spec, 'PUT', `/open/workspaces/${spec.workspaceId}`, { name: 'Renamed' })).json.workspace.icon).toBe('🧪');
  });

  it('members carry pivot.role; no last-admin guard on set-role, remove or leave (leave answers 200 JSON)', async () => {
    const sb = await boots();
    const ws = `/open/workspaces/${sb.workspaceId}`;
    const members = (await call(sb, 'GET', `${ws}/users`)).json;
    expect(members).toEqual([
      expect.objectContaining({ id: 1, email: 'admin@example.com', pivot: { workspace_id: sb.workspaceId, user_id: 1, role: 'admin' } }),
    ]);
    expect(members[0].role).toBeUndefined();
    await call(sb, 'POST', `${ws}/users/add`, { email: 'bea@example.com', role: 'user' });
    // The last admin demotes herself: nothing stops it.
    expect((await call(sb, 'PUT', `${ws}/users/1/update-role`, { role: 'user' })).status).toBe(200);
    const roles = (await call(sb, 'GET', `${ws}/users`)).json.map((m: any) => m.pivot.role);
    expect(roles).toEqual(['user', 'user']);
    // The only member leaves: the workspace with its forms is orphaned; she gets a new one.
    const solo = await boots();
    const leave = await call(solo, 'POST', `/open/workspaces/${solo.workspaceId}/leave`);
    expect(leave.status).toBe(200);
    expect(leave.json).toEqual({ success: true, message: 'You have left the workspace.' });
    expect((await call(solo, 'GET', '/open/workspaces')).json.map((w: any) => w.name)).toEqual(['My Workspace']);
  });

  it("rate limit per user (all of a user's tokens share it), with a separate export bucket", async () => {
    const sb = await boots({ seed: 1, rateLimit: 5, exportRateLimit: 2 });
    const bea = sb.users[1]!.token;
    expect((await call(sb, 'GET', '/open/workspaces')).status).toBe(200);
    expect((await call(sb, 'GET', '/open/workspaces', undefined, sb.tokens.readonly)).status).toBe(200);
    const exp = `/open/forms/${sb.formId}/submissions/export`;
    expect((await call(sb, 'POST', exp, { columns: { name: true } })).status).toBe(200);
    expect((await call(sb, 'POST', exp, { columns: { name: true } })).status).toBe(200);
    // The export bucket is spent before the general one; Bea has her own budget.
    const third = await call(sb, 'POST', exp, { columns: { name: true } });
    expect(third.status).toBe(429);
    expect(third.headers.get('x-ratelimit-limit')).toBe('2');
    expect((await call(sb, 'GET', '/open/workspaces', undefined, bea)).status).toBe(200);
    const fifth = await call(sb, 'GET', '/open/workspaces', undefined, sb.tokens.forms);
    expect(fifth.status).toBe(429);
    expect(fifth.headers.get('x-ratelimit-limit')).toBe('5');
  });

  it("an export answer carries the export bucket's headers, or the general limiter's when it has less left", async () => {
    const sb = await boots({ seed: 1, rateLimit: 4, exportRateLimit: 3 });
    const exp = `/open/forms/${sb.formId}/submissions/export`;
    const first = await call(sb, 'POST', exp, { columns: { name: true } });
    expect([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual(['3', '2']);
    expect((await call(sb, 'GET', '/open/workspaces')).status).toBe(200);
    expect((await call(sb, 'GET', '/open/workspaces')).status).toBe(200);
    // General: 0 left, export: 1 left: the general limiter's headers.
    const second = await call(sb, 'POST', exp, { columns: { name: true } });
    expect(second.status).toBe(200);
    expect([second.headers.get('x-ratelimit-limit'), second.headers.get('x-ratelimit-remaining')]).toEqual(['4', '0']);
  });
});

describe('deployed flavour: how a path id is read', () => {
  it.each([
    ['118', 118],
    ['4b2e9c1a-0000-4000-8000-000000000118', 4],
    ['59d3a1c2-1111-4aaa-8bbb-000000000000', 59],
    ['e3b0c442-0000-4000-8000-000000000117', 0],
    ['123e4567-e89b-12d3-a456-426614174000', 0],
    ['2026e1f3-aaaa-4bbb-8ccc-000000000000', 20260],
    ['abc', 0],
  ])('%s → %i', (raw, id) => {
    expect(phpInt(raw)).toBe(id);
  });
});

describe('deployed flavour: who may manage members and invites (WorkspacePolicy::adminAction)', () => {
  it("a non-admin, or an admin whose token lacks workspaces-write: delete and member add are worded by the policy, the others are Laravel's own 403", async () => {
    const sb = await boots();
    const user = await memberToken(sb, 'uma@example.com', 'user');
    sb.admin.createUser({ email: 'ada@example.com' });
    expect((await call(sb, 'POST', `/open/workspaces/${sb.workspaceId}/users/add`, { email: 'ada@example.com', role: 'admin' })).status).toBe(200);
    const adminNoWrite = sb.admin.createToken('ada@example.com', ['workspaces-read', 'forms-read']);
    const ws = `/open/workspaces/${sb.workspaceId}`;
    const cases: [string, string, unknown, string][] = [
      ['DELETE', ws, undefined, 'You need to be an admin of this workspace to do this.'],
      ['POST', `${ws}/users/add`, { email: 'z@example.com', role: 'user' }, 'You need to be an admin of this workspace to do this.'],
      ['PUT', `${ws}/users/1/update-role`, { role: 'user' }, 'This action is unauthorized.'],
      ['DELETE', `${ws}/users/1/remove`, undefined, 'This action is unauthorized.'],
      ['GET', `${ws}/invites`, undefined, 'This action is unauthorized.'],
      ['POST', `${ws}/invites/1/resend`, undefined, 'This action is unauthorized.'],
      ['DELETE', `${ws}/invites/1/cancel`, undefined, 'This action is unauthorized.'],
    ];
    for (const token of [user, adminNoWrite]) {
      for (const [method, path, body, message] of cases) {
        const res = await call(sb, method, path, body, token);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.json, `${method} ${path}`).toEqual({ message });
      }
    }
  });
});

describe('deployed flavour: a custom header value is measured in bytes (PHP strlen), the spec in characters', () => {
  it('200 "é" (400 bytes in UTF-8): 422 on the deployed flavour, stored by the spec flavour', async () => {
    const headers = { 'X-E': 'é'.repeat(200) };
    const body = {
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: 'https://93.184.216.34/hook', webhook_secret: null, webhook_headers: headers },
    };
    const dep = await boots();
    const depForm = await newForm(dep);
    const refused = await call(dep, 'POST', `/open/forms/${depForm.id}/integrations`, body);
    expect(refused.status).toBe(422);
    expect(refused.json.errors['data.webhook_headers']).toEqual(["Header value for 'X-E' exceeds 255 characters."]);
    const spec = await boot();
    const specForm = await call(spec, 'POST', '/open/forms', formBody(spec.workspaceId));
    expect((await call(spec, 'POST', `/open/forms/${specForm.json.id}/integrations`, body)).status).toBe(200);
  });
});

describe('deployed flavour: form bodies as the server normalises them (reviewer defect 6)', () => {
  it('strings trimmed, blanks null, tags stripped from block names, a help with no text null; the spec flavour stores what was sent', async () => {
    const sb = await boots();
    const form = await newForm(sb);
    const props = [{ id: 'name', type: 'text', name: '  <b>Full</b> name ', required: false, help: '<p></p>' }, ...PROPS.slice(1)];
    const body = deployedFormBody(sb.workspaceId, { title: '  Spaced  ', description: '  ', closed_text: ' Bye ', properties: props });
    const put = await call(sb, 'PUT', `/open/forms/${form.id}`, body);
    expect(put.status).toBe(200);
    const got = (await call(sb, 'GET', `/open/forms/${form.id}`)).json;
    expect(got.title).toBe('Spaced');
    expect(got.description).toBe(null);
    expect(got.closed_text).toBe('Bye');
    expect(got.properties[0]).toMatchObject({ name: 'Full name', help: null });

    const spec = await boot();
    const specForm = (await call(spec, 'POST', '/open/forms', formBody(spec.workspaceId, { properties: props, closed_text: ' Bye ' }))).json;
    expect(specForm.properties[0]).toMatchObject({ name: '  <b>Full</b> name ', help: '<p></p>' });
    expect(specForm.closed_text).toBe(' Bye ');
  });
});
