import { describe, expect, it } from 'vitest';
import { answer, boot, call, createForm } from './helpers.js';

describe('sandbox public answers', () => {
  it('stores answers keyed by property id and ignores unknown keys', async () => {
    const now = Date.UTC(2025, 5, 6, 7, 8, 9);
    const sb = await boot({ now: () => now });
    const form = await createForm(sb, {
      properties: [
        { id: 'name', type: 'text', name: 'Name', required: true },
        { id: 'intro', type: 'nf-text', name: 'Intro', required: true },
        { id: 'secret', type: 'text', name: 'Secret', required: true, hidden: true },
      ],
    });
    const first = await answer(sb, form.slug, { name: 'Ada', other: 'dropped', intro: 'dropped too' });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ type: 'success', message: 'Form submission saved.', submission_id: '1', is_first_submission: true, redirect: false });
    const byId = await answer(sb, String(form.id), { name: 'Bea' });
    expect(byId.json).toMatchObject({ submission_id: '2', is_first_submission: false });
    const list = await call(sb, 'GET', `/open/forms/${form.id}/submissions`);
    expect(list.json).toEqual([
      { id: 2, submission_id: '2', submitted_at: '2025-06-06T07:08:09.000Z', data: { name: 'Bea' } },
      { id: 1, submission_id: '1', submitted_at: '2025-06-06T07:08:09.000Z', data: { name: 'Ada' } },
    ]);
  });

  it('answers 422 for missing required fields', async () => {
    const sb = await boot();
    const form = await createForm(sb, {
      properties: [
        { id: 'name', type: 'text', name: 'Name', required: true },
        { id: 'tags', type: 'multi_select', name: 'Tags', required: true },
        { id: 'note', type: 'text', name: 'Note' },
      ],
    });
    const res = await answer(sb, form.slug, { name: '  ', tags: [], note: 'x' });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      message: 'The Name field is required. (and 1 more error)',
      errors: { name: ['The Name field is required.'], tags: ['The Tags field is required.'] },
    });
  });

  it('refuses drafts, closed forms, passed closes_at and full forms with 403', async () => {
    let now = Date.UTC(2025, 0, 1);
    const sb = await boot({ now: () => now });
    const draft = await createForm(sb, { visibility: 'draft' });
    const closed = await createForm(sb, { visibility: 'closed' });
    const timed = await createForm(sb, { closes_at: '2025-01-01T01:00:00Z' });
    const capped = await createForm(sb, { max_submissions_count: 1 });
    expect((await answer(sb, draft.slug, { name: 'x' })).json).toEqual({ message: 'This form is a draft and does not accept submissions.' });
    const c = await answer(sb, closed.slug, { name: 'x' });
    expect(c.status).toBe(403);
    expect(c.json).toEqual({ message: 'This form is closed and does not accept submissions.' });
    expect((await answer(sb, timed.slug, { name: 'x' })).status).toBe(200);
    now += 3_600_000;
    const late = await answer(sb, timed.slug, { name: 'x' });
    expect(late.status).toBe(403);
    expect(late.json).toEqual({ message: 'This form is closed and does not accept submissions.' });
    expect((await answer(sb, capped.slug, { name: 'x' })).status).toBe(200);
    const full = await answer(sb, capped.slug, { name: 'y' });
    expect(full.status).toBe(403);
    expect(full.json).toEqual({ message: 'This form has reached its maximum number of submissions.' });
  });
});

describe('sandbox share page', () => {
  it('serves share_url as an escaped HTML page that counts views; drafts are not found', async () => {
    const sb = await boot();
    const form = await createForm(sb, { title: '<b>Hi</b> & bye' });
    const page = await fetch(form.share_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<h1>&#60;b&#62;Hi&#60;/b&#62; &#38; bye</h1>');
    expect(html).not.toContain('<b>Hi');
    expect(html).toContain(`curl -X POST ${sb.url}/forms/${form.slug}/answer`);
    expect(html).toContain('<li><code>name</code> Name (text) — required</li>');
    expect((await call(sb, 'GET', `/open/forms/${form.id}`)).json.views_count).toBe(1);
    const draft = await createForm(sb, { visibility: 'draft' });
    const hidden = await fetch(draft.share_url);
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ message: 'Form not found.' });
  });
});

