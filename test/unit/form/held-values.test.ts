import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formApplyRun } from '../../../src/commands/form/apply.js';
import { formCreateRun } from '../../../src/commands/form/create.js';
import { formEditRun } from '../../../src/commands/form/edit.js';
import { readFileSync } from 'node:fs';
import { formLocker } from '../../../src/forms/lock.js';
import { formRestoreRun } from '../../../src/commands/form/restore.js';
import { formUpdateRun } from '../../../src/commands/form/update.js';
import { CliError } from '../../../src/errors.js';
import { holds } from '../../../src/forms/safe-update.js';
import { ApiClient } from '../../../src/api/client.js';
import { json, startStubServer } from '../../helpers/http.js';
import { fakeIO } from '../../helpers/io.js';
import { type FormStub, sampleForm, startFormStub, tempDir } from './fixtures.js';

let tmp: ReturnType<typeof tempDir>;
let stub: FormStub | undefined;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  tmp.cleanup();
});

let tick = 0;
const now = () => new Date(Date.UTC(2025, 2, 4, 5, 6, 7, tick++));
const codeOf = (e: unknown) => (e instanceof CliError ? e.exitCode : -1);
const backupDir = async (id: number) => join(tmp.dir, 'backups', String(id));

function update(s: FormStub, io: ReturnType<typeof fakeIO>, o: Partial<Parameters<typeof formUpdateRun>[0]> = {}) {
  return formUpdateRun({ io: io.io, api: async () => s.client, backupDir, now, form: '42', validate: true, ...o });
}

const TITLE_70 = 'A'.repeat(70);

describe('local checks cover only what the change touches', () => {
  it('a 70-character title the service holds does not block --visibility draft; it is sent back as it is', async () => {
    stub = await startFormStub({ form: sampleForm({ title: TITLE_70 }) });
    const io = fakeIO();
    await update(stub, io, { visibility: 'draft' });
    const body = JSON.parse(stub.puts()[0]!.body);
    expect(body.title).toBe(TITLE_70);
    expect(body.visibility).toBe('draft');
    expect(io.err()).toBe('');
  });

  it('a 255-character held title passes too; a new title is still checked against 60', async () => {
    stub = await startFormStub({ form: sampleForm({ title: 'B'.repeat(255) }) });
    await update(stub, fakeIO(), { set: [['closed_text', 'Closed']] });
    expect(stub.puts()).toHaveLength(1);
    const e = await update(stub, fakeIO(), { title: 'C'.repeat(70) }).catch((err) => err);
    expect(codeOf(e)).toBe(2);
    expect((e as Error).message).toContain('title: is 70 characters; the maximum is 60');
    expect(stub.puts()).toHaveLength(1);
  });

  it('an odd language and an unknown theme the service holds are sent back; a new odd value is refused', async () => {
    stub = await startFormStub({ form: sampleForm({ language: 'pt-BR', theme: 'legacy' }) });
    await update(stub, fakeIO(), { visibility: 'closed' });
    const body = JSON.parse(stub.puts()[0]!.body);
    expect([body.language, body.theme]).toEqual(['pt-BR', 'legacy']);
    const e = await update(stub, fakeIO(), { set: [['language', 'english']] }).catch((err) => err);
    expect(codeOf(e)).toBe(2);
    expect((e as Error).message).toContain('language: "english" is not a two-letter language code');
  });

  it('a held field without a name is not re-checked; a changed field is', async () => {
    const props = [
      { id: 'f-old', type: 'text', name: '', required: 'yes' },
      { id: 'f-email', type: 'email', name: 'Email', required: true },
    ];
    stub = await startFormStub({ form: sampleForm({ properties: props as never }) });
    await update(stub, fakeIO(), { visibility: 'draft' });
    expect(stub.puts()).toHaveLength(1);
    const e = await update(stub, fakeIO(), { set: [['properties.1.name', '']] }).catch((err) => err);
    expect(codeOf(e)).toBe(2);
    expect((e as Error).message).toBe('The form is not valid (1 problem); nothing was sent:\n  properties.1.name: is required');
  });

  it('required attributes the service did not return are filled with the create defaults and named in a note', async () => {
    const form = sampleForm();
    delete form.presentation_style;
    delete form.border_radius;
    form.dark_mode = null;
    stub = await startFormStub({ form });
    const dry = fakeIO();
    await update(stub, dry, { visibility: 'draft', dryRun: true });
    expect(dry.err()).toBe(
      'note: the service did not return 3 required attributes of form 42; would send the create defaults: presentation_style "classic", border_radius "small", dark_mode "auto".\nnote: dry run: nothing was sent.\n',
    );
    expect(dry.out()).toContain('+  "presentation_style": "classic",');

    const io = fakeIO();
    await update(stub, io, { visibility: 'draft' });
    const body = JSON.parse(stub.puts()[0]!.body);
    expect([body.presentation_style, body.border_radius, body.dark_mode, body.visibility]).toEqual(['classic', 'small', 'auto', 'draft']);
    expect(io.err()).toContain('note: the service did not return 3 required attributes of form 42; sent the create defaults: presentation_style "classic"');
  });

  it('a filled default alone is no change: nothing is sent', async () => {
    const form = sampleForm();
    delete form.size;
    stub = await startFormStub({ form });
    const io = fakeIO();
    await update(stub, io, { visibility: 'public' });
    expect(stub.puts()).toEqual([]);
    expect(io.err()).toBe('note: no changes: form "Contact us" (id 42) already matches; nothing was sent.\n');
  });

  it('restore of a backup whose title is 70 characters is not refused locally', async () => {
    stub = await startFormStub({ form: sampleForm({ title: TITLE_70 }) });
    const saved = join(tmp.dir, 'saved.json');
    writeFileSync(saved, JSON.stringify(sampleForm({ title: TITLE_70, visibility: 'closed' })));
    await formRestoreRun({
      io: fakeIO().io,
      api: async () => stub!.client,
      backupDir,
      prompter: () => ({}) as never,
      now,
      form: '42',
      backup: saved,
      yes: true,
      validate: true,
    });
    expect(JSON.parse(stub.puts()[0]!.body).visibility).toBe('closed');
  });
});

