import { describe, expect, it } from 'vitest';
import type { Form } from '../../../src/api/forms.js';
import { findProperty } from '../../../src/forms/properties.js';
import { UsageError } from '../../../src/errors.js';

const form: Form = {
  id: 7,
  slug: 'contact',
  title: 'Contact',
  visibility: 'public',
  properties: [
    { id: 'f-name', type: 'text', name: 'Name' },
    { id: 'f-email', type: 'email', name: 'Email' },
    { id: 'f-dup1', type: 'text', name: 'Comment' },
    { id: 'f-dup2', type: 'text', name: 'Comment' },
    { id: 'f-head', type: 'nf-text', name: 'Heading' },
  ],
};

function thrown(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    return e as UsageError;
  }
  throw new Error('did not throw');
}

describe('findProperty', () => {
  it('finds by id, exact name and case-insensitive name', () => {
    expect(findProperty(form, 'f-email').id).toBe('f-email');
    expect(findProperty(form, 'Name').id).toBe('f-name');
    expect(findProperty(form, ' email ').id).toBe('f-email');
  });

  it('refuses an ambiguous name and lists the ids', () => {
    const e = thrown(() => findProperty(form, 'comment'));
    expect(e).toBeInstanceOf(UsageError);
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe('Field "comment" is ambiguous in form contact: 2 fields have that name.');
    expect(e.hint).toBe('Use the field id instead: f-dup1, f-dup2');
  });

  it('refuses an unknown field and lists input fields only', () => {
    const e = thrown(() => findProperty(form, 'Heading'));
    expect(e.message).toBe('Unknown field "Heading" in form contact.');
    expect(e.hint).toBe('Fields: "Name" (f-name), "Email" (f-email), "Comment" (f-dup1), "Comment" (f-dup2)');
  });
});
