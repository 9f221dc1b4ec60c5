import { lstatSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formApplyRun } from '../../../src/commands/form/apply.js';
import { formEditRun } from '../../../src/commands/form/edit.js';
import { formPullRun } from '../../../src/commands/form/pull.js';
import { formRestoreRun } from '../../../src/commands/form/restore.js';
import { formUpdateRun } from '../../../src/commands/form/update.js';
import { CliError } from '../../../src/errors.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { json, startStubServer } from '../../helpers/http.js';
import { ApiClient } from '../../../src/api/client.js';
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
const noPrompter = (): Prompter => {
  throw new Error('no prompts expected');
};

describe('form pull / apply', () => {
  it('pull writes a stable document without computed fields; applying it sends nothing', async () => {
    stub = await startFormStub();
    const file = join(tmp.dir, 'form.json');
    await formPullRun({ io: fakeIO().io, api: async () => stub!.client, form: '42', output: file });
    const text = readFileSync(file, 'utf8');
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual([
      'id',
      'slug',
      'workspace_id',
      'title',
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
      'description',
      'settings',
      'properties',
    ]);
    expect(text).not.toContain('hunter2');
    const stdout = fakeIO();
    await formPullRun({ io: stdout.io, api: async () => stub!.client, form: 'contact-us' });
    expect(stdout.out()).toBe(text);

    const io = fakeIO();
    await formApplyRun({ io: io.io, api: async () => stub!.client, resolveWorkspace: async () => 3, backupDir, now, file, validate: true });
    expect(stub.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(io.err()).toBe('note: no changes: form "Contact us" (id 42) already matches; nothing was sent.\n');
  });

  it('apply updates by id through the safe update; the second apply sends no PUT', async () => {
    stub = await startFormStub();
    const file = join(tmp.dir, 'form.json');
    // A hand-written partial document: only what the user cares about.
    writeFileSync(file, JSON.stringify({ id: 42, title: 'Contact', properties: [{ id: 'f-name', type: 'text', name: 'Full name', required: true }] }));
    const first = fakeIO();
    await formApplyRun({ io: first.io, api: async () => stub!.client, resolveWorkspace: async () => 3, backupDir, now, file, validate: true });
    const puts = stub.puts();
    expect(puts).toHaveLength(1);
    const body = JSON.parse(puts[0]!.body);
    expect(body.title).toBe('Contact');
    expect(body.description).toBe('Say hello');
    expect(body.properties).toEqual([{ id: 'f-name', type: 'text', name: 'Full name', required: true }]);
    expect(readdirSync(join(tmp.dir, 'backups', '42'))).toHaveLength(1);

    const second = fakeIO();
    await formApplyRun({ io: second.io, api: async () => stub!.client, resolveWorkspace: async () => 3, backupDir, now, file, validate: true });
    expect(stub.puts()).toHaveLength(1);
    expect(second.err()).toBe('note: no changes: form "Contact" (id 42) already matches; nothing was sent.\n');
  });

  it('apply creates a missing form with every required attribute, records its id, then updates it', async () => {
    const forms = new Map<number, Record<string, unknown>>();
    const server = await startStubServer((req, res) => {
      const path = req.url.split('?')[0]!;
      if (req.method === 'POST' && path === '/open/forms') {
        const form = { ...JSON.parse(req.body), id: 77, slug: 'signup-abc', updated_at: '2025-01-01T00:00:00.000Z' };
        forms.set(77, form);
        // The deployed service's create answer.
        return json(res, 200, { type: 'success', message: 'Form created.', form, users_first_form: false });
      }
      const m = /^\/open\/forms\/(.+)$/.exec(path);
      if (req.method === 'GET' && m && forms.has(Number(m[1]))) return json(res, 200, forms.get(Number(m[1])));
      return json(res, 404, { message: 'Not found' });
    });
    const client = new ApiClient({ baseUrl: server.url, token: 't', userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const file = join(tmp.dir, 'signup.json');
      writeFileSync(file, JSON.stringify({ slug: 'signup', title: 'Sign up', properties: [{ id: 'email', type: 'email', name: 'Email' }] }));
      const dry = fakeIO();
      await formApplyRun({ io: dry.io, api: async () => client, resolveWorkspace: async () => 3, backupDir, now, file, dryRun: true, validate: true });
      expect(dry.err()).toBe('note: dry run: would create this form (no form signup exists); nothing was sent.\n');
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /open/forms/signup']);

      const io = fakeIO();
      await formApplyRun({ io: io.io, api: async () => client, resolveWorkspace: async () => 3, backupDir, now, file, validate: true });
      const post = server.requests.find((r) => r.method === 'POST')!;
      expect(JSON.parse(post.body)).toEqual({
        workspace_id: 3,
        title: 'Sign up',
        visibility: 'draft',
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
        properties: [{ id: 'email', type: 'email', name: 'Email' }],
      });
      expect(io.out()).toBe('77\t\n');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ id: 77, slug: 'signup-abc', workspace_id: 3, title: 'Sign up' });

      const again = fakeIO();
      await formApplyRun({ io: again.io, api: async () => client, resolveWorkspace: async () => 3, backupDir, now, file, validate: true });
      expect(server.requests.filter((r) => r.method === 'POST' || r.method === 'PUT')).toHaveLength(1);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('after a create, writes the id through a symlink, and never over edits made to the file meanwhile', async () => {
    let onPost = () => {};
    const server = await startStubServer((req, res) => {
      const path = req.url.split('?')[0]!;
      if (req.method === 'POST' && path === '/open/forms') {
        onPost();
        return json(res, 201, { ...JSON.parse(req.body), id: 77, slug: 'signup-abc' });
      }
      return json(res, 404, { message: 'Not found' });
    });
    const client = new ApiClient({ baseUrl: server.url, token: 't', userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const target = join(tmp.dir, 'real.json');
      const link = join(tmp.dir, 'link.json');
      const doc = { title: 'Sign up', properties: [{ id: 'email', type: 'email', name: 'Email' }] };
      writeFileSync(target, JSON.stringify(doc));
      symlinkSync(target, link);
      await formApplyRun({ io: fakeIO().io, api: async () => client, resolveWorkspace: async () => 3, backupDir, now, file: link, validate: true });
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(JSON.parse(readFileSync(target, 'utf8'))).toMatchObject({ id: 77, slug: 'signup-abc', title: 'Sign up' });

      // The user saves the file again while the create request is on its way.
      const file = join(tmp.dir, 'other.json');
      writeFileSync(file, JSON.stringify(doc));
      const edited = JSON.stringify({ ...doc, title: 'Sign up now' });
      onPost = () => writeFileSync(file, edited);
      const io = fakeIO();
      await formApplyRun({ io: io.io, api: async () => client, resolveWorkspace: async () => 3, backupDir, now, file, validate: true });
      expect(readFileSync(file, 'utf8')).toBe(edited);
      expect(io.err()).toBe(
        `warning: created form 77 but could not record its id in ${file} (it changed while the form was being created); add "id": 77 to the file before the next apply.\n`,
      );
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('refuses a file whose id finds a form with another slug (a different form); --force overrides', async () => {
    stub = await startFormStub();
    const file = join(tmp.dir, 'prod.json');
    writeFileSync(file, JSON.stringify({ id: 42, slug: 'newsletter-9f8e7d', title: 'Newsletter', properties: [{ id: 'e', type: 'email', name: 'Email' }] }));
    const e = await formApplyRun({
      io: fakeIO().io,
      api: async () => stub!.client,
      resolveWorkspace: async () => 3,
      backupDir,
      now,
      file,
      validate: true,
    }).catch((err) => err);
    expect(codeOf(e)).toBe(2);
    expect((e as Error).message).toBe(
      `${file} names form 42 with slug "newsletter-9f8e7d", but form 42 is "contact-us" (Contact us): a different form; nothing was sent.`,
    );
    expect(stub.puts()).toEqual([]);
    await formApplyRun({ io: fakeIO().io, api: async () => stub!.client, resolveWorkspace: async () => 3, backupDir, now, file, force: true, validate: true });
    expect(stub.puts()).toHaveLength(1);
  });

  it('refuses a document with an empty properties list before any request', async () => {
    stub = await startFormStub();
    const file = join(tmp.dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ id: 42, properties: [] }));
    expect(
      codeOf(
        await formApplyRun({ io: fakeIO().io, api: async () => stub!.client, resolveWorkspace: async () => 3, backupDir, now, file, validate: true }).catch(
          (e) => e,
        ),
      ),
    ).toBe(2);
    expect(stub.requests).toEqual([]);
  });
});

describe('form restore', () => {
  it('puts the latest backup back through the safe update, backing up the replaced version', async () => {
    stub = await startFormStub();
    await formUpdateRun({
      io: fakeIO().io,
      api: async () => stub!.client,
      backupDir,
      now,
      form: '42',
      title: 'Oops',
      set: [['properties', '[{"id":"x","type":"text","name":"X"}]']],
      validate: true,
    });
    expect(stub.form.title).toBe('Oops');

    const refused = await formRestoreRun({
      io: fakeIO().io,
      api: async () => stub!.client,
      backupDir,
      prompter: noPrompter,
      now,
      form: '42',
      backup: 'latest',
      validate: true,
    }).catch((e) => e);
    expect([codeOf(refused), (refused as CliError).hint]).toEqual([
      2,
      'Pass --yes to confirm, or --dry-run to see the change first (prompts are off: not a terminal, CI, or --no-input).',
    ]);

    const io = fakeIO();
    await formRestoreRun({
      io: io.io,
      api: async () => stub!.client,
      backupDir,
      prompter: noPrompter,
      now,
      form: '42',
      yes: true,
      backup: 'latest',
      validate: true,
    });
    const restored = JSON.parse(stub.puts()[1]!.body);
    expect(restored.title).toBe('Contact us');
    expect(restored.properties).toEqual(sampleForm().properties);
    expect(readdirSync(join(tmp.dir, 'backups', '42'))).toHaveLength(2);
  });

  it("refuses a backup with the same id but another slug (another profile's form 42)", async () => {
    stub = await startFormStub();
    const file = join(tmp.dir, 'other-profile.json');
    writeFileSync(file, JSON.stringify(sampleForm({ slug: 'payroll-1a2b3c', title: 'Payroll' })));
    const e = await formRestoreRun({
      io: fakeIO().io,
      api: async () => stub!.client,
      backupDir,
      prompter: noPrompter,
      now,
      form: '42',
      backup: file,
      yes: true,
      validate: true,
    }).catch((err) => err);
    expect(codeOf(e)).toBe(2);
    expect((e as Error).message).toBe(`${file} is a backup of form "payroll-1a2b3c", not of form 42 ("contact-us"); nothing was sent.`);
    expect(stub.puts()).toEqual([]);
  });

  it('refuses a backup of another form, with the command for that form, its file shell-quoted', async () => {
    stub = await startFormStub();
    const file = join(tmp.dir, "other form's.json");
    writeFileSync(file, JSON.stringify(sampleForm({ id: 7 })));
    const e = await formRestoreRun({
      io: fakeIO().io,
      api: async () => stub!.client,
      backupDir,
      prompter: noPrompter,
      now,
      form: '42',
      backup: file,
      yes: true,
      validate: true,
    }).catch((err) => err);
    expect(codeOf(e)).toBe(2);
    expect((e as Error).message).toBe(`${file} is a backup of form 7, not form 42.`);
    expect((e as CliError).hint).toBe(`Restore it with \`formctl form restore 7 --backup '${file.replace(/'/g, "'\\''")}'\`.`);
  });
});

describe('form edit', () => {
  it('reopens the editor with the parse error noted, then shows the diff and updates', async () => {
    stub = await startFormStub();
    const seen: string[] = [];
    const editor = async (file: string) => {
      const text = readFileSync(file, 'utf8');
      seen.push(text);
      if (seen.length === 1) writeFileSync(file, text.replace('"Contact us"', '"Contact us'));
      else writeFileSync(file, text.replace('"Contact us', '"Talk to us"'));
    };
    const io = fakeIO();
    await formEditRun({
      io: io.io,
      api: async () => stub!.client,
      backupDir,
      prompter: noPrompter,
      editor,
      editorSet: true,
      now,
      form: '42',
      yes: true,
      validate: true,
    });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.startsWith('// Edit the form below')).toBe(true);
    expect(seen[1]).toMatch(/^\/\/ ERROR: The edited form is not valid JSON: /m);
    expect(JSON.parse(stub.puts()[0]!.body).title).toBe('Talk to us');
    expect(io.out()).toContain('-  "title": "Contact us",\n+  "title": "Talk to us",\n');
    expect(io.err()).toMatch(/^error: The edited form is not valid JSON: .* Reopening the editor…\n$/);
  });

  it('on a terminal, the attributes a kept field leaves out are named after the diff, before the question', async () => {
    stub = await startFormStub();
    const editor = async (file: string) => {
      const doc = JSON.parse(readFileSync(file, 'utf8').replace(/^\/\/.*\n/gm, '')) as { properties: Record<string, unknown>[] };
      delete doc.properties[0]!.required;
      writeFileSync(file, JSON.stringify(doc, null, 2));
    };
    const io = fakeIO({ tty: true, canPrompt: true });
    const asked: string[] = [];
    const refuse = () => Promise.reject(new Error('no other prompt expected'));
    const prompter = (): Prompter => ({
      input: refuse,
      password: refuse,
      select: refuse,
      search: refuse,
      confirm: async (q) => {
        asked.push(io.err());
        return q.message === 'Update form 42 with these changes?';
      },
    });
    await formEditRun({ io: io.io, api: async () => stub!.client, backupDir, prompter, editor, editorSet: true, now, form: '42', validate: true });
    expect(asked).toEqual([
      'warning: the "properties" list drops what it leaves out of a field of form 42 (a field is stored as sent):\n' +
        '  field "Name" (f-name): required\n' +
        'To keep them, copy them into the file (`formctl form get 42 --json properties` shows them).\n',
    ]);
    expect(JSON.parse(stub.puts()[0]!.body).properties[0]).toEqual({ id: 'f-name', type: 'text', name: 'Name' });
  });

  it('an empty properties list reopens the editor; saving it again unchanged gives up with exit 2, nothing sent', async () => {
    stub = await startFormStub();
    let opens = 0;
    const editor = async (file: string) => {
      opens++;
      const doc = JSON.parse(readFileSync(file, 'utf8').replace(/^\/\/.*\n/gm, ''));
      doc.properties = [];
      writeFileSync(file, JSON.stringify(doc, null, 2));
    };
    const e = await formEditRun({
      io: fakeIO().io,
      api: async () => stub!.client,
      backupDir,
      prompter: noPrompter,
      editor,
      editorSet: true,
      now,
      form: '42',
      yes: true,
      validate: true,
    }).catch((err) => err);
    expect(opens).toBe(2);
    expect(codeOf(e)).toBe(2);
    expect(stub.puts()).toEqual([]);
  });

  it('a failed update (someone changed the form meanwhile) keeps the edited file instead of deleting it', async () => {
    stub = await startFormStub({
      onGet: (n, form) => {
        if (n === 2) Object.assign(form, { description: 'Changed by someone else', updated_at: '2025-01-03T00:00:00.000Z' });
      },
    });
    let path = '';
    const editor = async (file: string) => {
      path = file;
      writeFileSync(file, readFileSync(file, 'utf8').replace('"Contact us"', '"My long edit"'));
    };
    const e = await formEditRun({
      io: fakeIO().io,
      api: async () => stub!.client,
      backupDir,
      prompter: noPrompter,
      editor,
      editorSet: true,
      now,
      form: '42',
      yes: true,
      validate: true,
    }).catch((err) => err);
    expect(codeOf(e)).toBe(9);
    expect(stub.puts()).toEqual([]);
    expect((e as CliError).hint).toContain(`Your edited form is kept in ${path}.`);
    expect(JSON.parse(readFileSync(path, 'utf8')).title).toBe('My long edit');
    rmSync(dirname(path), { recursive: true, force: true });
  });

  it('refuses before fetching or opening the editor when nobody could confirm, or vi would get a pipe (exit 2)', async () => {
    stub = await startFormStub();
    let opened = 0;
    const editor = async () => {
      opened++;
    };
    const cases: Array<{ io: ReturnType<typeof fakeIO>; yes?: true; editorSet: boolean; message: string; hint: string }> = [
      {
        io: fakeIO(),
        editorSet: true,
        message: 'form edit asks before updating, and prompts are off.',
        hint: 'Pass --yes to update after the diff, or --dry-run to only see it (prompts are off: not a terminal, CI, or --no-input).',
      },
      // On a terminal with CI or --no-input set: prompts are off too.
      {
        io: fakeIO({ tty: true, canPrompt: false }),
        editorSet: false,
        message: 'form edit asks before updating, and prompts are off.',
        hint: 'Pass --yes to update after the diff, or --dry-run to only see it (prompts are off: not a terminal, CI, or --no-input).',
      },
      {
        io: fakeIO(),
        yes: true,
        editorSet: false,
        message: 'form edit needs an editor: $VISUAL and $EDITOR are unset, and vi needs a terminal.',
        hint: 'Set EDITOR (e.g. EDITOR="code --wait"), or change the form with `formctl form update` or `formctl form pull` + `formctl form apply`.',
      },
    ];
    for (const c of cases) {
      const e = await formEditRun({
        io: c.io.io,
        api: async () => stub!.client,
        backupDir,
        prompter: noPrompter,
        editor,
        editorSet: c.editorSet,
        now,
        form: '42',
        yes: c.yes,
        validate: true,
      }).catch((err) => err);
      expect(codeOf(e)).toBe(2);
      expect([(e as CliError).message, (e as CliError).hint]).toEqual([c.message, c.hint]);
    }
    expect(opened).toBe(0);
    expect(stub.requests).toEqual([]);
  });

  it('off a terminal --dry-run needs no confirmation; on a terminal vi is fine without $EDITOR', async () => {
    stub = await startFormStub();
    const change = async (file: string) => writeFileSync(file, readFileSync(file, 'utf8').replace('"public"', '"closed"'));
    const dry = fakeIO();
    await formEditRun({
      io: dry.io,
      api: async () => stub!.client,
      backupDir,
      prompter: noPrompter,
      editor: change,
      editorSet: true,
      now,
      form: '42',
      dryRun: true,
      validate: true,
    });
    expect(dry.out()).toContain('-  "visibility": "public",\n+  "visibility": "closed",\n');
    expect(dry.err()).toBe('note: dry run: nothing was sent.\n');
    const tty = fakeIO({ tty: true, canPrompt: true });
    await formEditRun({
      io: tty.io,
      api: async () => stub!.client,
      backupDir,
      prompter: noPrompter,
      editor: async () => undefined,
      editorSet: false,
      now,
      form: '42',
      validate: true,
    });
    expect(tty.err()).toBe('No changes; nothing was sent.\n');
    expect(stub.puts()).toEqual([]);
  });
});
