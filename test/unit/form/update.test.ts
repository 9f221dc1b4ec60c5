import { readdirSync, statSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formUpdateRun } from '../../../src/commands/form/update.js';
import { CliError } from '../../../src/errors.js';
import type { Prompter } from '../../../src/io/prompter.js';
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

const now = () => new Date('2025-03-04T05:06:07.890Z');
const codeOf = (e: unknown) => (e instanceof CliError ? e.exitCode : -1);

function run(s: FormStub, io: ReturnType<typeof fakeIO>, o: Partial<Parameters<typeof formUpdateRun>[0]> = {}) {
  return formUpdateRun({ io: io.io, api: async () => s.client, backupDir: async (id) => join(tmp.dir, String(id)), now, form: '42', validate: true, ...o });
}

/** The body the client should send for `sampleForm()` with `change` applied: every writable field, nothing computed. */
function expectedBody(change: Record<string, unknown> = {}) {
  const {
    id: _i,
    slug: _s,
    workspace_id: _w,
    submissions_count: _c,
    views_count: _v,
    share_url: _u,
    created_at: _ca,
    updated_at: _ua,
    ...writable
  } = sampleForm();
  return { ...writable, ...change };
}

describe('form update (safe update)', () => {
  it('a title change sends the complete form: every omitted field keeps its value', async () => {
    stub = await startFormStub();
    const io = fakeIO();
    await run(stub, io, { title: 'Write to us' });
    expect(stub.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /open/forms/42', 'GET /open/forms/42', 'PUT /open/forms/42', 'GET /open/forms/42']);
    expect(JSON.parse(stub.puts()[0]!.body)).toEqual(expectedBody({ title: 'Write to us' }));
    expect(io.out()).toBe('');
    expect(io.err()).toBe('');
  });

  it('--set parses JSON, keeps siblings of dotted keys, and addresses fields by index', async () => {
    stub = await startFormStub();
    await run(stub, fakeIO(), {
      set: [
        ['settings.navigation_arrows', 'true'],
        ['properties.1.required', 'false'],
        ['closed_text', 'See you'],
        ['uppercase_labels', 'true'],
      ],
    });
    const body = JSON.parse(stub.puts()[0]!.body);
    expect(body.settings).toEqual({ navigation_arrows: true, other: 1 });
    expect(body.properties).toEqual([
      { id: 'f-name', type: 'text', name: 'Name', required: true },
      { id: 'f-email', type: 'email', name: 'Email', required: false },
    ]);
    expect(body.closed_text).toBe('See you');
    expect(body.uppercase_labels).toBe(true);
  });

  it('says which fields a properties list removes: a warning after the update, a forecast in a dry run', async () => {
    stub = await startFormStub();
    const patch = join(tmp.dir, 'patch.json');
    writeFileSync(patch, JSON.stringify({ properties: [{ id: 'f-name', type: 'text', name: 'Name', required: true }] }));
    const dry = fakeIO();
    await run(stub, dry, { file: patch, dryRun: true });
    expect(stub.puts()).toHaveLength(0);
    expect(dry.err()).toBe('warning: this would remove field "f-email" from the form.\nnote: dry run: nothing was sent.\n');

    const io = fakeIO();
    await run(stub, io, { file: patch });
    expect(JSON.parse(stub.puts()[0]!.body).properties).toEqual([{ id: 'f-name', type: 'text', name: 'Name', required: true }]);
    expect(io.err()).toMatch(
      /^warning: removed field "f-email" from form 42; the previous version is in .+\.json \(`formctl form restore 42` puts it back\)\.\n$/,
    );

    const json = fakeIO();
    await run(stub, json, { title: 'Other', dryRun: true, json: true });
    expect(JSON.parse(json.out()).removed_fields).toEqual([]);
  });

  it('never sends an empty properties list: patch file, --set, even with --no-validate (exit 2)', async () => {
    stub = await startFormStub();
    const patch = join(tmp.dir, 'patch.json');
    writeFileSync(patch, JSON.stringify({ title: 'x', properties: [] }));
    expect(codeOf(await run(stub, fakeIO(), { file: patch }).catch((e) => e))).toBe(2);
    expect(codeOf(await run(stub, fakeIO(), { set: [['properties', '[]']] }).catch((e) => e))).toBe(2);
    const e = await run(stub, fakeIO(), { set: [['properties', '[]']], validate: false }).catch((err) => err);
    expect(codeOf(e)).toBe(2);
    expect((e as Error).message).toBe('Refusing to send an empty "properties" list: the service would delete every field of the form.');
    expect(stub.puts()).toEqual([]);
  });

  it('validates locally (title ≤ 60, enums) unless --no-validate', async () => {
    stub = await startFormStub();
    const long = 'x'.repeat(61);
    const e = await run(stub, fakeIO(), { title: long, set: [['theme', 'dark']] }).catch((err) => err);
    expect(codeOf(e)).toBe(2);
    expect((e as Error).message).toBe(
      'The form is not valid (2 problems); nothing was sent:\n  title: is 61 characters; the maximum is 60\n  theme: "dark" is not one of default, simple, notion, minimal, transparent',
    );
    expect(stub.puts()).toEqual([]);
    await run(stub, fakeIO(), { title: long, validate: false });
    expect(JSON.parse(stub.puts()[0]!.body).title).toBe(long);
  });

  it('a change made by someone else between read and write aborts with exit 9 and sends nothing', async () => {
    stub = await startFormStub({
      onGet: (n, form) => {
        if (n === 2) Object.assign(form, { title: 'Changed elsewhere', updated_at: '2025-01-03T00:00:00.000Z' });
      },
    });
    const e = await run(stub, fakeIO(), { visibility: 'closed' }).catch((err) => err);
    expect(codeOf(e)).toBe(9);
    expect((e as Error).message).toBe('Form 42 changed since it was read (updated_at 2025-01-02T00:00:00.000Z → 2025-01-03T00:00:00.000Z); nothing was sent.');
    expect(stub.puts()).toEqual([]);
  });

  it('detects a change within the same second (content differs, updated_at equal)', async () => {
    stub = await startFormStub({ onGet: (n, form) => n === 2 && Object.assign(form, { description: 'edited' }) });
    expect(codeOf(await run(stub, fakeIO(), { visibility: 'closed' }).catch((e) => e))).toBe(9);
    expect(stub.puts()).toEqual([]);
  });

  it('--force skips the re-read and overwrites', async () => {
    stub = await startFormStub();
    await run(stub, fakeIO(), { visibility: 'closed', force: true });
    expect(stub.requests.map((r) => r.method)).toEqual(['GET', 'PUT']);
  });

  it('an attribute the form does not have is refused before the backup and the PUT (exit 2, close matches named) unless --force', async () => {
    stub = await startFormStub();
    const e = await run(stub, fakeIO(), { set: [['nonexistent_attr', '1']] }).catch((err: unknown) => err);
    expect(codeOf(e)).toBe(2);
    expect((e as CliError).message).toContain('has no attribute "nonexistent_attr"');
    const typo = await run(stub, fakeIO(), { set: [['visibilty', 'closed']] }).catch((err: unknown) => err);
    expect(codeOf(typo)).toBe(2);
    expect((typo as CliError).message).toContain('"visibilty": did you mean "visibility"?');
    expect(stub.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(() => readdirSync(join(tmp.dir, '42'))).toThrow();
    // Known attributes, nested keys of known ones, and a patch file's keys pass; --force sends an unknown one.
    await run(stub, fakeIO(), { set: [['settings.navigation_arrows', 'true']], force: true });
    await run(stub, fakeIO(), { set: [['nonexistent_attr', '1']], force: true });
    expect(JSON.parse(stub.requests.at(-1)!.body) as Record<string, unknown>).toMatchObject({ nonexistent_attr: 1 });
  });

  it('writes a 0600 backup of the current form before the PUT', async () => {
    let backupsAtPut: string[] = [];
    stub = await startFormStub({ onPut: () => (backupsAtPut = readdirSync(join(tmp.dir, '42'))) });
    const io = fakeIO({ tty: true });
    await run(stub, io, { visibility: 'draft' });
    expect(backupsAtPut).toEqual(['2025-03-04T05-06-07.890Z.json']);
    const path = join(tmp.dir, '42', backupsAtPut[0]!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(tmp.dir, '42')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(path, 'utf8')))).toEqual(sampleForm());
    expect(io.out()).toBe(`✓ Updated form "Contact us" (id 42). Previous version saved to ${path}\n`);
  });

  it('--dry-run prints the diff and sends nothing', async () => {
    stub = await startFormStub();
    const io = fakeIO();
    await run(stub, io, { visibility: 'draft', dryRun: true });
    expect(stub.requests.map((r) => r.method)).toEqual(['GET']);
    expect(io.out()).toBe(
      [
        '--- form 42 (current)',
        '+++ form 42 (new)',
        '@@ -1,6 +1,6 @@',
        ' {',
        '   "title": "Contact us",',
        '-  "visibility": "public",',
        '+  "visibility": "draft",',
        '   "language": "en",',
        '   "theme": "default",',
        '   "presentation_style": "classic",',
        '',
      ].join('\n'),
    );
    expect(io.err()).toBe('note: dry run: nothing was sent.\n');
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  it('no difference → no backup and no PUT', async () => {
    stub = await startFormStub();
    const io = fakeIO();
    await run(stub, io, { title: 'Contact us' });
    expect(stub.requests.map((r) => r.method)).toEqual(['GET']);
    expect(io.err()).toBe('note: no changes: form "Contact us" (id 42) already matches; nothing was sent.\n');
  });

  it('accepts the deployed {type,message,form} answer and prints the form with --json', async () => {
    stub = await startFormStub({ wrap: true });
    const io = fakeIO();
    await run(stub, io, { title: 'New', json: ['id', 'title'] });
    expect(JSON.parse(io.out())).toEqual({ id: 42, title: 'New' });
  });

  it('nothing to update is a usage error', async () => {
    stub = await startFormStub();
    expect(codeOf(await run(stub, fakeIO()).catch((e) => e))).toBe(2);
    expect(stub.requests).toEqual([]);
  });
});

describe('form update: a refused update keeps the backup history (reviewer defect 2)', () => {
  const files = (id: number) => readdirSync(join(tmp.dir, String(id))).filter((n) => n.endsWith('.json') && !n.startsWith('.'));

  it('a 422 or 403 takes its backup back: with FORMCTL_BACKUPS_KEEP=2, refusals never push the older version out', async () => {
    const prev = process.env.FORMCTL_BACKUPS_KEEP;
    process.env.FORMCTL_BACKUPS_KEEP = '2';
    try {
      stub = await startFormStub({ putStatus: (b) => (typeof b.tags !== 'string' ? undefined : b.tags === 'forbidden' ? 403 : 422) });
      let t = 0;
      const tick = () => new Date(Date.UTC(2025, 2, 4, 5, 6, t++));
      await run(stub, fakeIO(), { title: 'V1', now: tick });
      await run(stub, fakeIO(), { title: 'V2', now: tick });
      const before = files(42);
      expect(before).toHaveLength(2);
      for (const tags of ['bad', 'bad', 'forbidden', 'bad']) {
        const err = await run(stub, fakeIO(), { set: [['tags', tags]], now: tick }).catch((e: unknown) => e);
        expect(codeOf(err)).not.toBe(0);
      }
      expect(files(42)).toEqual(before);
    } finally {
      if (prev === undefined) delete process.env.FORMCTL_BACKUPS_KEEP;
      else process.env.FORMCTL_BACKUPS_KEEP = prev;
    }
  });

  it('a 5xx may have applied the change: its backup is kept', async () => {
    stub = await startFormStub({ putStatus: () => 500 });
    const err = await run(stub, fakeIO(), { title: 'Maybe' }).catch((e: unknown) => e);
    expect(codeOf(err)).not.toBe(0);
    expect(files(42)).toHaveLength(1);
  });

  it('a backup identical to the newest one is not written again', async () => {
    stub = await startFormStub({ putStatus: () => 500 });
    let t = 0;
    const tick = () => new Date(Date.UTC(2025, 2, 4, 5, 6, t++));
    for (let i = 0; i < 3; i++) await run(stub, fakeIO(), { title: 'Maybe', now: tick }).catch(() => undefined);
    expect(files(42)).toHaveLength(1);
  });
});

describe('form update --file: a document that names another form (reviewer defect 3)', () => {
  it('is refused with exit 2 before any request (id argument) or before the PUT (slug argument); its own id is fine', async () => {
    stub = await startFormStub();
    const other = join(tmp.dir, 'p2.json');
    writeFileSync(other, JSON.stringify({ id: 2, slug: 'other', title: 'Form two' }));
    const byId = await run(stub, fakeIO(), { file: other }).catch((e: unknown) => e);
    expect(codeOf(byId)).toBe(2);
    expect((byId as Error).message).toBe(`${other} names form 2 ("id": 2), not form 42; nothing was sent.`);
    expect(stub.requests).toEqual([]);
    const bySlug = await run(stub, fakeIO(), { file: other, form: 'contact-us' }).catch((e: unknown) => e);
    expect(codeOf(bySlug)).toBe(2);
    expect((bySlug as Error).message).toContain('not form contact-us (id 42)');
    expect(stub.puts()).toEqual([]);
    const own = join(tmp.dir, 'p42.json');
    writeFileSync(own, JSON.stringify({ id: 42, title: 'Own' }));
    await run(stub, fakeIO(), { file: own });
    expect(JSON.parse(stub.puts()[0]!.body).title).toBe('Own');
  });
});

describe('form update --set of identity or computed attributes (reviewer defect 4)', () => {
  it('is refused with exit 2 naming them, before any request, with or without another change', async () => {
    stub = await startFormStub();
    for (const set of [[['workspace_id', '99']], [['id', '7']], [['views_count', '0']], [['share_url', 'x']]] as [string, string][][]) {
      for (const extra of [{}, { title: 'X' }]) {
        const err = await run(stub, fakeIO(), { set, ...extra }).catch((e: unknown) => e);
        expect(codeOf(err)).toBe(2);
        expect((err as Error).message).toContain(`--set cannot change "${set[0]![0]}"`);
      }
    }
    expect(stub.requests).toEqual([]);
  });

  it('a --file with another workspace_id is refused; the same one (a pulled file) is fine', async () => {
    stub = await startFormStub();
    const moved = join(tmp.dir, 'moved.json');
    writeFileSync(moved, JSON.stringify({ workspace_id: 99, title: 'T' }));
    const err = await run(stub, fakeIO(), { file: moved }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe(2);
    expect((err as Error).message).toContain('an update cannot move a form');
    expect(stub.puts()).toEqual([]);
    const same = join(tmp.dir, 'same.json');
    writeFileSync(same, JSON.stringify({ workspace_id: 3, title: 'T' }));
    await run(stub, fakeIO(), { file: same });
    expect(JSON.parse(stub.puts()[0]!.body).title).toBe('T');
  });
});

describe('form update: a flag and --set naming the same attribute (reviewer defect 5)', () => {
  it('is refused with exit 2 before any request', async () => {
    stub = await startFormStub();
    const cases: Partial<Parameters<typeof formUpdateRun>[0]>[] = [
      { title: 'FlagT', set: [['title', 'SetT']] },
      { visibility: 'public', set: [['visibility', 'closed']] },
    ];
    for (const c of cases) {
      const err = await run(stub, fakeIO(), c).catch((e: unknown) => e);
      expect(codeOf(err)).toBe(2);
      expect((err as Error).message).toMatch(/^--(title|visibility) and --set (title|visibility)=… both set/);
    }
    expect(stub.requests).toEqual([]);
  });
});

describe('form update --set of a number where the form holds text (reviewer defect 10)', () => {
  it('says how the value was read and how to pass the text (exit 2, nothing sent); the quoted form is sent as text', async () => {
    stub = await startFormStub();
    const err = await run(stub, fakeIO(), { set: [['title', '2024']] }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe(2);
    expect((err as Error).message).toBe('--set title=2024 reads 2024 as a number (a --set value is JSON when it parses), but title is text; nothing was sent.');
    expect((err as CliError).hint).toBe(`Quote it as a JSON string: --set 'title="2024"' (or --title 2024).`);
    const nested = await run(stub, fakeIO(), { set: [['properties.0.name', 'true']] }).catch((e: unknown) => e);
    expect((nested as Error).message).toContain('reads true as true/false');
    expect(stub.puts()).toEqual([]);
    await run(stub, fakeIO(), { set: [['title', '"2024"']] });
    expect(JSON.parse(stub.puts()[0]!.body).title).toBe('2024');
  });
});

describe('form update --file: fields that leave out attributes the form holds', () => {
  const rating = { id: 'f-rate', type: 'rating', name: 'Rating', required: true, rating_max_value: 10, help: null };
  const form = () => sampleForm({ properties: [{ id: 'f-name', type: 'text', name: 'Name', required: true }, rating] });
  const warning = [
    'warning: the "properties" list drops what it leaves out of 2 fields of form 42 (a field is stored as sent):',
    '  field "Name" (f-name): required',
    '  field "Rating" (f-rate): required, rating_max_value',
    'To keep them, copy them into the file (`formctl form get 42 --json properties` shows them).',
  ].join('\n');
  function patchFile(): string {
    const patch = join(tmp.dir, 'patch.json');
    // `help` held null in the form: leaving it out loses nothing, so it is not named.
    writeFileSync(
      patch,
      JSON.stringify({
        properties: [
          { id: 'f-name', type: 'text', name: 'Full name' },
          { id: 'f-rate', type: 'rating', name: 'Rating' },
        ],
      }),
    );
    return patch;
  }
  const answering = (yes: boolean, asked: string[]) => () =>
    ({
      confirm: async (q: { message: string }) => {
        asked.push(q.message);
        return yes;
      },
    }) as unknown as Prompter;

  it('off a terminal without --yes: the attributes are named per field, exit 2, and no PUT nor backup', async () => {
    stub = await startFormStub({ form: form() });
    const io = fakeIO({ canPrompt: false });
    const err = await run(stub, io, { file: patchFile(), prompter: answering(true, []) }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe(2);
    expect((err as Error).message).toBe('Update form "Contact us" (id 42) anyway: refusing without confirmation.');
    expect(io.err()).toBe(`${warning}\n`);
    expect(stub.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('at a terminal a "no" is exit 3 with nothing sent; a "yes" or --yes sends the list as written', async () => {
    stub = await startFormStub({ form: form() });
    const asked: string[] = [];
    const no = await run(stub, fakeIO({ canPrompt: true }), { file: patchFile(), prompter: answering(false, asked) }).catch((e: unknown) => e);
    expect(codeOf(no)).toBe(3);
    expect(asked).toEqual(['Update form "Contact us" (id 42) anyway?']);
    expect(stub.puts()).toEqual([]);
    await run(stub, fakeIO({ canPrompt: true }), { file: patchFile(), prompter: answering(true, asked) });
    expect(JSON.parse(stub.puts()[0]!.body).properties).toEqual([
      { id: 'f-name', type: 'text', name: 'Full name' },
      { id: 'f-rate', type: 'rating', name: 'Rating' },
    ]);
    await stub.close();
    stub = await startFormStub({ form: form() });
    const io = fakeIO({ canPrompt: false });
    await run(stub, io, { file: patchFile(), yes: true });
    // The change goes out with --yes: the warning names the way back, not a fix of the file.
    expect(io.err()).toBe(
      `${warning.replace(/To keep them.*$/, "With --yes they are dropped; the form's previous version is saved as a backup first (`formctl form restore 42` puts it back).")}\n`,
    );
    expect(stub.puts()).toHaveLength(1);
  });

  it('a dry run says it and needs no --yes; a list that keeps every attribute asks nothing', async () => {
    stub = await startFormStub({ form: form() });
    const dry = fakeIO({ canPrompt: false });
    await run(stub, dry, { file: patchFile(), dryRun: true });
    expect(dry.err()).toBe(`${warning.replace('list drops', 'list would drop')}\nnote: dry run: nothing was sent.\n`);
    const kept = join(tmp.dir, 'kept.json');
    writeFileSync(
      kept,
      JSON.stringify({
        properties: [
          { id: 'f-name', type: 'text', name: 'Full name', required: true },
          { ...rating, help: undefined },
        ],
      }),
    );
    const io = fakeIO({ canPrompt: false });
    await run(stub, io, { file: kept });
    expect(io.err()).toBe('');
    expect(stub.puts()).toHaveLength(1);
  });
});

describe('form update --file: attributes a field leaves out, as the service holds them', () => {
  it('empty values (false, "", null, [], {}) are no loss and ask nothing; anything else is named', async () => {
    // What `form create --field A` stores, plus empty logic and options: leaving them out changes nothing.
    const created = { id: 'a', type: 'text', name: 'A', required: false, hidden: false, help: '', placeholder: null, logic: {}, options: [] };
    stub = await startFormStub({ form: sampleForm({ properties: [created] }) });
    const file = join(tmp.dir, 'renamed.json');
    writeFileSync(file, JSON.stringify({ properties: [{ id: 'a', type: 'text', name: 'A2' }] }));
    const quiet = fakeIO({ canPrompt: false });
    await run(stub, quiet, { file });
    expect(quiet.err()).toBe('');
    expect(stub.puts()).toHaveLength(1);
    await stub.close();

    const held = { ...created, required: true, rating_max_value: 5, logic: { conditions: null, actions: [] }, help: 'h', options: [0] };
    stub = await startFormStub({ form: sampleForm({ properties: [held] }) });
    const io = fakeIO({ canPrompt: false });
    const err = await run(stub, io, { file }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe(2);
    expect(io.err()).toContain('  field "A" (a): required, help, logic, options, rating_max_value\n');
    expect(stub.puts()).toEqual([]);
  });

  it('a field name or id from the service holding a newline or control characters is escaped: no forged line', async () => {
    const field = { id: 'f\nerror: id', type: 'text', name: 'Na\nerror: forged\u001b[2J', required: true, 'x\nerror: key': 1 };
    stub = await startFormStub({ form: sampleForm({ properties: [field] }) });
    const file = join(tmp.dir, 'renamed.json');
    writeFileSync(file, JSON.stringify({ properties: [{ id: field.id, type: 'text', name: 'N' }] }));
    const io = fakeIO({ canPrompt: false });
    await run(stub, io, { file, dryRun: true });
    expect(io.err()).toContain('  field "Na\\x0aerror: forged\\x1b[2J" (f\\x0aerror: id): required, x\\x0aerror: key\n');
    expect(
      io
        .err()
        .split('\n')
        .filter((l) => l.startsWith('error:')),
    ).toEqual([]);
  });
});

describe('form update --file: what `form get --json` holds that the service computes', () => {
  it('is left out of the PUT with one note naming what differs from the form; a file without it, or holding the same values, gets no note', async () => {
    stub = await startFormStub();
    const got = join(tmp.dir, 'got.json');
    writeFileSync(got, JSON.stringify({ ...sampleForm(), title: 'Edited', views_count: 1000, share_url: 'https://elsewhere.example/f' }));
    const io = fakeIO();
    await run(stub, io, { file: got });
    expect(io.err()).toBe(
      `note: ${got} gives 2 attributes the service computes (read-only) other values than form 42 has, not sent: views_count, share_url.\n`,
    );
    expect(JSON.parse(stub.puts()[0]!.body)).toEqual(expectedBody({ title: 'Edited' }));

    // The whole form as read, with an edit of its own only: every computed key as the service has it, no note.
    const same = join(tmp.dir, 'same.json');
    writeFileSync(same, JSON.stringify({ ...stub.form, title: 'Edited once more' }));
    const silent = fakeIO();
    await run(stub, silent, { file: same });
    expect(silent.err()).toBe('');

    const patch = join(tmp.dir, 'patch.json');
    writeFileSync(patch, JSON.stringify({ title: 'Again' }));
    const quiet = fakeIO();
    await run(stub, quiet, { file: patch });
    expect(quiet.err()).toBe('');
  });
});

describe('form update --set: a number JSON would change', () => {
  it('is refused before any request (exit 2), with the quoted form to send; quoted, it is sent as text', async () => {
    stub = await startFormStub();
    const err = await run(stub, fakeIO(), { set: [['settings.code', '12345678901234567890']] }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe(2);
    expect((err as Error).message).toBe(
      '--set settings.code=12345678901234567890: the number 12345678901234567890 would be read as 12345678901234567000: a JSON number keeps about 15 significant digits.',
    );
    expect((err as CliError).hint).toBe(`To keep every digit, send it as text: --set 'settings.code="12345678901234567890"'.`);
    const nested = await run(stub, fakeIO(), { set: [['settings.code', '{"a": [1, 1e400]}']] }).catch((e: unknown) => e);
    expect((nested as Error).message).toContain('the number 1e400 is beyond the largest number JSON holds here');
    expect(stub.requests).toEqual([]);
    await run(stub, fakeIO(), { set: [['settings.code', '"12345678901234567890"']] });
    expect(JSON.parse(stub.puts()[0]!.body).settings).toEqual({ navigation_arrows: false, other: 1, code: '12345678901234567890' });
  });
});