describe('sandbox submissions API', () => {
  it('lists a bare array by default and a Laravel page when page or per_page is given', async () => {
    const sb = await boot({ seed: 150 });
    const path = `/open/forms/${sb.formId}/submissions`;
    const bare = await call(sb, 'GET', path);
    expect(Array.isArray(bare.json)).toBe(true);
    expect(bare.json).toHaveLength(150);
    expect(bare.json[0].id).toBe(150);
    const paged = await call(sb, 'GET', `${path}?page=2`);
    expect(paged.json.meta).toMatchObject({ current_page: 2, per_page: 100, total: 150, from: 101, to: 150, last_page: 2 });
    expect(paged.json.data[0].id).toBe(50);
    expect(paged.json.links.next).toBeNull();
    const small = await call(sb, 'GET', `${path}?per_page=2`);
    expect(small.json.data.map((s: { id: number }) => s.id)).toEqual([150, 149]);
    expect(small.json.meta).toMatchObject({ current_page: 1, per_page: 2, last_page: 75 });
    expect(small.json.meta.links.map((l: { label: string }) => l.label)).toEqual([
      '&laquo; Previous',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '...',
      '74',
      '75',
      'Next &raquo;',
    ]);
    const capped = await call(sb, 'GET', `${path}?per_page=1000`);
    expect(capped.json.meta.per_page).toBe(100);
    const search = await call(sb, 'GET', `${path}?search=GRACE`);
    expect(search.json.length).toBe(22);
    expect(search.json.every((s: { data: { name: string } }) => s.data.name === 'Grace Hopper')).toBe(true);
    expect((await call(sb, 'GET', `${path}?status=partial`)).json).toEqual([]);
  });

  it('patches data (merge) with submissions-write, validating keys and required fields', async () => {
    const sb = await boot();
    const form = await createForm(sb);
    await answer(sb, form.slug, { name: 'Ada', email: 'ada@example.com' });
    const path = `/open/forms/${form.id}/submissions/1`;
    const ok = await call(sb, 'PUT', path, { data: { email: 'new@example.com' } });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({
      message: 'Record successfully updated.',
      data: { id: 1, submission_id: '1', submitted_at: expect.any(String), data: { name: 'Ada', email: 'new@example.com' } },
    });
    const bad = await call(sb, 'PUT', path, { data: { nope: 1, name: '' } });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ 'data.nope': ["'nope' is not a field of this form."], 'data.name': ['The Name field is required.'] });
    const noData = await call(sb, 'PUT', path, { name: 'top-level' });
    expect(noData.status).toBe(422);
    expect(noData.json.errors).toEqual({ data: ['The data field is required and must be an object of field values.'] });
    const missing = await call(sb, 'PUT', `/open/forms/${form.id}/submissions/99`, { data: {} });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: 'Submission not found.' });
  });

  it('deletes a submission with forms-write', async () => {
    const sb = await boot();
    const form = await createForm(sb);
    await answer(sb, form.slug, { name: 'Ada' });
    const denied = await call(sb, 'DELETE', `/open/forms/${form.id}/submissions/1`, undefined, sb.tokens.readonly);
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('This action requires the forms-write ability, which this token does not have.');
    const del = await call(sb, 'DELETE', `/open/forms/${form.id}/submissions/1`, undefined, sb.tokens.forms);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ message: 'Record successfully removed.' });
    expect((await call(sb, 'DELETE', `/open/forms/${form.id}/submissions/1`)).status).toBe(404);
    expect((await call(sb, 'GET', `/open/forms/${form.id}/submissions`)).json).toEqual([]);
    const summary = await call(sb, 'GET', `/open/forms/${form.id}`);
    expect(summary.json.submissions_count).toBe(0);
  });
});
