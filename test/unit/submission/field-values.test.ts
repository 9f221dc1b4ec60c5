import { describe, expect, it } from 'vitest';
import type { Form } from '../../../src/api/forms.js';
import { answerBody } from '../../../src/commands/webhook/trigger.js';
import { CliError } from '../../../src/errors.js';
import { parseLine } from '../../../src/submissions/bulk-input.js';
import { resolveData } from '../../../src/submissions/fields.js';

// Select and multi-select answers are checked against the field's options, as numbers and checkboxes
// are checked against their type: a typo was stored before (submission update) or sent (webhook trigger).
const form = {
  id: 3,
  slug: 'support',
  title: 'Support',
  properties: [
    {
      id: 'f_topic',
      name: 'Topic',
      type: 'select',
      select: {
        options: [
          { id: 'Billing', name: 'Billing' },
          { id: 'Support', name: 'Support' },
        ],
      },
    },
    {
      id: 'f_tags',
      name: 'Tags',
      type: 'multi_select',
      multi_select: {
        options: [
          { id: 'a', name: 'Urgent' },
          { id: 'b', name: 'Later' },
        ],
      },
    },
    { id: 'f_free', name: 'Free', type: 'select' },
    { id: 'f_open', name: 'Open', type: 'select', allow_creation: true, select: { options: [{ id: 'x1', name: 'Known' }] } },
  ],
} as unknown as Form;

function refusal(fn: () => unknown): CliError {
  try {
    fn();
  } catch (err) {
    return err as CliError;
  }
  throw new Error('expected a refusal');
}