describe('form update holds the form lock from the read to the PUT', () => {
  it('a numeric ref is locked before the first read; a slug is read, locked, read again; released after the PUT', async () => {
    stub = await startFormStub();
    const events: string[] = [];
    const locker = formLocker(join(tmp.dir, 'locks'), 'http://127.0.0.1:1');
    const lock = async (id: number) => {
      events.push(`lock ${id} after ${stub!.requests.length} requests`);
      const release = await locker(id);
      return async () => {
        events.push(`release after ${stub!.requests.length} requests`);
        await release();
      };
    };
    await update(stub, fakeIO(), { visibility: 'draft', lock });
    // Read, re-read, PUT, and the read after the PUT that checks the change held.
    expect(events).toEqual(['lock 42 after 0 requests', 'release after 4 requests']);
    events.length = 0;
    stub.requests.length = 0;
    await update(stub, fakeIO(), { form: 'contact-us', visibility: 'closed', lock });
    expect(events).toEqual(['lock 42 after 1 requests', 'release after 5 requests']);
    expect(stub.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /open/forms/contact-us',
      'GET /open/forms/42',
      'GET /open/forms/42',
      'PUT /open/forms/42',
      'GET /open/forms/42',
    ]);
    events.length = 0;
    await update(stub, fakeIO(), { visibility: 'public', lock, dryRun: true });
    expect(events).toEqual([]);
  });
});

describe('form edit', () => {
  it('a held 70-character title does not reopen the editor; the lock is taken after the confirmation; the diff masks the password', async () => {
    stub = await startFormStub({ form: sampleForm({ title: TITLE_70 }) });
    let opens = 0;
    const editor = async (file: string) => {
      opens++;
      const doc = JSON.parse(readFileSync(file, 'utf8').replace(/^\/\/.*\n/gm, ''));
      writeFileSync(file, JSON.stringify({ ...doc, visibility: 'closed', password: 'edited-pw' }));
    };
    const locked: number[] = [];
    const locker = formLocker(join(tmp.dir, 'locks'), 'http://127.0.0.1:1');
    const lock = async (id: number) => {
      locked.push(id);
      return locker(id);
    };
    const io = fakeIO();
    await formEditRun({
      io: io.io,
      api: async () => stub!.client,
      backupDir,
      prompter: () => ({}) as never,
      editor,
      editorSet: true,
      now,
      form: '42',
      yes: true,
      lock,
      validate: true,
    });
    expect(opens).toBe(1);
    expect(locked).toEqual([42]);
    const body = JSON.parse(stub.puts()[0]!.body);
    expect([body.title, body.visibility, body.password]).toEqual([TITLE_70, 'closed', 'edited-pw']);
    expect(io.out()).toContain('+  "password": "******** (changed)",');
    expect(io.out()).not.toMatch(/hunter2|edited-pw/);
  });
});

