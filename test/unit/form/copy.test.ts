import { describe, expect, it } from 'vitest';
import type { Form } from '../../../src/api/forms.js';
import { NOT_COPIED, copyDocument } from '../../../src/commands/form/copy.js';

describe('copyDocument', () => {
  it('drops identity, server-computed keys, slug, password and custom domain, and names what held a value', () => {
    const form = {
      id: 4,
      slug: 'contact',
      workspace_id: 2,
      title: 'Contact',
      password: 'pw',
      custom_domain: 'forms.example.com',
      views_count: 10,
      share_url: 'https://x/forms/contact',
      settings: { navigation_arrows: true },
      properties: [{ id: 'a', type: 'text', name: 'A', logic: { conditions: null, actions: [] } }],
    } as unknown as Form;
    const { doc, dropped } = copyDocument(form);
    expect(dropped).toEqual({ slug: 'contact', password: 'pw', custom_domain: 'forms.example.com' });
    expect(doc).toEqual({
      title: 'Contact',
      settings: { navigation_arrows: true },
      properties: [{ id: 'a', type: 'text', name: 'A', logic: { actions: [], conditions: null } }],
    });
    for (const k of NOT_COPIED) expect(doc).not.toHaveProperty(k);
  });

  it('an empty password or domain is not reported as dropped', () => {
    const { dropped } = copyDocument({ id: 1, slug: 's', title: 'T', password: null, custom_domain: '', properties: [] } as unknown as Form);
    expect(dropped).toEqual({ slug: 's' });
  });
});