describe('select options', () => {
  it('--set and webhook trigger --data: an option in any case is sent as written; another value is exit 2 listing the options', () => {
    expect(resolveData(form, [['topic', 'billing']], { coerce: true })).toEqual({ f_topic: 'Billing' });
    const e = refusal(() => resolveData(form, [['Topic', 'Nonsense']], { coerce: true }));
    expect([e.exitCode, e.message, e.hint]).toEqual([
      2,
      'Field "Topic" (f_topic) is a select field and "Nonsense" is not one of its options.',
      'Options: Billing, Support.',
    ]);
    expect(answerBody(form, [['Topic', 'Support']], new Date()).body).toEqual({ f_topic: 'Support' });
    expect(refusal(() => answerBody(form, [['Topic', 'Nonsense']], new Date())).hint).toBe('Options: Billing, Support.');
  });

  it('an option written in double quotes (--set \'Tags="Later"\') is refused in words that show its quotes, and the hint says to drop them', () => {
    const quoted = refusal(() => resolveData(form, [['Tags', '"Later"']], { coerce: true }));
    expect([quoted.exitCode, quoted.message, quoted.hint]).toEqual([
      2,
      'Field "Tags" (f_tags) is a multi_select field and \'"Later"\' is not one of its options.',
      'Options: Urgent, Later. The quotes are part of the value as given: write Later without them.',
    ]);
    expect(refusal(() => resolveData(form, [['Topic', ' "billing" ']], { coerce: true })).hint).toBe(
      'Options: Billing, Support. The quotes are part of the value as given: write billing without them.',
    );
    // Quotes around something that is no option either: only the options.
    expect(refusal(() => resolveData(form, [['Topic', '"Soon"']], { coerce: true })).hint).toBe('Options: Billing, Support.');
  });

  it('a multi-select given the word null (--set Tags=null) is told that an empty value chooses no option', () => {
    const e = refusal(() => resolveData(form, [['Tags', 'null']], { coerce: true }));
    expect([e.message, e.hint]).toEqual([
      'Field "Tags" (f_tags) is a multi_select field and "null" is not one of its options.',
      'Options: Urgent, Later. An empty value chooses no option.',
    ]);
    expect(resolveData(form, [['Tags', '']], { coerce: true })).toEqual({ f_tags: [] });
    expect(refusal(() => resolveData(form, [['Topic', 'null']], { coerce: true })).hint).toBe('Options: Billing, Support. An empty value clears the answer.');
  });

  it('several options written with commas (--set Tags=Later,Urgent) are told to come as a JSON list', () => {
    expect(refusal(() => resolveData(form, [['Tags', 'later, Urgent']], { coerce: true })).hint).toBe(
      'Options: Urgent, Later. To choose several, give them as a JSON list: ["later","Urgent"].',
    );
    // Not when a part is no option.
    expect(refusal(() => resolveData(form, [['Tags', 'Later,Soon']], { coerce: true })).hint).toBe('Options: Urgent, Later.');
  });

  it('--file and bulk lines: each of a multi-select array is checked; null clears; a field without options is left to the service', () => {
    expect(resolveData(form, [['Tags', ['urgent', 'Later']]])).toEqual({ f_tags: ['Urgent', 'Later'] });
    expect(resolveData(form, [['Tags', null]])).toEqual({ f_tags: null });
    expect(refusal(() => resolveData(form, [['Tags', ['Urgent', 'Soon']]])).message).toBe(
      'Field "Tags" (f_tags) is a multi_select field and "Soon" is not one of its options.',
    );
    expect(resolveData(form, [['Free', 'anything']])).toEqual({ f_free: 'anything' });
  });

  it('--set and --data on a multi-select send a list (the service takes only an array): one option, or a JSON list of them', () => {
    expect(resolveData(form, [['Tags', 'urgent']], { coerce: true })).toEqual({ f_tags: ['Urgent'] });
    expect(resolveData(form, [['Tags', '["later", "Urgent"]']], { coerce: true })).toEqual({ f_tags: ['Later', 'Urgent'] });
    expect(answerBody(form, [['Tags', '["Later"]']], new Date()).body).toMatchObject({ f_tags: ['Later'] });
    expect(refusal(() => resolveData(form, [['Tags', '["Later", "Soon"]']], { coerce: true })).message).toBe(
      'Field "Tags" (f_tags) is a multi_select field and "Soon" is not one of its options.',
    );
  });

  it('bulk lines (submission update --from) and --file send a one-option multi-select as a list too, read as --set reads it', () => {
    expect(parseLine(form, '{"submission_id": 3, "Tags": "urgent"}').data).toEqual({ f_tags: ['Urgent'] });
    expect(parseLine(form, '{"submission_id": 3, "data": {"f_tags": "Later"}}').data).toEqual({ f_tags: ['Later'] });
    expect(parseLine(form, '{"submission_id": 3, "Tags": "[\\"later\\", \\"a\\"]"}').data).toEqual({ f_tags: ['Later', 'a'] });
    // --file goes through the same check (no coercion of strings otherwise).
    expect(resolveData(form, [['Tags', 'urgent']])).toEqual({ f_tags: ['Urgent'] });
    expect(resolveData(form, [['Topic', 'billing']])).toEqual({ f_topic: 'Billing' });
    expect(() => parseLine(form, '{"submission_id": 3, "Tags": "Soon"}')).toThrow(
      'Field "Tags" (f_tags) is a multi_select field and "Soon" is not one of its options.',
    );
  });

  it('a blank multi-select (--set Tags=, "" in --file or a bulk line) is no option chosen, an empty list: not [""], nor refused as no option', () => {
    const free = { ...form, properties: [...form.properties, { id: 'f_any', name: 'Any', type: 'multi_select' }] } as unknown as Form;
    expect(resolveData(free, [['Tags', '']], { coerce: true })).toEqual({ f_tags: [] });
    expect(resolveData(free, [['Any', '  ']], { coerce: true })).toEqual({ f_any: [] });
    expect(
      resolveData(free, [
        ['Tags', ' '],
        ['Any', ''],
      ]),
    ).toEqual({ f_tags: [], f_any: [] });
    expect(parseLine(free, '{"submission_id": 3, "Any": "", "Tags": ""}').data).toEqual({ f_any: [], f_tags: [] });
    expect(answerBody(free, [['Any', '']], new Date()).body).toMatchObject({ f_any: [] });
    // A blank select is no option either: null, which clears the answer (as the deployed server's middleware reads "").
    expect(resolveData(free, [['Topic', '']])).toEqual({ f_topic: null });
    expect(resolveData(free, [['Topic', ' ']], { coerce: true })).toEqual({ f_topic: null });
    expect(answerBody(free, [['Topic', '']], new Date()).body).toMatchObject({ f_topic: null });
  });

  it('a multi-select list leaves out its blank items (no option chosen), which the deployed service would refuse with 422', () => {
    const free = {
      ...form,
      properties: [
        ...form.properties,
        { id: 'f_any', name: 'Any', type: 'multi_select' },
        { id: 'f_own', name: 'Own', type: 'multi_select', allow_creation: true, multi_select: { options: [{ id: 'k', name: 'Known' }] } },
      ],
    } as unknown as Form;
    expect(resolveData(free, [['Tags', ['urgent', '', null, '  ']]])).toEqual({ f_tags: ['Urgent'] });
    expect(resolveData(free, [['Tags', '["Later", ""]']], { coerce: true })).toEqual({ f_tags: ['Later'] });
    // --set gives text: a JSON list with null items is the same list (as --file gives it), nulls left out.
    expect(resolveData(free, [['Tags', '["Urgent", null]']], { coerce: true })).toEqual({ f_tags: ['Urgent'] });
    expect(resolveData(free, [['Tags', '[null]']], { coerce: true })).toEqual({ f_tags: [] });
    expect(resolveData(free, [['Tags', ['']]])).toEqual({ f_tags: [] });
    expect(resolveData(free, [['Any', ['x', null]]])).toEqual({ f_any: ['x'] });
    expect(resolveData(free, [['Own', ['mine', ' ']]])).toEqual({ f_own: ['mine'] });
    expect(parseLine(free, '{"submission_id": 3, "Tags": ["Later", ""]}').data).toEqual({ f_tags: ['Later'] });
    expect(answerBody(free, [['Own', '["new", ""]']], new Date()).body).toMatchObject({ f_own: ['new'] });
  });

  it("as the service: an option's exact id passes, and a field that lets people add options takes a new value", () => {
    expect(resolveData(form, [['Tags', ['a', 'Later']]])).toEqual({ f_tags: ['a', 'Later'] });
    expect(resolveData(form, [['Open', 'Brand new']], { coerce: true })).toEqual({ f_open: 'Brand new' });
    expect(answerBody(form, [['Open', 'Brand new']], new Date()).body).toMatchObject({ f_open: 'Brand new' });
    // An id in another case is not the service's match: still refused.
    expect(refusal(() => resolveData(form, [['Tags', 'A']], { coerce: true })).exitCode).toBe(2);
  });
});
