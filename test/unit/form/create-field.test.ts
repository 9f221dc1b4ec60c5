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
