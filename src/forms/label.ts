import type { Form } from '../api/forms.js';

/** `"Title" (id 5)`: how every message names a form (form, submission and webhook commands alike). */
export function formLabel(form: Pick<Form, 'id' | 'title'>): string {
  return `"${form.title}" (id ${form.id})`;
}
