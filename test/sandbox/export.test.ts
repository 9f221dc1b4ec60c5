import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { answer, boot, call, createForm, deployedFormBody, tempDir } from './helpers.js';
import { FLAVORS } from '../helpers/sandbox.js';
import { exportIdCode } from '../../src/sandbox/deployed.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';

async function exportRaw(sb: SandboxHandle, formId: number, columns: Record<string, unknown>, token: string | null = sb.tokens.all) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${sb.url}/open/forms/${formId}/submissions/export`, { method: 'POST', headers, body: JSON.stringify({ columns }) });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('sandbox sync export', () => {
  it('streams a CSV with BOM, id first, requested columns in order, created_at last, names as headers', async () => {
    const now = Date.UTC(2025, 6, 1, 9, 30, 59);
    const sb = await boot({ now: () => now });
    const form = await createForm(sb, {
      title: 'Survey',
      properties: [
        { id: 'name', type: 'text', name: 'Name', required: true },
        { id: 'age', type: 'number', name: 'Age (years)' },
        { id: 'tags', type: 'multi_select', name: 'Tags' },
        { id: 'hr', type: 'nf-divider', name: 'Divider' },
      ],
    });
    await answer(sb, form.slug, { name: 'Ada, Countess', age: 36, tags: ['math', 'poetry'] });
    await answer(sb, form.slug, { name: 'Say "hi"\nthere' });
    const { res, bytes } = await exportRaw(sb, form.id, { created_at: true, tags: true, name: true, age: false, hr: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${form.slug}-submission-data.csv"`);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.toString('utf8')).toBe(
      '\uFEFFid,Tags,Name,created_at\n' + '2,,"Say ""hi""\nthere",2025-07-01 09:30\n' + '1,"math, poetry","Ada, Countess",2025-07-01 09:30\n',
    );
    const age = await exportRaw(sb, form.id, { age: true });
    // docs/service-details.md, Export: the deployed header strip is greedy, so "Age (years)" exports as "Age".
    expect(age.bytes.toString('utf8')).toBe('\uFEFFid,Age\n2,\n1,36\n');
  });

  it('validates columns with dotted field paths', async () => {
    const sb = await boot();
    const form = await createForm(sb);
    const missing = await call(sb, 'POST', `/open/forms/${form.id}/submissions/export`, {});
    expect(missing.status).toBe(422);
    expect(missing.json.errors).toEqual({ columns: ['The columns field is required and must be an object of column ids to true/false.'] });
    const bad = await call(sb, 'POST', `/open/forms/${form.id}/submissions/export`, { columns: { nope: true, name: 'yes', created_at: true } });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      'columns.nope': ["'nope' is not a column of this form (use a property id, created_at, status or meta.attribution.<parameter>)."],
      'columns.name': ['The columns.name field must be true or false.'],
    });
    const noFormsRead = sb.admin.createToken('admin@example.com', ['workspaces-read']);
    const noAbility = await call(sb, 'POST', `/open/forms/${form.id}/submissions/export`, { columns: { name: true } }, noFormsRead);
    expect(noAbility.status).toBe(403);
    expect(noAbility.json).toEqual({ message: 'This action requires the forms-read ability, which this token does not have.' });
  });
});

