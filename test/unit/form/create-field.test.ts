import { afterEach, describe, expect, it } from 'vitest';
import { formCreateRun } from '../../../src/commands/form/create.js';
import { CliError } from '../../../src/errors.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { fakeIO } from '../../helpers/io.js';
import { type FormStub, startFormStub } from './fixtures.js';

let stub: FormStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

// The parser's own tests are in field-spec.test.ts.
describe('form create --field "Name:type"', () => {
  it('refuses before any request', async () => {
    stub = await startFormStub();
    const noPrompter = (): Prompter => {
      throw new Error('no prompts expected');
    };
    const e = await formCreateRun({
      io: fakeIO().io,
      api: async () => stub!.client,
      resolveWorkspace: async () => 3,
      prompter: noPrompter,
      title: 'T',
      field: ['Email:bogus'],
      validate: true,
    }).catch((err) => err);
    expect((e as CliError).exitCode).toBe(2);
    expect(stub.requests).toEqual([]);
  });
});

describe('form create --set of a number where a form holds text (reviewer defect 10)', () => {
  it('says how the value was read and how to pass the text, before any request (it said "Missing --title.")', async () => {
    stub = await startFormStub();
    const noPrompter = (): Prompter => {
      throw new Error('no prompts expected');
    };
    for (const [set, hint] of [
      [['title', '2024'], `Quote it as a JSON string: --set 'title="2024"' (or --title 2024).`],
      [['language', '1'], `Quote it as a JSON string: --set 'language="1"'.`],
    ] as const) {
      const e = await formCreateRun({
        io: fakeIO().io,
        api: async () => stub!.client,
        resolveWorkspace: async () => 3,
        prompter: noPrompter,
        field: ['Name'],
        set: [[...set]],
        validate: true,
      }).catch((err: unknown) => err);
      expect((e as CliError).exitCode).toBe(2);
      expect((e as CliError).message).toContain(`--set ${set[0]}=${set[1]} reads ${set[1]} as a number`);
      expect((e as CliError).hint).toBe(hint);
    }
    expect(stub.requests).toEqual([]);
  });
});
