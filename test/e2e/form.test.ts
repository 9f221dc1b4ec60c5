import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runFormctl } from '../helpers/cli.js';
import { sandboxForTest, useSandboxFixture } from '../helpers/fixture.js';
import { serviceKey } from '../../src/forms/backups.js';

const fx = useSandboxFixture({ seed: 2, env: (sb) => ({ FORMCTL_WORKSPACE: String(sb.workspaceId) }) });

const example = join(ROOT, 'examples', 'contact-form.json');
const backupsOf = (id: number) => join(fx.home.dir, 'state', 'backups', 'default', serviceKey(fx.sb.url), String(id));

async function getForm(id: number): Promise<Record<string, unknown>> {
  const r = await runFormctl(['form', 'get', String(id), '--json'], { env: fx.env });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

async function createExample(): Promise<number> {
  const r = await runFormctl(['form', 'create', '--file', example, '--title', 'Contact e2e'], { env: fx.env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const [id, url] = r.stdout.trimEnd().split('\t');
  expect(url).toMatch(new RegExp(`^${fx.sb.url}/forms/contact-e2e-`));
  return Number(id);
}

/** An $EDITOR: a node script that applies a JS expression to the parsed document (after the // header). */
function editorScript(expr: string, extra = ''): string {
  const path = join(fx.home.dir, `editor-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    path,
    `import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
const text = readFileSync(file, 'utf8').replace(/^\\/\\/.*\\n/gm, '');
const doc = JSON.parse(text);
${extra}
writeFileSync(file, JSON.stringify((${expr})(doc), null, 2));
`,
  );
  return `"${process.execPath}" "${path}"`;
}

describe('formctl form (built binary against the sandbox)', () => {
  it('create from the example file, fields, get', async () => {
    const id = await createExample();
    const fields = await runFormctl(['form', 'fields', String(id)], { env: fx.env });
    expect(fields.stdout).toBe('name\ttext\tYour name\tyes\nemail\temail\tEmail\tyes\ntopic\tselect\tTopic\tyes\nmessage\ttext\tMessage\tyes\n');
    const form = await getForm(id);
    expect(form).toMatchObject({ title: 'Contact e2e', visibility: 'public', description: expect.stringContaining('two working days') });
  });

  it('update keeps omitted fields, writes a 0600 backup first, refuses properties: [] (exit 2)', async () => {
    const id = await createExample();
    const before = await getForm(id);
    const r = await runFormctl(['form', 'update', String(id), '--visibility', 'draft', '--set', 'submit_button_text=Go'], { env: fx.env });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const after = await getForm(id);
    expect(after).toMatchObject({ visibility: 'draft', submit_button_text: 'Go', description: before.description, title: before.title });
    expect(after.properties).toEqual(before.properties);

    const files = readdirSync(backupsOf(id));
    expect(files).toHaveLength(1);
    const backup = join(backupsOf(id), files[0]!);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    // The backup is the form as formctl read it, a moment after `before`: every field the same except
    // last_edited_human ("5 seconds ago"), which the service computes at each read and may tick between the two.
    const { last_edited_human: savedAgo, ...saved } = JSON.parse(readFileSync(backup, 'utf8')) as Record<string, unknown>;
    const { last_edited_human: beforeAgo, ...stable } = before;
    expect(saved).toEqual(stable);
    expect(typeof savedAgo).toBe('string');
    expect(typeof beforeAgo).toBe('string');

    const empty = await runFormctl(['form', 'update', String(id), '--set', 'properties=[]'], { env: fx.env });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe(
      'error: Refusing to send an empty "properties" list: the service would delete every field of the form.\n' +
        'hint: Keep at least one field; to change fields, edit the list returned by `formctl form pull` or `formctl form edit`.\n',
    );
    const patch = await runFormctl(['form', 'update', String(id), '--file', '-'], { env: fx.env, input: '{"properties":[]}' });
    expect(patch.code).toBe(2);
    expect((await getForm(id)).properties).toEqual(before.properties);
  });

  it('--dry-run prints a diff and changes nothing; restore puts the backup back', async () => {
    const id = await createExample();
    const original = await getForm(id);
    const dry = await runFormctl(['form', 'update', String(id), '--title', 'Renamed', '--dry-run'], { env: fx.env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('-  "title": "Contact e2e",\n+  "title": "Renamed",\n');
    expect(dry.stderr).toBe('note: dry run: nothing was sent.\n');
    expect((await getForm(id)).updated_at).toBe(original.updated_at);
    expect(() => readdirSync(backupsOf(id))).toThrow();

    expect((await runFormctl(['form', 'update', String(id), '--title', 'Renamed'], { env: fx.env })).code).toBe(0);
    const list = await runFormctl(['form', 'backups', String(id), '--json', 'title'], { env: fx.env });
    expect(JSON.parse(list.stdout)).toEqual([{ title: 'Contact e2e' }]);

    expect((await runFormctl(['form', 'restore', String(id)], { env: fx.env })).code).toBe(2);
    const restore = await runFormctl(['form', 'restore', String(id), '--yes'], { env: fx.env });
    expect(restore.code).toBe(0);
    expect((await getForm(id)).title).toBe('Contact e2e');
    expect(readdirSync(backupsOf(id))).toHaveLength(2);
  });

  it("backups are kept per service: another service's form with the same id lists none of them; old unkeyed backups count for the profile's own service only", async () => {
    const { sb: other } = await sandboxForTest({ seed: 2 });
    const otherEnv = { ...fx.home.env, ...other.env };
    expect((await runFormctl(['form', 'update', '1', '--title', 'Backed up here'], { env: fx.env })).code).toBe(0);
    const here = await runFormctl(['form', 'backups', '1', '--json', 'path'], { env: fx.env });
    expect((JSON.parse(here.stdout) as unknown[]).length).toBeGreaterThan(0);
    const there = await runFormctl(['form', 'backups', '1', '--json', 'path'], { env: otherEnv });
    expect(JSON.parse(there.stdout)).toEqual([]);
    // A backup in the old layout (<profile>/<form-id>) is not read when FORMCTL_BASE_URL names the service.
    mkdirSync(join(fx.home.dir, 'state', 'backups', 'default', '1'), { recursive: true });
    writeFileSync(join(fx.home.dir, 'state', 'backups', 'default', '1', '2020-01-01T00-00-00.000Z.json'), '{"id":1,"title":"old"}\n');
    const still = await runFormctl(['form', 'backups', '1', '--json', 'title'], { env: otherEnv });
    expect(JSON.parse(still.stdout)).toEqual([]);
  });

  it('an attribute the form does not have is refused before sending, with close matches (built binary)', async () => {
    const r = await runFormctl(['form', 'update', '2', '--set', 'visibilty=closed'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"visibilty": did you mean "visibility"?');
  });

  it('pull then apply twice: the second apply sends no PUT', async () => {
    const id = await createExample();
    const file = join(fx.home.dir, `form-${id}.json`);
    expect((await runFormctl(['form', 'pull', String(id), '-o', file], { env: fx.env })).code).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc).not.toHaveProperty('share_url');
    expect(doc).not.toHaveProperty('updated_at');
    doc.title = 'Applied';
    writeFileSync(file, JSON.stringify(doc, null, 2));

    const first = await runFormctl(['form', 'apply', '-f', file], { env: fx.env });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    const stamp = (await getForm(id)).updated_at;
    expect((await getForm(id)).title).toBe('Applied');

    const second = await runFormctl(['form', 'apply', '-f', file], { env: fx.env });
    expect(second).toMatchObject({ code: 0, stdout: '', stderr: `note: no changes: form "Applied" (id ${id}) already matches; nothing was sent.\n` });
    expect((await getForm(id)).updated_at).toBe(stamp);
    expect(readdirSync(backupsOf(id))).toHaveLength(1);
  });

  it('apply creates a form that does not exist and records its id in the file', async () => {
    const file = join(fx.home.dir, 'new-form.json');
    writeFileSync(file, readFileSync(example, 'utf8'));
    const r = await runFormctl(['form', 'apply', '-f', file], { env: fx.env });
    expect(r.code).toBe(0);
    const id = Number(r.stdout.split('\t')[0]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ id, workspace_id: fx.sb.workspaceId, title: 'Contact us' });
    const again = await runFormctl(['form', 'apply', '-f', file], { env: fx.env });
    expect(again.stderr).toBe(`note: no changes: form "Contact us" (id ${id}) already matches; nothing was sent.\n`);
  });

  it('edit: $EDITOR changes the document, the diff is shown, the form is updated', async () => {
    const id = await createExample();
    const editor = editorScript('(d) => ({ ...d, title: "Edited" })');
    const r = await runFormctl(['form', 'edit', String(id), '--yes'], { env: { ...fx.env, EDITOR: editor } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('-  "title": "Contact e2e",\n+  "title": "Edited",\n');
    expect((await getForm(id)).title).toBe('Edited');
  });

  it('edit never writes the form password to the editor file: a mask left as it is keeps it, a new value or null changes it', async () => {
    const id = await createExample();
    const set = await runFormctl(['form', 'update', String(id), '--set', 'password=s3cret-pw', '--yes'], { env: fx.env });
    expect(set.code, set.stderr).toBe(0);
    const password = async () => JSON.parse((await runFormctl(['form', 'get', String(id), '--json', 'password'], { env: fx.env })).stdout).password;
    expect(await password()).toBe('s3cret-pw');
    const seen = join(fx.home.dir, `seen-${id}.json`);
    const copy = `writeFileSync(${JSON.stringify(seen)}, readFileSync(file, 'utf8'));`;
    const keep = await runFormctl(['form', 'edit', String(id), '--yes'], {
      env: { ...fx.env, EDITOR: editorScript('(d) => ({ ...d, title: "Masked" })', copy) },
    });
    expect(keep.code, keep.stderr).toBe(0);
    const shown = readFileSync(seen, 'utf8');
    expect(shown).not.toContain('s3cret-pw');
    expect(shown).toContain('"password": "********"');
    expect(shown).toContain('// "password": "********" stands for the current password, which is kept');
    expect(keep.stdout).not.toMatch(/password/);
    expect(await password()).toBe('s3cret-pw');
    const change = await runFormctl(['form', 'edit', String(id), '--yes'], {
      env: { ...fx.env, EDITOR: editorScript('(d) => ({ ...d, password: "new-pw" })') },
    });
    expect(change.code, change.stderr).toBe(0);
    expect(await password()).toBe('new-pw');
    const clear = await runFormctl(['form', 'edit', String(id), '--yes'], { env: { ...fx.env, EDITOR: editorScript('(d) => ({ ...d, password: null })') } });
    expect(clear.code, clear.stderr).toBe(0);
    expect(await password()).toBeNull();
  });

  it('edit refuses before opening the editor when it could not be confirmed or there is no terminal editor (exit 2)', async () => {
    const id = await createExample();
    const marker = join(fx.home.dir, `opened-${id}`);
    const editor = editorScript('(d) => ({ ...d, title: "Never" })', `writeFileSync(${JSON.stringify(marker)}, 'x');`);
    const noYes = await runFormctl(['form', 'edit', String(id)], { env: { ...fx.env, EDITOR: editor, CI: 'true' } });
    expect(noYes).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: form edit asks before updating, and prompts are off.\n' +
        'hint: Pass --yes to update after the diff, or --dry-run to only see it (prompts are off: not a terminal, CI, or --no-input).\n',
    });
    // Piped and no $VISUAL/$EDITOR: vi must not be started on a pipe.
    const noEditor = await runFormctl(['form', 'edit', String(id), '--yes'], { env: fx.env, timeoutMs: 5000 });
    expect(noEditor).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: form edit needs an editor: $VISUAL and $EDITOR are unset, and vi needs a terminal.\n' +
        'hint: Set EDITOR (e.g. EDITOR="code --wait"), or change the form with `formctl form update` or `formctl form pull` + `formctl form apply`.\n',
    });
    expect(() => statSync(marker)).toThrow();
    expect((await getForm(id)).title).toBe('Contact e2e');
  });

  it('edit detects a change made while the editor was open (exit 9, nothing sent)', async () => {
    const id = await createExample();
    // The "editor" changes the form through another formctl process before saving its own change.
    const other = `(await import('node:child_process')).execFileSync(process.execPath, [${JSON.stringify(BIN)}, 'form', 'update', '${id}', '--title', 'Someone else']);`;
    const editor = editorScript('(d) => ({ ...d, description: "mine" })', other);
    const r = await runFormctl(['form', 'edit', String(id), '--yes'], { env: { ...fx.env, EDITOR: editor } });
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(/^error: Form \d+ changed since it was read \(updated_at .+ → .+\); nothing was sent\.\n/);
    const form = await getForm(id);
    expect(form).toMatchObject({ title: 'Someone else' });
    expect(form.description).not.toBe('mine');
  });

  it('get and fields refuse unknown --json fields (exit 2) and list the known ones in --help', async () => {
    const get = await runFormctl(['form', 'get', String(fx.sb.formId), '--json', 'nope'], { env: fx.env });
    expect(get).toMatchObject({ code: 2, stdout: '' });
    expect(get.stderr).toMatch(
      /^error: Unknown JSON field: nope\.\nhint: Available fields: id, slug, workspace_id, title, visibility, .*, share_url(, [a-z_]+)*\n$/,
    );
    const fields = await runFormctl(['form', 'fields', String(fx.sb.formId), '--json', 'nope'], { env: fx.env });
    expect(fields).toMatchObject({ code: 2, stdout: '' });
    expect(fields.stderr).toMatch(/^error: Unknown JSON field: nope\.\nhint: Available fields: id, type, name, required, hidden, help, /);
    const help = await runFormctl(['form', 'get', '--help'], { env: fx.env });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('(fields: id, slug, workspace_id, title, visibility, language,');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('--json also accepts any other key the form has on the service (checked once fetched)');
  });

  it('list, list-all and delete', async () => {
    const id = await createExample();
    const list = await runFormctl(['form', 'list', '--json', 'id,title'], { env: fx.env });
    expect(JSON.parse(list.stdout)).toContainEqual({ id, title: 'Contact e2e' });
    const limited = await runFormctl(['form', 'list', '--limit', '1'], { env: fx.env });
    expect(limited.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(limited.stderr).toBe('note: showing the first 1 form; pass --all or --limit N for more.\n');
    const all = await runFormctl(['form', 'list-all', '--json', 'id'], { env: fx.env });
    expect(all.stderr).toBe('note: GET /open/forms is deprecated by the service; prefer `formctl form list -w <workspace> --all`.\n');
    expect(JSON.parse(all.stdout)).toContainEqual({ id });

    expect((await runFormctl(['form', 'delete', String(id)], { env: fx.env })).code).toBe(2);
    expect((await runFormctl(['form', 'delete', String(id), '--yes'], { env: fx.env })).code).toBe(0);
    expect((await runFormctl(['form', 'get', String(id)], { env: fx.env })).code).toBe(6);
  });
});