describe.each(FLAVORS)('export columns the deployed server takes, and removed_properties (%s flavour)', (flavor) => {
  const FIELDS = [
    { id: 'name', type: 'text', name: 'Name', required: true },
    { id: 'note', type: 'text', name: 'Note' },
    { id: 'hr', type: 'nf-divider', name: 'Divider' },
    { id: 'ms', type: 'text', name: 'Marital status' },
  ];
  const deployed = flavor === 'deployed';
  const idCell = (id: number) => (deployed ? exportIdCode(id) : String(id));

  async function setup() {
    const sb = await boot({ flavor, now: () => Date.UTC(2025, 6, 1, 9, 30) });
    const created = await call(sb, 'POST', '/open/forms', deployedFormBody(sb.workspaceId, { title: 'Cols', properties: FIELDS }));
    const form = deployed ? created.json.form : created.json;
    // A new form has none (the column's default, OpnForm api/database/migrations/2022_08_18_133641_add_removed_properties_to_forms.php:21-23).
    expect(form.removed_properties).toEqual([]);
    await answer(sb, form.slug, { name: 'Ada', note: 'first', ms: 'single' });
    // The update drops the field "note" (and the divider, which is never listed as removed).
    const { id: _id, slug: _slug, removed_properties: _r, ...rest } = form;
    const put = await call(sb, 'PUT', `/open/forms/${form.id}`, { ...rest, properties: [FIELDS[0], FIELDS[3]] });
    expect(put.status).toBe(200);
    return { sb, form };
  }

  it('a form update lists the fields it drops in removed_properties, kept by later updates (FormUpdateService.php:21-27)', async () => {
    const { sb, form } = await setup();
    const got = await call(sb, 'GET', `/open/forms/${form.id}`);
    expect(got.json.removed_properties).toEqual([FIELDS[1]]);
    // Given in a body, it is not taken; a later update that drops another field adds it.
    const { id: _id, slug: _slug, ...rest } = got.json;
    await call(sb, 'PUT', `/open/forms/${form.id}`, { ...rest, removed_properties: [], properties: [FIELDS[0]] });
    expect((await call(sb, 'GET', `/open/forms/${form.id}`)).json.removed_properties).toEqual([FIELDS[1], FIELDS[3]]);
  });

  it('takes status, meta.attribution.<parameter> and removed field ids; writes the removed field under its name and an empty attribution', async () => {
    const { sb, form } = await setup();
    const { res, bytes } = await exportRaw(sb, form.id, { note: true, 'meta.attribution.utm_source': true, created_at: true, name: true, status: true });
    expect(res.status).toBe(200);
    // `status` picks the first answer key that holds it on the deployed server ("Marital status (ms)", FormExportService.php:64);
    // the spec flavour picks a field by its id, and none is "status".
    const header = deployed ? 'id,Note,utm_source,Name,Marital status,created_at' : 'id,Note,utm_source,Name,created_at';
    const row = deployed ? `${idCell(1)},first,,Ada,single,2025-07-01 09:30` : `${idCell(1)},first,,Ada,2025-07-01 09:30`;
    expect(bytes.toString('utf8')).toBe(`\uFEFF${header}\n${row}\n`);
  });

  it('a form that takes partial submissions gets a status column last, asked for or not (FormExportService.php:75-78)', async () => {
    const { sb, form } = await setup();
    const got = (await call(sb, 'GET', `/open/forms/${form.id}`)).json;
    const { id: _id, slug: _slug, ...rest } = got;
    expect((await call(sb, 'PUT', `/open/forms/${form.id}`, { ...rest, enable_partial_submissions: true })).status).toBe(200);
    const { bytes } = await exportRaw(sb, form.id, { created_at: true, name: true });
    expect(bytes.toString('utf8')).toBe(`\uFEFFid,Name,created_at,status\n${idCell(1)},Ada,2025-07-01 09:30,Completed\n`);
  });

  it("refuses any other key with 422, in the deployed server's words on that flavour (FormSubmissionExportRequest.php:36-42)", async () => {
    const { sb, form } = await setup();
    const bad = await call(sb, 'POST', `/open/forms/${form.id}/submissions/export`, { columns: { name: true, 'meta.attribution.utm_nope': true, Name: true } });
    expect(bad.status).toBe(422);
    if (deployed) expect(bad.json.errors).toEqual({ columns: ['The columns contain invalid values: meta.attribution.utm_nope, Name'] });
    else expect(Object.keys(bad.json.errors)).toEqual(['columns.meta.attribution.utm_nope', 'columns.Name']);
  });
});

