// `form update --file` and `form apply` from the built binary on both sandbox flavours: what the
// file holds is what is sent, and nothing it would lose on the way goes unsaid.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

describe.each(FLAVORS)('form --file on the %s flavour', (flavor) => {
  const fx = useSandboxFixture({ flavor, seed: 0 });

  const properties = async (): Promise<Record<string, unknown>[]> => {
    const r = await runFormctl(['form', 'get', String(fx.sb.formId), '--json', 'properties'], { env: fx.env });
    expect(r.code).toBe(0);
    return (JSON.parse(r.stdout) as { properties: Record<string, unknown>[] }).properties;
  };

  it('a field that leaves out attributes the form holds: named, refused without --yes (exit 2, nothing sent), sent with it', async () => {
    const before = await properties();
    expect(before.find((p) => p.id === 'rating')).toMatchObject({ required: false, rating_max_value: 5 });
    // The fields as a person writes them: only the name changes, `required` and the rating's scale left out.
    const file = join(fx.work, 'rename.json');
    writeFileSync(file, JSON.stringify({ properties: before.map((p) => ({ id: p.id, type: p.type, name: p.id === 'name' ? 'Full name' : p.name })) }));
    const warning =
      `warning: the "properties" list drops what it leaves out of 3 fields of form ${fx.sb.formId} (a field is stored as sent):\n` +
      // `required: false` (email, rating, comments) is no loss, so it is not named.
      '  field "Name" (name): required\n  field "Rating" (rating): rating_max_value\n  field "Comments" (comments): multi_lines\n' +
      `To keep them, copy them into the file (\`formctl form get ${fx.sb.formId} --json properties\` shows them).\n`;
    for (const args of [
      ['form', 'update', String(fx.sb.formId), '--file', file],
      ['form', 'apply', '-f', file, '--onto', String(fx.sb.formId)],
    ]) {
      const refused = await runFormctl(args, { env: fx.env });
      expect(refused).toEqual({
        code: 2,
        stdout: '',
        stderr: `${warning}error: Update form "Customer feedback (demo)" (id ${fx.sb.formId}) anyway: refusing without confirmation.\nhint: Pass --yes to confirm.\n`,
      });
      expect(await properties()).toEqual(before);
    }
    // With --yes the change goes out: no advice to fix the file, but the way back.
    const yes = await runFormctl(['form', 'update', String(fx.sb.formId), '--file', file, '--yes'], { env: fx.env });
    expect(yes.stderr).toBe(
      warning.replace(
        /To keep them.*\n$/,
        `With --yes they are dropped; the form's previous version is saved as a backup first (\`formctl form restore ${fx.sb.formId}\` puts it back).\n`,
      ),
    );
    expect(yes.code).toBe(0);
    expect((await properties()).find((p) => p.id === 'rating')).toEqual({ id: 'rating', type: 'rating', name: 'Rating' });
  });

  it('a number of the file that JSON would change is refused with its line, before any request (exit 2)', async () => {
    const file = join(fx.work, 'numbers.json');
    writeFileSync(file, '{\n  "settings": {\n    "big": 12345678901234567891\n  }\n}\n');
    const before = await runFormctl(['form', 'get', String(fx.sb.formId), '--json', 'settings,updated_at'], { env: fx.env });
    // No service at all: the file is refused before formctl would reach one.
    const offline = { ...fx.env, FORMCTL_BASE_URL: 'http://127.0.0.1:9' };
    expect(await runFormctl(['form', 'update', String(fx.sb.formId), '--file', file], { env: offline })).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ${file}, line 3, column 12: the number 12345678901234567891 would be read as 12345678901234567000: a JSON number keeps about 15 significant digits.\nhint: To keep every digit, write it as a string: "12345678901234567891".\n`,
    });
    const stdin = await runFormctl(['form', 'update', String(fx.sb.formId), '--file', '-'], {
      env: fx.env,
      input: '{"settings": {"ratio": 0.10000000000000000555}}',
    });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toMatch(/^error: stdin, line 1, column 24: the number 0\.10000000000000000555 would be read as 0\.1: /);
    expect(await runFormctl(['form', 'get', String(fx.sb.formId), '--json', 'settings,updated_at'], { env: fx.env })).toEqual(before);
  });

  it('get --json, edit, update: a computed key the file changes is left out with one note naming it alone; apply says the same', async () => {
    const get = async () => {
      const got = await runFormctl(['form', 'get', String(fx.sb.formId), '--json'], { env: fx.env });
      expect(got.code).toBe(0);
      return JSON.parse(got.stdout) as Record<string, unknown>;
    };
    const form = await get();
    expect(['views_count', 'submissions_count', 'share_url', 'updated_at', 'last_edited_human'].filter((k) => k in form)).toHaveLength(5);
    // The form as read, one attribute of its own edited: nothing computed differs, so no note.
    const plain = join(fx.work, 'plain.json');
    writeFileSync(plain, JSON.stringify({ ...form, description: 'Edited after get' }));
    const quiet = await runFormctl(['form', 'update', String(fx.sb.formId), '--file', plain, '--json', 'description'], { env: fx.env });
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(quiet.stdout)).toEqual({ description: 'Edited after get' });

    const now = await get();
    const file = join(fx.work, 'got.json');
    writeFileSync(file, JSON.stringify({ ...now, description: 'Edited again', views_count: 12345 }));
    const r = await runFormctl(['form', 'update', String(fx.sb.formId), '--file', file, '--json', 'description,views_count'], { env: fx.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `note: ${file} gives an attribute the service computes (read-only) another value than form ${fx.sb.formId} has, not sent: views_count.\n`,
    );
    expect(JSON.parse(r.stdout)).toEqual({ description: 'Edited again', views_count: now.views_count });
    // Read again after that update (which moved updated_at): the count alone differs, and nothing else changes.
    const again = join(fx.work, 'again.json');
    writeFileSync(again, JSON.stringify({ ...(await get()), views_count: 12345 }));
    const apply = await runFormctl(['form', 'apply', '-f', again, '--onto', String(fx.sb.formId)], { env: fx.env });
    expect(apply.code).toBe(0);
    expect(apply.stderr).toContain(
      `note: ${again} gives an attribute the service computes (read-only) another value than form ${fx.sb.formId} has, not sent: views_count.\n`,
    );
    expect(apply.stderr).toContain('note: no changes:');
  });

  it('edit --dry-run and edit --yes name the attributes a kept field leaves out, on stderr after the diff, as update --yes does', async () => {
    const created = await runFormctl(['form', 'create', '-w', String(fx.sb.workspaceId), '--file', join(ROOT, 'examples', 'contact-form.json')], {
      env: fx.env,
    });
    expect(created.code).toBe(0);
    const id = created.stdout.split('\t')[0]!;
    // The "editor": the name's placeholder and the message's limit left out, the rest kept.
    const editor = join(fx.work, 'drop-editor.mjs');
    writeFileSync(
      editor,
      `import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
const doc = JSON.parse(readFileSync(file, 'utf8').replace(/^\\/\\/.*\\n/gm, ''));
delete doc.properties.find((p) => p.id === 'name').placeholder;
delete doc.properties.find((p) => p.id === 'message').max_char_limit;
writeFileSync(file, JSON.stringify(doc, null, 2));
`,
    );
    const env = { ...fx.env, EDITOR: `"${process.execPath}" "${editor}"` };
    const named = (verb: string) =>
      `the "properties" list ${verb} what it leaves out of 2 fields of form ${id} (a field is stored as sent):\n` +
      '  field "Your name" (name): placeholder\n  field "Message" (message): max_char_limit\n' +
      (verb === 'drops'
        ? `With --yes they are dropped; the form's previous version is saved as a backup first (\`formctl form restore ${id}\` puts it back).\n`
        : `To keep them, copy them into the file (\`formctl form get ${id} --json properties\` shows them).\n`);
    const dry = await runFormctl(['form', 'edit', id, '--dry-run'], { env });
    expect(dry).toMatchObject({ code: 0, stderr: `warning: ${named('would drop')}note: dry run: nothing was sent.\n` });
    expect(dry.stdout).toContain('-      "max_char_limit": 2000');
    const r = await runFormctl(['form', 'edit', id, '--yes'], { env });
    expect(r).toMatchObject({ code: 0, stderr: `warning: ${named('drops')}` });
    expect(r.stdout).toContain('-      "placeholder": "Ada Lovelace"');
    const after = JSON.parse((await runFormctl(['form', 'get', id, '--json', 'properties'], { env: fx.env })).stdout) as {
      properties: Record<string, unknown>[];
    };
    expect(after.properties.find((p) => p.id === 'name')).not.toHaveProperty('placeholder');
    expect(after.properties.find((p) => p.id === 'message')).not.toHaveProperty('max_char_limit');
    // The way back the warning names: the backup saved before the edit.
    const restored = await runFormctl(['form', 'restore', id, '--yes'], { env: fx.env });
    expect(restored.code, restored.stderr).toBe(0);
    const back = JSON.parse((await runFormctl(['form', 'get', id, '--json', 'properties'], { env: fx.env })).stdout) as {
      properties: Record<string, unknown>[];
    };
    expect(back.properties.find((p) => p.id === 'name')).toHaveProperty('placeholder', 'Ada Lovelace');
  });
});
