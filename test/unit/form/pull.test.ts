import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formPullRun } from '../../../src/commands/form/pull.js';
import { CliError } from '../../../src/errors.js';
import { fakeIO } from '../../helpers/io.js';
import { type FormStub, startFormStub, tempDir } from './fixtures.js';

let tmp: ReturnType<typeof tempDir>;
let stub: FormStub;
beforeEach(async () => {
  tmp = tempDir();
  stub = await startFormStub();
});
afterEach(async () => {
  await stub.close();
  tmp.cleanup();
});

const pull = (out: string, force?: true) => formPullRun({ io: fakeIO().io, api: async () => stub.client, form: '42', output: out, force });
const HINT = 'Pass --force to overwrite it, or choose another file with -o.';

describe('form pull -o over an existing file', () => {
  it("overwrites the same form's document (by id, or by slug without an id), and an empty file", async () => {
    for (const before of ['{"id": 42, "title": "Old title", "properties": []}', '{"slug": "contact-us", "title": "Hand-written"}', '', '\n']) {
      const file = join(tmp.dir, 'form.json');
      writeFileSync(file, before);
      await pull(file);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ id: 42, title: 'Contact us' });
    }
  });

  it.each([
    ['{"id": 7, "slug": "newsletter", "title": "Newsletter", "properties": []}', 'holds form "Newsletter" (id 7), not form "Contact us" (id 42)'],
    [
      '{"id": 42, "slug": "payroll", "title": "Payroll", "properties": []}',
      'holds form "Payroll" (id 42, slug "payroll"), not form "Contact us" (id 42, slug "contact-us"): a form of another profile or service',
    ],
    ['{"title": "Signup", "properties": []}', 'holds form "Signup" (no id), not form "Contact us" (id 42)'],
    ['{"name": "my-package", "version": "1.0.0"}', 'exists and is not a form document'],
    ['[1, 2]', 'exists and is not a form document'],
    ['notes, not JSON', 'exists and is not a form document (not JSON)'],
  ])('refuses %s (exit 2, file untouched) unless --force', async (before, problem) => {
    const file = join(tmp.dir, 'target.json');
    writeFileSync(file, before);
    const e = (await pull(file).catch((err) => err)) as CliError;
    expect([e.exitCode, e.message, e.hint]).toEqual([2, `${file} ${problem}; nothing was written.`, HINT]);
    expect(readFileSync(file, 'utf8')).toBe(before);
    await pull(file, true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ id: 42, slug: 'contact-us' });
  });
});

describe('form pull: secrets and files', () => {
  it('leaves the form password out of the document by default, with a note; --include-secrets keeps it', async () => {
    const io = fakeIO();
    await formPullRun({ io: io.io, api: async () => stub.client, form: '42' });
    expect(io.out()).not.toContain('hunter2');
    expect(JSON.parse(io.out())).not.toHaveProperty('password');
    expect(io.err()).toBe('note: left "password" out of the document (a secret); `form apply` keeps the form\'s value. Pass --include-secrets to keep it.\n');

    const file = join(tmp.dir, 'form.json');
    await formPullRun({ io: fakeIO().io, api: async () => stub.client, form: '42', output: file });
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2');

    const all = fakeIO();
    await formPullRun({ io: all.io, api: async () => stub.client, form: '42', includeSecrets: true });
    expect(JSON.parse(all.out()).password).toBe('hunter2');
    expect(all.err()).toBe('');
  });

  it('a form without a password: no note', async () => {
    stub.form.password = null;
    const io = fakeIO();
    await formPullRun({ io: io.io, api: async () => stub.client, form: '42' });
    expect(io.err()).toBe('');
  });

  it('-o into a missing directory: house wording, exit 2, and the form is not fetched', async () => {
    const file = join(tmp.dir, 'missing-dir', 'f.json');
    const e = (await pull(file).catch((err) => err)) as CliError;
    expect([e.exitCode, e.message]).toEqual([2, `Cannot write ${file}: no such directory.`]);
    expect(stub.requests).toEqual([]);
  });
});