describe('sandbox async export', () => {
  it('moves queued → processing → completed on both status paths and serves a byte-identical file without auth', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'state.json');
    const clock = Date.UTC(2025, 0, 2, 3, 4, 5);
    const columns = { comments: true, name: true, rating: false, created_at: true };

    const sb = await boot({ dataFile, seed: 1200, exportAsyncThreshold: 2, exportJobStepMs: 250, now: () => clock });
    // The job's steps wait on the sandbox's timers: this test moves them (only setTimeout is faked),
    // so each state is seen however slowly a loaded machine runs the requests in between.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let final: any;
    const seen: string[] = [];
    const progress: number[] = [];
    try {
      const start = await call(sb, 'POST', `/open/forms/${sb.formId}/submissions/export`, { columns });
      expect(start.status).toBe(200);
      expect(start.json).toEqual({ message: 'Export started. Large export will be processed in the background.', job_id: expect.any(String), is_async: true });
      const job = start.json.job_id as string;
      expect(job).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const status = async () => {
        const docs = await call(sb, 'GET', `/open/forms/${sb.formId}/submissions/export/${job}/status`);
        expect(docs.status).toBe(200);
        if (seen.at(-1) !== docs.json.status) seen.push(docs.json.status);
        progress.push(docs.json.progress);
        return docs.json;
      };
      expect((await status()).status).toBe('queued');
      // One step: the job starts; it writes the file, yielding between chunks, up to 90 %.
      await vi.advanceTimersByTimeAsync(250);
      while ((await status()).progress < 90) await new Promise((r) => setImmediate(r));
      expect(seen.at(-1)).toBe('processing');
      // Another step: completed.
      await vi.advanceTimersByTimeAsync(250);
      final = await status();
    } finally {
      vi.useRealTimers();
    }
    const job = final.job_id as string;
    expect(seen).toEqual(['queued', 'processing', 'completed']);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(final).toEqual({
      job_id: job,
      status: 'completed',
      progress: 100,
      processed_submissions: 1200,
      total_submissions: 1200,
      file_url: expect.stringMatching(new RegExp(`^${sb.url}/exports/${job}\\?token=[A-Za-z0-9_-]+$`)),
      error_message: null,
      expires_at: '2025-01-03T03:04:05.000Z',
      created_at: '2025-01-02T03:04:05.000Z',
      updated_at: '2025-01-02T03:04:05.000Z',
    });
    const code = await call(sb, 'GET', `/open/forms/${sb.formId}/submissions/export/status/${job}`);
    expect(code.json).toEqual(final);

    const download = await fetch(final.file_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('text/csv');
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${sb.formSlug}-submission-data.csv"`);
    const asyncBytes = Buffer.from(await download.arrayBuffer());
    expect(Number(download.headers.get('content-length'))).toBe(asyncBytes.length);
    expect((await fetch(final.file_url.replace(/token=.*/, 'token=wrong'))).status).toBe(404);
    await sb.close();

    // Same state, threshold raised: the sync export of the very same form must give the same bytes.
    const again = await boot({ dataFile, exportAsyncThreshold: 5000, now: () => clock });
    const sync = await exportRaw(again, sb.formId!, columns);
    expect(sync.res.headers.get('content-type')).toBe('text/csv');
    expect(sync.bytes.length).toBeGreaterThan(40_000);
    expect(sync.bytes.equals(asyncBytes)).toBe(true);
    expect(asyncBytes.toString('utf8').split('\n')).toHaveLength(1202);
  });

  it('answers 404 for unknown or expired jobs and 410 for an expired file link', async () => {
    let now = Date.UTC(2025, 0, 1);
    const sb = await boot({ seed: 3, exportAsyncThreshold: 2, exportJobStepMs: 5, now: () => now });
    const unknown = await call(sb, 'GET', `/open/forms/${sb.formId}/submissions/export/nope/status`);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ message: 'Export job not found or has expired.' });
    const start = await call(sb, 'POST', `/open/forms/${sb.formId}/submissions/export`, { columns: { name: true } });
    const job = start.json.job_id;
    let status: any;
    for (let i = 0; i < 100 && status?.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 5));
      status = (await call(sb, 'GET', `/open/forms/${sb.formId}/submissions/export/${job}/status`)).json;
    }
    expect(status.status).toBe('completed');
    // Another form's path does not reveal the job.
    const other = await createForm(sb);
    expect((await call(sb, 'GET', `/open/forms/${other.id}/submissions/export/${job}/status`)).status).toBe(404);
    now += 3 * 3_600_000;
    expect((await call(sb, 'GET', `/open/forms/${sb.formId}/submissions/export/${job}/status`)).status).toBe(404);
    expect((await fetch(status.file_url)).status).toBe(200);
    now += 24 * 3_600_000;
    const expired = await fetch(status.file_url);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toEqual({ message: 'This export link has expired.' });
  });
});
