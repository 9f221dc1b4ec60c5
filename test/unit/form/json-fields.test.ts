import { afterEach, describe, expect, it } from 'vitest';
import { formCreateRun } from '../../../src/commands/form/create.js';
import { FORM_FIELDS, PROPERTY_FIELDS } from '../../../src/commands/form/shared.js';
import { formFieldsRun } from '../../../src/commands/form/fields.js';
import { formGetRun } from '../../../src/commands/form/get.js';
import { formUpdateRun } from '../../../src/commands/form/update.js';
import { CliError, UsageError } from '../../../src/errors.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { fakeIO } from '../../helpers/io.js';
import { type FormStub, sampleForm, startFormStub, tempDir } from './fixtures.js';

let stub: FormStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const now = () => new Date(Date.UTC(2025, 2, 4));
const noPrompter = (): Prompter => {
  throw new Error('no prompts expected');
};
const caught = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as CliError,
  );

describe('--json field names of the form commands', () => {
  it('get refuses a name the form neither declares nor has (exit 2, the fields listed)', async () => {
    stub = await startFormStub();
    const io = fakeIO();
    const e = await caught(formGetRun({ io: io.io, api: async () => stub!.client, now, form: '42', json: ['title', 'nope'] }));
    expect(e).toBeInstanceOf(CliError);
    expect(e!.exitCode).toBe(2);
    expect(e!.message).toBe('Unknown JSON field: nope.');
    expect(e!.hint).toBe(`Available fields: ${FORM_FIELDS.join(', ')}`);
    expect(io.out()).toBe('');
  });

  it('get picks declared fields, and keys the form really has that formctl does not declare', async () => {
    stub = await startFormStub({ form: sampleForm({ font_family: 'Inter' }) });
    expect(FORM_FIELDS).not.toContain('font_family');
    const io = fakeIO();
    await formGetRun({ io: io.io, api: async () => stub!.client, now, form: '42', json: ['id', 'font_family', 'closes_at'] });
    expect(io.out()).toBe('{\n  "id": 42,\n  "font_family": "Inter",\n  "closes_at": null\n}\n');
  });

  it('get checks --json/--ndjson conflicts before any request', async () => {
    stub = await startFormStub();
    // get declares no --ndjson; the options may still carry one (a spread), and the conflict is refused first.
    const e = await caught(formGetRun({ io: fakeIO().io, api: async () => stub!.client, now, form: '42', json: true, ...{ ndjson: true } }));
    expect(e!.exitCode).toBe(2);
    expect(stub.requests).toEqual([]);
  });

  it('fields refuses an unknown name and accepts keys a field has', async () => {
    stub = await startFormStub({
      form: sampleForm({ properties: [{ id: 'f-msg', type: 'text', name: 'Message', multi_lines: true }] }),
    });
    const bad = await caught(formFieldsRun({ io: fakeIO().io, api: async () => stub!.client, form: '42', json: ['nope'] }));
    expect(bad!.exitCode).toBe(2);
    expect(bad!.message).toBe('Unknown JSON field: nope.');
    expect(bad!.hint).toBe(`Available fields: ${[...PROPERTY_FIELDS, 'multi_lines'].join(', ')}`);
    const io = fakeIO();
    await formFieldsRun({ io: io.io, api: async () => stub!.client, form: '42', json: ['id', 'multi_lines', 'help'] });
    expect(io.out()).toBe('[\n  {"id":"f-msg","multi_lines":true,"help":null}\n]\n');
  });

  it('update refuses an unknown name before the PUT', async () => {
    stub = await startFormStub();
    const tmp = tempDir();
    try {
      const e = await caught(
        formUpdateRun({
          io: fakeIO().io,
          api: async () => stub!.client,
          backupDir: async () => tmp.dir,
          now,
          form: '42',
          title: 'New',
          validate: true,
          json: ['nope'],
        }),
      );
      expect(e!.exitCode).toBe(2);
      expect(e!.message).toBe('Unknown JSON field: nope.');
      expect(stub.puts()).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  });

  it('create refuses an unknown name before the POST', async () => {
    stub = await startFormStub();
    const e = await caught(
      formCreateRun({
        io: fakeIO().io,
        api: async () => stub!.client,
        resolveWorkspace: async () => 3,
        prompter: noPrompter,
        title: 'T',
        json: ['id', 'nope'],
        validate: true,
      }),
    );
    expect(e!.exitCode).toBe(2);
    expect(e!.message).toBe('Unknown JSON field: nope.');
    expect(stub.requests).toEqual([]);
  });

  it('create refuses an unknown name before the workspace list and the prompts a terminal without a default workspace gets', async () => {
    stub = await startFormStub();
    let prompted = 0;
    const e = await caught(
      formCreateRun({
        io: fakeIO({ tty: true, canPrompt: true }).io,
        api: async () => stub!.client,
        resolveWorkspace: () => Promise.reject(new UsageError('No workspace selected.')),
        prompter: () => {
          prompted++;
          return noPrompter();
        },
        json: ['id', 'nope'],
        validate: true,
      }),
    );
    expect(e!.exitCode).toBe(2);
    expect(e!.message).toBe('Unknown JSON field: nope.');
    expect(stub.requests).toEqual([]);
    expect(prompted).toBe(0);
  });
});
