// Moved from test/unit/form/create-field.test.ts with parseField (src/forms/field-spec.ts).
import { describe, expect, it } from 'vitest';
import { CliError } from '../../../src/errors.js';
import { newField, parseField } from '../../../src/forms/field-spec.js';
import { PROPERTY_TYPES } from '../../../src/forms/properties.js';

const newId = () => 'f1';
const errorOf = (fn: () => unknown): CliError => {
  try {
    fn();
  } catch (e) {
    return e as CliError;
  }
  throw new Error('expected an error');
};
const TYPES_HINT = `Types: ${PROPERTY_TYPES.join(', ')}. Leave out ":type" for a text field.`;

describe('the --field "Name:type" mini-language', () => {
  it.each([
    ['Name', { name: 'Name', type: 'text' }],
    ['Email:email', { name: 'Email', type: 'email' }],
    ['Email:EMAIL', { name: 'Email', type: 'email' }],
    ['Time: start:date', { name: 'Time: start', type: 'date' }],
    ['Intro:nf-text', { name: 'Intro', type: 'nf-text' }],
  ])('%s', (spec, want) => {
    expect(parseField(spec, newId)).toEqual({ id: 'f1', ...want, required: false });
  });

  it.each([
    ['Email:bogus', 'Invalid --field "Email:bogus": unknown field type "bogus".', TYPES_HINT],
    ['Email:', 'Invalid --field "Email:": the type after ":" is empty.', TYPES_HINT],
    [':email', 'Invalid --field ":email": the field needs a name.', 'Use --field "Name" or --field "Email:email".'],
    ['  ', 'Invalid --field "  ": the field needs a name.', 'Use --field "Name" or --field "Email:email".'],
    // Not a block type of the service (docs/forms.md), though the spec's sample uses it.
    ['Name:short_text', 'Invalid --field "Name:short_text": unknown field type "short_text".', TYPES_HINT],
  ])('%s is refused (exit 2)', (spec, message, hint) => {
    const e = errorOf(() => parseField(spec, newId));
    expect([e.exitCode, e.message, e.hint]).toEqual([2, message, hint]);
  });

  it.each([
    ['Plan:select=Free,Pro,Team', 'Plan', 'select', ['Free', 'Pro', 'Team']],
    ['Plan:SELECT= Free , Pro ,,Free', 'Plan', 'select', ['Free', 'Pro']],
    ['Slot: time:multi_select=10:00,11:30', 'Slot: time', 'multi_select', ['10:00', '11:30']],
  ])('%s gives a %s field with its options keyed by name', (spec, name, type, options) => {
    expect(parseField(spec, newId)).toEqual({ id: 'f1', type, name, required: false, [type]: { options: options.map((o) => ({ id: o, name: o })) } });
  });

  it.each([
    ['Plan:select', 'Invalid --field "Plan:select": a select field needs its options.', 'List them after "=", e.g. --field "Plan:select=Free,Pro,Team".'],
    [
      'Tags:multi_select= , ',
      'Invalid --field "Tags:multi_select= , ": a multi_select field needs its options.',
      'List them after "=", e.g. --field "Tags:multi_select=Free,Pro,Team".',
    ],
  ])('%s without options is refused (exit 2): the service refuses a select with none', (spec, message, hint) => {
    const e = errorOf(() => parseField(spec, newId));
    expect([e.exitCode, e.message, e.hint]).toEqual([2, message, hint]);
  });
});

describe('newField: the one shape of a field formctl adds (--field, the prompt, the default Name field)', () => {
  it('is an optional field with a fresh id, a trimmed name and the type given', () => {
    expect(newField('  Plan ', 'select', newId)).toEqual({ id: 'f1', type: 'select', name: 'Plan', required: false });
    expect(parseField('Plan:select=Free', newId)).toEqual({ ...newField('Plan', 'select', newId), select: { options: [{ id: 'Free', name: 'Free' }] } });
  });
});
