import type { FormProperty } from '../api/forms.js';
import { isLayoutBlock } from '../service/forms.js';

/** The deployed server's fixed text in every delivery (docs/service-details.md, Webhook deliveries). */
export const DEPRECATION_MESSAGE = 'Please do not use the `submission` field. It is deprecated and will be removed in the future.';

/** What a sample needs to know about a form. */
export interface SampleForm {
  id: number;
  title: string;
  slug: string;
  properties: FormProperty[];
}

/** Used when `webhook send` is given neither a form nor a body: a small contact form. */
export const GENERIC_SAMPLE_FORM: SampleForm = {
  id: 1,
  title: 'Sample form',
  slug: 'sample-form',
  properties: [
    { id: 'name', type: 'text', name: 'Name' },
    { id: 'email', type: 'email', name: 'Email' },
    { id: 'message', type: 'text', name: 'Message', multi_lines: true },
  ],
};

function firstOption(p: FormProperty): string {
  const kind = p.type === 'multi_select' ? 'multi_select' : 'select';
  const holder = p[kind] as { options?: Array<{ name?: unknown; id?: unknown }> } | undefined;
  const first = holder?.options?.[0];
  return typeof first?.name === 'string' ? first.name : typeof first?.id === 'string' ? first.id : 'Option 1';
}

/** A plausible answer for a property of this type, so receivers see realistic value types. */
export function sampleValue(p: FormProperty, now: Date): unknown {
  switch (p.type) {
    case 'email':
      return 'jane.doe@example.com';
    case 'number':
      return 42;
    case 'rating':
      return Math.max(1, Math.min(5, Number(p.rating_max_value ?? 5)) - 1);
    case 'scale':
    case 'slider':
      return 5;
    case 'checkbox':
      return true;
    case 'date':
      return now.toISOString().slice(0, 10);
    case 'phone_number':
      return '+15555550123';
    case 'url':
      return 'https://example.com';
    case 'select':
      return firstOption(p);
    case 'multi_select':
      return [firstOption(p)];
    case 'files':
    case 'signature':
      return [];
    case 'matrix':
      return {};
    default:
      return `Sample ${String(p.name ?? p.id).toLowerCase()}`;
  }
}

/**
 * A delivery body shaped like the service's for this form: keys in the deployed order (docs/service-details.md),
 * `submission` by field name (deprecated), `data` by property id with value, name and type.
 */
export function samplePayload(form: SampleForm, o: { now: Date; submissionId?: number }): Record<string, unknown> {
  const submission: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  for (const p of form.properties ?? []) {
    if (isLayoutBlock(p)) continue;
    const value = sampleValue(p, o.now);
    submission[p.name] = value;
    data[p.id] = { value, name: p.name, type: p.type };
  }
  return {
    form_id: form.id,
    form_title: form.title,
    form_slug: form.slug,
    submission,
    data,
    message: DEPRECATION_MESSAGE,
    submission_id: o.submissionId ?? 1,
  };
}
