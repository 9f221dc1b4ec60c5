import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../../src/api/client.js';
import type { Form } from '../../../src/api/forms.js';
import { type RecordedRequest, type StubServer, json, startStubServer } from '../../helpers/http.js';

/** A complete form as the spec's service returns it (get/update), with server-computed keys. */
export function sampleForm(over: Partial<Form> = {}): Form {
  return {
    id: 42,
    slug: 'contact-us',
    workspace_id: 3,
    title: 'Contact us',
    visibility: 'public',
    language: 'en',
    theme: 'default',
    presentation_style: 'classic',
    width: 'centered',
    size: 'md',
    border_radius: 'small',
    dark_mode: 'auto',
    color: '#3B82F6',
    uppercase_labels: false,
    no_branding: false,
    transparent_background: false,
    description: 'Say hello',
    password: 'hunter2',
    settings: { navigation_arrows: false, other: 1 },
    properties: [
      { id: 'f-name', type: 'text', name: 'Name', required: true },
      { id: 'f-email', type: 'email', name: 'Email', required: true },
    ],
    submissions_count: 5,
    views_count: 9,
    share_url: 'https://forms.example/forms/contact-us',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-02T00:00:00.000Z',
    ...over,
  };
}

export interface FormStub extends StubServer {
  form: Form;
  puts(): RecordedRequest[];
  client: ApiClient;
}

/**
 * A one-form service: GET returns the stored form, PUT stores the body (and bumps updated_at).
 * `onGet(n)` may change the form before the n-th GET is answered (a concurrent editor).
 * `wrap` answers PUT the way the deployed service does (`{type,message,form}`).
 */
export async function startFormStub(
  o: {
    form?: Form;
    onGet?: (n: number, form: Form) => void;
    wrap?: boolean;
    onPut?: () => void;
    /** What the service does to a PUT body before storing it (drop blocks, keep the slug…). */
    store?: (body: Record<string, unknown>) => Record<string, unknown>;
    /** A status to answer the PUT with instead of storing it (a refusal, 422 or 403, or a 5xx). */
    putStatus?: (body: Record<string, unknown>) => number | undefined;
  } = {},
): Promise<FormStub> {
  const state = { form: o.form ?? sampleForm() };
  let gets = 0;
  const server = await startStubServer((req, res) => {
    const path = req.url.split('?')[0]!;
    const byRef = path === `/open/forms/${state.form.id}` || path === `/open/forms/${state.form.slug}`;
    if (req.method === 'GET' && byRef) {
      gets++;
      o.onGet?.(gets, state.form);
      return json(res, 200, state.form);
    }
    if (req.method === 'PUT' && path === `/open/forms/${state.form.id}`) {
      o.onPut?.();
      const sent = JSON.parse(req.body) as Record<string, unknown>;
      const status = o.putStatus?.(sent);
      if (status !== undefined)
        return json(res, status, { message: 'Refused.', errors: status === 422 ? { tags: ['The tags field must be an array.'] } : undefined });
      const body = o.store ? o.store(sent) : sent;
      state.form = { ...state.form, ...body, updated_at: '2025-02-01T00:00:00.000Z' } as Form;
      return json(res, 200, o.wrap ? { type: 'success', message: 'Form updated.', form: state.form } : state.form);
    }
    return json(res, 404, { message: 'Not found' });
  });
  const client = new ApiClient({ baseUrl: server.url, token: 't', userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
  const closeServer = server.close;
  // defineProperty, not Object.assign: assign would copy the getter's value once.
  Object.defineProperty(server, 'form', { get: () => state.form });
  return Object.assign(server as StubServer & { form: Form }, {
    puts: () => server.requests.filter((r) => r.method === 'PUT'),
    client,
    close: async () => {
      await client.close();
      await closeServer();
    },
  });
}

/** A temporary state directory. */
export function tempDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'formctl-form-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
