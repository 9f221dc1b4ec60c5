import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SandboxError, startSandbox } from '../../src/sandbox/index.js';
import { answer, boot, call, createForm, tempDir } from './helpers.js';

describe('sandbox persistence', () => {
  it('resumes state on restart: same tokens, same records, ids continue', async () => {
    const dataFile = join(await tempDir(), 'state.json');
    const first = await boot({ dataFile, seed: 3 });
    const form = await createForm(first, { title: 'Kept' });
    await answer(first, form.slug, { name: 'Ada' });
    first.admin.createUser({ email: 'kim@example.com' });
    const kim = first.admin.createToken('kim@example.com', ['workspaces-read']);
    await call(first, 'POST', `/open/workspaces/${first.workspaceId}/users/add`, { email: 'new@example.com', role: 'user' });
    await first.close();

    const second = await boot({ dataFile, seed: 3 });
    expect(second.tokens).toEqual(first.tokens);
    expect(second.workspaceId).toBe(first.workspaceId);
    // The demo form is found again, not created twice.
    expect([second.formId, second.formSlug]).toEqual([first.formId, first.formSlug]);
    const got = await call(second, 'GET', `/open/forms/${form.slug}`);
    expect(got.status).toBe(200);
    expect(got.json.title).toBe('Kept');
    expect((await call(second, 'GET', `/open/forms/${form.id}/submissions`)).json).toEqual([expect.objectContaining({ id: 4, data: { name: 'Ada' } })]);
    expect((await call(second, 'GET', '/open/workspaces', undefined, kim)).json).toEqual([]);
    expect((await call(second, 'GET', `/open/workspaces/${second.workspaceId}/invites`)).json).toHaveLength(1);
    const next = await createForm(second);
    expect(next.id).toBe(form.id + 1);
    await answer(second, next.slug, { name: 'Bo' });
    expect((await call(second, 'GET', `/open/forms/${next.id}/submissions`)).json[0].id).toBe(5);
    const forms = await call(second, 'GET', `/open/workspaces/${second.workspaceId}/forms`);
    expect(forms.json.meta.total).toBe(3);
  });

  it('writes each mutation soon after it happens, atomically, without leftover temp files', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'state.json');
    const sb = await boot({ dataFile });
    await Promise.all(Array.from({ length: 40 }, (_, i) => createForm(sb, { title: `F${i}` })));
    let state: { forms: unknown[] } = { forms: [] };
    for (let i = 0; i < 100 && state.forms.length < 40; i++) {
      await new Promise((r) => setTimeout(r, 10));
      state = JSON.parse(await readFile(dataFile, 'utf8'));
    }
    expect(state.forms).toHaveLength(40);
    await sb.close();
    expect(await readdir(dir)).toEqual(['state.json']);
    const final = JSON.parse(await readFile(dataFile, 'utf8'));
    expect(final).toMatchObject({ format: 'formctl-sandbox-state', version: 1, counters: { form: 40 } });
    expect((await stat(dataFile)).mode & 0o777).toBe(0o600);
  });

  it('at start removes temp files of dead processes (and its own pid), keeps those of live ones and unrelated files', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'state.json');
    const dead = `state.json.999999.0badc0de.tmp`;
    const mine = `state.json.${process.pid}.12345678.tmp`;
    const live = `state.json.${process.ppid}.abcdef01.tmp`;
    for (const name of [dead, mine, live, 'state.json.notes.tmp', 'other.json.999999.0badc0de.tmp']) await writeFile(join(dir, name), '{');
    const sb = await boot({ dataFile });
    await sb.close();
    expect((await readdir(dir)).sort()).toEqual([live, 'other.json.999999.0badc0de.tmp', 'state.json', 'state.json.notes.tmp'].sort());
  });

  it('answers 500 to a change it could not save, and saves it once it can', async () => {
    const dir = join(await tempDir(), 'sub');
    await mkdir(dir);
    const dataFile = join(dir, 'state.json');
    const sb = await boot({ dataFile });
    await rm(dir, { recursive: true });
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      const res = await call(sb, 'POST', '/open/workspaces/create', { name: 'Unsaved' });
      expect(res.status).toBe(500);
      expect(res.json.message).toMatch(/^The sandbox could not save its data file, so this change may not survive a restart: no such directory\.$/);
    } finally {
      warn.mockRestore();
    }
    await mkdir(dir);
    await sb.close();
    expect(JSON.parse(await readFile(dataFile, 'utf8')).workspaces.map((w: { name: string }) => w.name)).toContain('Unsaved');
  });

  it('refuses a corrupt or foreign data file with a one-line error and leaves it untouched', async () => {
    const dir = await tempDir();
    const cases: [string, RegExp][] = [
      ['{"users": [', /is not valid sandbox state: .*JSON/],
      ['', /is not valid sandbox state: the file is empty$/],
      ['{"hello": "world"}', /is not valid sandbox state: missing "format": "formctl-sandbox-state"$/],
      ['[]', /is not valid sandbox state: missing "format"/],
    ];
    for (const [i, [content, pattern]] of cases.entries()) {
      const dataFile = join(dir, `bad-${i}.json`);
      await writeFile(dataFile, content);
      const before = await stat(dataFile);
      const err = await startSandbox({ port: 0, dataFile }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SandboxError);
      const message = (err as Error).message;
      expect(message.startsWith(`Sandbox data file ${dataFile} is not valid sandbox state: `)).toBe(true);
      expect(message).toMatch(pattern);
      expect(message).not.toContain('\n');
      expect(await readFile(dataFile, 'utf8')).toBe(content);
      expect((await stat(dataFile)).mtimeMs).toBe(before.mtimeMs);
    }
  });

  it("keeps a form's removed_properties across a restart, and refuses a file where it is not a list", async () => {
    const dataFile = join(await tempDir(), 'state.json');
    const sb = await startSandbox({ port: 0, dataFile, seed: 1, rateLimit: 0 });
    const headers = { Authorization: `Bearer ${sb.tokens.all}`, 'Content-Type': 'application/json', Accept: 'application/json' };
    let put: Response;
    try {
      const form = (await (await fetch(`${sb.url}/open/forms/${sb.formId}`, { headers })).json()) as { properties: Array<{ id: string }> };
      put = await fetch(`${sb.url}/open/forms/${sb.formId}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ ...form, properties: form.properties.filter((p) => p.id !== 'comments') }),
      });
    } finally {
      await sb.close();
    }
    expect(put.status).toBe(200);
    const again = await startSandbox({ port: 0, dataFile, rateLimit: 0 });
    let got: { removed_properties: Array<{ id: string }> };
    try {
      got = (await (await fetch(`${again.url}/open/forms/${sb.formId}`, { headers })).json()) as typeof got;
    } finally {
      await again.close();
    }
    expect(got.removed_properties.map((p) => p.id)).toEqual(['comments']);
    const state = JSON.parse(await readFile(dataFile, 'utf8')) as { forms: Array<Record<string, unknown>> };
    state.forms[0]!.removed_properties = 'comments';
    await writeFile(dataFile, JSON.stringify(state));
    await expect(startSandbox({ port: 0, dataFile })).rejects.toThrow(/is not valid sandbox state: "forms\[0\]\.removed_properties" is malformed$/);
  });

  it('fails to start when the data file cannot be written, or the port is taken', async () => {
    const dataFile = join(await tempDir(), 'missing-dir', 'state.json');
    await expect(startSandbox({ port: 0, dataFile })).rejects.toThrow(new RegExp(`^Could not write sandbox data file ${dataFile}: no such directory\\.$`));
    const sb = await boot();
    const port = Number(new URL(sb.url).port);
    await expect(startSandbox({ port })).rejects.toThrow(`Port 127.0.0.1:${port} is in use.`);
    // An IPv6 address written as in a URL: the way to write it instead.
    await expect(startSandbox({ port: 0, host: '[::1]' })).rejects.toThrow('write an IPv6 address without brackets (--host ::1).');
    await expect(startSandbox({ port: -1 })).rejects.toThrow('Invalid sandbox option port: -1 (expected an integer from 0 to 65535).');
  });
});
