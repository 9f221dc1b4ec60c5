import { describe, expect, it } from 'vitest';
import { boot, call, createForm, deployedFormBody, formBody } from './helpers.js';

const SUMMARY_KEYS = [
  'id',
  'slug',
  'title',
  'visibility',
  'tags',
  'views_count',
  'submissions_count',
  'created_at',
  'updated_at',
  'last_edited_human',
  'closes_at',
  'is_closed',
  'max_submissions_count',
  'max_number_of_submissions_reached',
  'is_pro',
  'workspace_id',
  'share_url',
];

/** The 14 update-required fields taken from a fetched form: those of a complete create body but the workspace. */
function updateBody(form: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(deployedFormBody(0)).filter((k) => k !== 'workspace_id');
  return Object.fromEntries(keys.map((k) => [k, form[k]]));
}

describe('sandbox forms', () => {
  it('creates a form (201) with the create defaults for the style fields', async () => {
    const now = Date.UTC(2025, 2, 3, 4, 5, 6);
    const sb = await boot({ now: () => now });
    const res = await call(sb, 'POST', '/open/forms', formBody(sb.workspaceId));
    expect(res.status).toBe(201);
    const form = res.json;
    expect(form).toMatchObject({
      id: 1,
      workspace_id: sb.workspaceId,
      title: 'Contact',
      visibility: 'public',
      language: 'en',
      theme: 'default',
      presentation_style: 'classic',
      width: 'centered',
      size: 'md',
      border_radius: 'small',
      dark_mode: 'auto',
      color: '#3B82F6',
      uppercase_labels: false,
      no_branding: false,
      transparent_background: false,
      tags: [],
      closes_at: null,
      max_submissions_count: null,
      submissions_count: 0,
      is_closed: false,
      created_at: '2025-03-03T04:05:06.000Z',
      updated_at: '2025-03-03T04:05:06.000Z',
      last_edited_human: 'just now',
      properties: formBody(1).properties,
    });
    expect(form.slug).toMatch(/^contact-[0-9a-f]{6}$/);
    expect(form.share_url).toBe(`${sb.url}/forms/${form.slug}`);
  });

  it('stores the further optional attributes the deployed server keeps (settings, translations…) across updates', async () => {
    const sb = await boot();
    const form = await createForm(sb, { settings: { navigation_arrows: true }, description: 'Say hi' });
    expect(form.settings).toEqual({ navigation_arrows: true });
    const res = await call(sb, 'PUT', `/open/forms/${form.id}`, {
      ...updateBody(form),
      settings: { navigation_arrows: false, auto_next: true },
      translations: [],
    });
    expect(res.status).toBe(200);
    expect(res.json.settings).toEqual({ navigation_arrows: false, auto_next: true });
    expect(res.json.description).toBe('Say hi');
    const bad = await call(sb, 'PUT', `/open/forms/${form.id}`, { ...updateBody(form), settings: 'on', translations: {} });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      settings: ['The settings field must be an object.'],
      translations: ['The translations field must be an array.'],
    });
  });

  it('validates create: required fields, title ≤ 60, enums, language, properties', async () => {
    const sb = await boot();
    const missing = await call(sb, 'POST', '/open/forms', {});
    expect(missing.status).toBe(422);
    expect(missing.json.errors).toEqual({
      workspace_id: ['The workspace id field is required.'],
      title: ['The title field is required.'],
      visibility: ['The visibility field is required.'],
      language: ['The language field is required.'],
      properties: ['The properties field is required.'],
    });
    expect(missing.json.message).toBe('The workspace id field is required. (and 4 more errors)');

    const bad = await call(
      sb,
      'POST',
      '/open/forms',
      formBody(sb.workspaceId, {
        title: 'x'.repeat(61),
        visibility: 'hidden',
        language: 'english',
        theme: 'dark',
        size: 'xl',
        color: 'blue',
        no_branding: 'yes',
        properties: [{ id: 'a', type: 'text', name: 'A' }, { id: 'a', type: 'text', name: 'B' }, { type: 'text' }],
      }),
    );
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      title: ['The title field must not be greater than 60 characters.'],
      visibility: ['The selected visibility is invalid. Allowed: public, draft, closed.'],
      language: [expect.stringMatching(/^The selected language is invalid\. Use a two-letter code: ar, bn, .*, zh\.$/)],
      theme: ['The selected theme is invalid. Allowed: default, simple, notion, minimal, transparent.'],
      size: ['The selected size is invalid. Allowed: sm, md, lg.'],
      color: ['The color field must be a hex colour such as #3B82F6.'],
      no_branding: ['The no branding field must be true or false.'],
      'properties.1.id': ["The form block id 'a' is used more than once."],
      'properties.2.id': ['The form block number 3 is missing an id.'],
      'properties.2.name': ['The form block number 3 is missing a name.'],
    });
    const sixty = await call(sb, 'POST', '/open/forms', formBody(sb.workspaceId, { title: 'é'.repeat(60) }));
    expect(sixty.status).toBe(201);
    const unknownWs = await call(sb, 'POST', '/open/forms', formBody(999));
    expect(unknownWs.status).toBe(422);
    expect(unknownWs.json.errors).toEqual({ workspace_id: ['The selected workspace id is invalid.'] });
  });

  it('gets a form by numeric id or by slug', async () => {
    const sb = await boot();
    const form = await createForm(sb);
    const byId = await call(sb, 'GET', `/open/forms/${form.id}`);
    const bySlug = await call(sb, 'GET', `/open/forms/${form.slug}`);
    expect(byId.status).toBe(200);
    expect(bySlug.json).toEqual(byId.json);
    expect(byId.json.properties).toHaveLength(2);
  });

  it('lists workspace forms as Laravel pages of summaries without properties, newest edit first', async () => {
    let now = Date.UTC(2025, 0, 1);
    const sb = await boot({ now: () => now });
    const ids: number[] = [];
    for (let i = 1; i <= 12; i++) {
      now += 1000;
      ids.push((await createForm(sb, { title: `Form ${i}` })).id);
    }
    const first = await call(sb, 'GET', `/open/workspaces/${sb.workspaceId}/forms`);
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(10);
    expect(Object.keys(first.json.data[0])).toEqual(SUMMARY_KEYS);
    expect(first.json.data.map((f: { title: string }) => f.title).slice(0, 3)).toEqual(['Form 12', 'Form 11', 'Form 10']);
    const base = `${sb.url}/open/workspaces/${sb.workspaceId}/forms`;
    expect(first.json.links).toEqual({ first: `${base}?page=1`, last: `${base}?page=2`, prev: null, next: `${base}?page=2` });
    expect(first.json.meta).toMatchObject({ current_page: 1, from: 1, last_page: 2, path: base, per_page: 10, to: 10, total: 12 });
    expect(first.json.meta.links.map((l: { label: string }) => l.label)).toEqual(['&laquo; Previous', '1', '2', 'Next &raquo;']);

    // Editing a form moves it to the top.
    now += 1000;
    const oldest = (await call(sb, 'GET', `/open/forms/${ids[0]}`)).json;
    await call(sb, 'PUT', `/open/forms/${ids[0]}`, updateBody(oldest));
    const page = await call(sb, 'GET', `/open/workspaces/${sb.workspaceId}/forms?per_page=5&page=3`);
    expect(page.json.data.map((f: { title: string }) => f.title)).toEqual(['Form 3', 'Form 2']);
    expect(page.json.meta).toMatchObject({ current_page: 3, from: 11, to: 12, last_page: 3, per_page: 5 });
    expect(page.json.links.prev).toBe(`${base}?per_page=5&page=2`);
    const top = await call(sb, 'GET', `/open/workspaces/${sb.workspaceId}/forms?per_page=1`);
    expect(top.json.data[0].title).toBe('Form 1');
    const clamped = await call(sb, 'GET', `/open/workspaces/${sb.workspaceId}/forms?per_page=500`);
    expect(clamped.json.meta.per_page).toBe(100);
  });

  it('updates a form only with all 14 required fields and bumps updated_at', async () => {
    let now = Date.UTC(2025, 0, 1);
    const sb = await boot({ now: () => now });
    const form = await createForm(sb, { description: 'kept' });
    const missing = await call(sb, 'PUT', `/open/forms/${form.id}`, { title: 'Only a title' });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.json.errors)).toEqual([
      'visibility',
      'language',
      'theme',
      'presentation_style',
      'width',
      'size',
      'border_radius',
      'dark_mode',
      'color',
      'uppercase_labels',
      'no_branding',
      'transparent_background',
      'properties',
    ]);
    expect(missing.json.errors.theme).toEqual(['The theme field is required.']);
    const empty = await call(sb, 'PUT', `/open/forms/${form.id}`, { ...updateBody(form), properties: [] });
    expect(empty.status).toBe(422);
    expect(empty.json.errors).toEqual({ properties: ['The properties field must contain at least one property.'] });
    const unchanged = await call(sb, 'GET', `/open/forms/${form.id}`);
    expect(unchanged.json.properties).toHaveLength(2);

    now += 60_000;
    const body = { ...form, title: 'Renamed', theme: 'notion', dark_mode: 'dark', visibility: 'draft' };
    const ok = await call(sb, 'PUT', `/open/forms/${form.id}`, body);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({
      id: form.id,
      slug: form.slug,
      title: 'Renamed',
      theme: 'notion',
      dark_mode: 'dark',
      visibility: 'draft',
      description: 'kept',
    });
    expect(ok.json.updated_at).toBe('2025-01-01T00:01:00.000Z');
    expect(ok.json.created_at).toBe(form.created_at);
    now += 120_000;
    const later = await call(sb, 'GET', `/open/forms/${form.id}`);
    expect(later.json.last_edited_human).toBe('2 minutes ago');
  });

  it('deletes a form and lists full forms on the deprecated endpoint', async () => {
    const sb = await boot();
    const a = await createForm(sb, { title: 'A' });
    const b = await createForm(sb, { title: 'B' });
    const all = await call(sb, 'GET', '/open/forms');
    expect(all.status).toBe(200);
    expect(all.json.map((f: { title: string }) => f.title)).toEqual(['A', 'B']);
    expect(all.json[0].properties).toHaveLength(2);
    const del = await call(sb, 'DELETE', `/open/forms/${a.id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ message: 'Form was deleted.' });
    expect((await call(sb, 'GET', `/open/forms/${a.id}`)).status).toBe(404);
    expect((await call(sb, 'DELETE', `/open/forms/${a.id}`)).status).toBe(404);
    expect((await call(sb, 'GET', '/open/forms')).json.map((f: { id: number }) => f.id)).toEqual([b.id]);
  });

  it('reports closed and full forms in the computed fields', async () => {
    let now = Date.UTC(2025, 0, 1);
    const sb = await boot({ now: () => now });
    const form = await createForm(sb, { closes_at: '2025-01-02T00:00:00Z', max_submissions_count: 1 });
    expect(form).toMatchObject({ closes_at: '2025-01-02T00:00:00.000Z', is_closed: false, max_number_of_submissions_reached: false });
    await call(sb, 'POST', `/forms/${form.slug}/answer`, { name: 'x' }, null);
    now += 2 * 86_400_000;
    const list = await call(sb, 'GET', `/open/workspaces/${sb.workspaceId}/forms`);
    expect(list.json.data[0]).toMatchObject({ is_closed: true, submissions_count: 1, max_number_of_submissions_reached: true, max_submissions_count: 1 });
  });
});