describe('secrets in diffs and dry runs', () => {
  it('--dry-run masks the password: unchanged it shows as ********, a new one as ******** (changed)', async () => {
    stub = await startFormStub();
    const io = fakeIO();
    await update(stub, io, { set: [['password', 's3cret-new']], dryRun: true });
    expect(io.out()).toContain('-  "password": "********",');
    expect(io.out()).toContain('+  "password": "******** (changed)",');
    expect(io.out()).not.toMatch(/hunter2|s3cret-new/);

    const json = fakeIO();
    await update(stub, json, { set: [['password', 's3cret-new']], dryRun: true, json: true });
    expect(json.out()).not.toMatch(/hunter2|s3cret-new/);
    expect(JSON.parse(json.out()).diff).toContain('******** (changed)');

    const other = fakeIO();
    await update(stub, other, { set: [['description', 'x']], dryRun: true });
    expect(other.out()).not.toContain('hunter2');
  });

  it('apply --dry-run and the diff apply prints on a terminal mask it too', async () => {
    stub = await startFormStub();
    const file = join(tmp.dir, 'form.json');
    writeFileSync(file, JSON.stringify({ id: 42, password: 'other-pass', title: 'Contact' }));
    const io = fakeIO({ tty: true });
    await formApplyRun({ io: io.io, api: async () => stub!.client, resolveWorkspace: async () => 3, backupDir, now, file, validate: true });
    expect(io.out()).toContain('******** (changed)');
    expect(io.out()).not.toMatch(/hunter2|other-pass/);
    expect(JSON.parse(stub.puts()[0]!.body).password).toBe('other-pass');
  });

  it('a create dry run through apply masks the password in --json', async () => {
    const server = await startStubServer((_req, res) => json(res, 404, { message: 'No query results' }));
    const client = new ApiClient({ baseUrl: server.url, token: 'tok_unit', userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const file = join(tmp.dir, 'new.json');
      writeFileSync(file, JSON.stringify({ title: 'New', password: 'pw-123', properties: [{ id: 'a', type: 'text', name: 'A' }] }));
      const io = fakeIO();
      await formApplyRun({
        io: io.io,
        api: async () => client,
        resolveWorkspace: async () => 3,
        backupDir,
        now,
        file,
        dryRun: true,
        json: true,
        validate: true,
      });
      expect(io.out()).not.toContain('pw-123');
      expect(JSON.parse(io.out()).body.password).toBe('********');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('apply never clears a password because the file leaves it out', async () => {
    stub = await startFormStub();
    const file = join(tmp.dir, 'form.json');
    writeFileSync(file, JSON.stringify({ id: 42, title: 'Contact' }));
    await formApplyRun({ io: fakeIO().io, api: async () => stub!.client, resolveWorkspace: async () => 3, backupDir, now, file, validate: true });
    expect(JSON.parse(stub.puts()[0]!.body).password).toBe('hunter2');
    expect(stub.form.password).toBe('hunter2');
  });
});

describe('what the service does on save (code blocks, branding, slug)', () => {
  const withCode = () =>
    sampleForm({
      properties: [
        { id: 'f-name', type: 'text', name: 'Name', required: true },
        { id: 'b-code', type: 'nf-code', name: 'Tracking', content: '<script></script>' },
      ],
    });
  const stripCode = (b: Record<string, unknown>) => ({ ...b, properties: (b.properties as Array<{ type: string }>).filter((p) => p.type !== 'nf-code') });

  it('warns before sending when the form has code blocks, and after the PUT names the blocks the service dropped', async () => {
    stub = await startFormStub({ form: withCode(), store: stripCode });
    const io = fakeIO();
    await update(stub, io, { visibility: 'draft' });
    const lines = io.err().split('\n');
    expect(lines[0]).toBe(
      'warning: form 42 has a code block (nf-code): the deployed service deletes them on save unless the workspace may use custom code (a custom domain, or self-hosted with custom code allowed); formctl checks the answer.',
    );
    expect(lines[1]).toMatch(
      /^warning: the service dropped a block of form 42 on save: "Tracking" \(nf-code, id b-code\) \(code blocks need custom-code rights: .*\); the version before the update is in .+\.json\.$/,
    );
  });

  it('no warning about code blocks when the workspace has a custom domain and the service keeps them', async () => {
    stub = await startFormStub({ form: sampleForm({ ...withCode(), workspace: { id: 3, custom_domains: ['forms.example.com'] } }) });
    const io = fakeIO();
    await update(stub, io, { visibility: 'draft' });
    expect(io.err()).toBe('');
  });

  it('no_branding: sent back as false on the free plan is said before sending; true answered false is said after', async () => {
    stub = await startFormStub({ form: sampleForm({ plan_tier: 'free' }) });
    const io = fakeIO();
    await update(stub, io, { visibility: 'draft' });
    expect(io.err()).toContain('warning: no_branding is sent back as false, the value the service reports on the free plan even when true is stored');

    await stub.close();
    stub = await startFormStub({ form: sampleForm({ plan_tier: 'free' }), store: (b) => ({ ...b, no_branding: false }) });
    const set = fakeIO();
    await update(stub, set, { set: [['no_branding', 'true']] });
    expect(set.err()).toContain("warning: the service reports no_branding false for form 42: the workspace's plan does not include removing the branding");
  });

  it('--set slug=… is sent (not dropped): kept by the service → a warning; changed → a warning to update links', async () => {
    stub = await startFormStub({ store: (b) => ({ ...b, slug: 'contact-us' }) });
    const io = fakeIO();
    await update(stub, io, { set: [['slug', 'write-to-us']] });
    expect(JSON.parse(stub.puts()[0]!.body).slug).toBe('write-to-us');
    expect(io.err()).toBe(
      'warning: the service kept the slug "contact-us" (it changes a slug only on a self-hosted server); the rest of the change was applied.\n',
    );

    await stub.close();
    stub = await startFormStub();
    const moved = fakeIO();
    await update(stub, moved, { set: [['slug', 'write-to-us']] });
    expect(moved.err()).toContain('warning: form 42 is now "write-to-us": links and documents that name the old slug need the new one');

    const dry = fakeIO();
    await update(stub, dry, { set: [['slug', 'other-slug']], dryRun: true });
    expect(dry.out()).toContain('+  "slug": "other-slug",');
    expect(dry.err()).toContain('note: the slug would be sent as "other-slug"');
    expect(codeOf(await update(stub, fakeIO(), { set: [['slug', '12345']] }).catch((e) => e))).toBe(2);
  });
});

describe('after the PUT, every changed attribute must hold what was sent', () => {
  it('exit 9 naming the backup when the answer does not hold a change (masked for secrets)', async () => {
    stub = await startFormStub({ store: (b) => ({ ...b, title: 'Someone else', password: 'theirs' }) });
    const e = (await update(stub, fakeIO(), { title: 'Mine', set: [['password', 'mine-pw']] }).catch((err) => err)) as CliError;
    expect(e.exitCode).toBe(9);
    expect(e.message).toBe(
      'Form 42 was updated, but title holds "Someone else", not the "Mine" sent; password does not hold the value sent (a secret, not shown): another change may have come in at the same moment, or the service changed the value.',
    );
    expect(e.hint).toMatch(/^The version before this update is in .+\/backups\/42\/.+\.json\. Check the form/);
    expect(readdirSync(join(tmp.dir, 'backups', '42'))).toHaveLength(1);
  });

  it('what services do to values is not a conflict (dates in full, empty as null, keys added)', () => {
    expect(holds('2026-01-01', '2026-01-01T00:00:00.000Z')).toBe(true);
    expect(holds('', null)).toBe(true);
    expect(holds(null, [])).toBe(true);
    expect(holds({ a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(holds(5, '5')).toBe(true);
    expect(holds([{ id: 'x', name: 'X' }], [{ id: 'x', name: 'X', hidden: false }])).toBe(true);
    expect(holds('Mine', 'Theirs')).toBe(false);
    expect(holds({ a: 1 }, { a: 2 })).toBe(false);
    expect(holds([1, 2], [1])).toBe(false);
  });

  it('an unchanged attribute the service rewrites is not checked', async () => {
    stub = await startFormStub({ store: (b) => ({ ...b, description: 'rewritten' }) });
    await update(stub, fakeIO(), { visibility: 'draft' });
    expect(stub.puts()).toHaveLength(1);
  });
});

describe('size limit', () => {
  it('form create --file above 10 MiB is refused locally (exit 2), nothing sent', async () => {
    const server = await startStubServer((_req, res) => json(res, 413, { message: 'Too large' }));
    const client = new ApiClient({ baseUrl: server.url, token: 'tok_unit', userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const file = join(tmp.dir, 'big.json');
      writeFileSync(file, JSON.stringify({ title: 'Big', description: 'x'.repeat(11 * 1024 * 1024), properties: [{ id: 'a', type: 'text', name: 'A' }] }));
      const e = (await formCreateRun({
        io: fakeIO().io,
        api: async () => client,
        resolveWorkspace: async () => 3,
        prompter: () => ({}) as never,
        file,
        validate: true,
      }).catch((err) => err)) as CliError;
      expect(e.exitCode).toBe(2);
      expect(e.message).toBe('The form is 11.0 MiB as JSON; the service takes at most 10 MiB: nothing was sent.');
      expect(server.requests).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('402 from the service', () => {
  it('a feature the plan lacks is a clear message, exit 5', async () => {
    const server = await startStubServer((req, res) =>
      req.method === 'GET' ? json(res, 200, sampleForm()) : json(res, 402, { message: 'This feature requires a Pro plan.' }),
    );
    const client = new ApiClient({ baseUrl: server.url, token: 'tok_unit', userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const e = (await formUpdateRun({
        io: fakeIO().io,
        api: async () => client,
        backupDir,
        now,
        form: '42',
        set: [['custom_code', '<b>']],
        validate: true,
      }).catch((err) => err)) as CliError;
      expect([e.exitCode, e.message, e.hint]).toEqual([
        5,
        'This feature requires a Pro plan. (HTTP 402, PUT /open/forms/42)',
        "The workspace's plan does not include this feature: upgrade the plan, or leave the feature out of the request.",
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('form create --set slug', () => {
  it('is refused (exit 2) instead of being dropped silently', async () => {
    const e = (await formCreateRun({
      io: fakeIO().io,
      api: async () => {
        throw new Error('no request expected');
      },
      resolveWorkspace: async () => 3,
      prompter: () => ({}) as never,
      title: 'X',
      set: [['slug', 'my-slug']],
      validate: true,
    }).catch((err) => err)) as CliError;
    expect([e.exitCode, e.message]).toEqual([2, "form create cannot choose the slug: the service makes a new form's slug from its title."]);
  });
});

describe('the deployed service normalises what it stores (reviewer defect 6)', () => {
  it('a trimmed title, a block name without tags and a blank turned null are what was asked: no exit 9', async () => {
    // What OpnForm stores (TrimStrings, ConvertEmptyStringsToNull, FormDataNormalizer), written out by hand.
    stub = await startFormStub({
      wrap: true,
      store: (b) => ({
        ...b,
        title: 'Spaced',
        description: null,
        properties: (b.properties as Record<string, unknown>[]).map((p, i) => (i === 0 ? { ...p, name: 'Full name' } : p)),
      }),
    });
    const io = fakeIO();
    await update(stub, io, {
      title: '  Spaced  ',
      set: [
        ['properties.0.name', ' <b>Full</b> name'],
        ['description', '   '],
      ],
    });
    expect(io.err()).toBe('');
    expect(stub.form.title).toBe('Spaced');
  });

  it('a value the service did not derive from the one sent is still a conflict (exit 9)', async () => {
    stub = await startFormStub({ wrap: true, store: (b) => ({ ...b, title: 'Someone else' }) });
    const err = await update(stub, fakeIO(), { title: '  Spaced  ' }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe(9);
  });
});
