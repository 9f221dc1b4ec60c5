import type { ServerResponse } from 'node:http';
import { ApiClient } from '../../../src/api/client.js';
import { type RecordedRequest, json } from '../../helpers/http.js';

/** A client for a stub server: no real backoff, short timeouts. */
export function clientFor(url: string, o: { signal?: AbortSignal; maxWaitMs?: number } = {}): ApiClient {
  return new ApiClient({
    baseUrl: url,
    token: 'tok_test',
    userAgent: 'formctl-test',
    timeoutMs: 5_000,
    maxWaitMs: o.maxWaitMs ?? 1_000,
    retryBaseMs: 1,
    signal: o.signal,
  });
}

/** The demo form the stubs serve: two inputs, one layout block, and a duplicated name for ambiguity tests. */
export const FORM = {
  id: 42,
  slug: 'contact-us',
  title: 'Contact us',
  visibility: 'public',
  properties: [
    { id: 'p_name', type: 'text', name: 'Name' },
    { id: 'p_email', type: 'email', name: 'Email' },
    { id: 'p_note', type: 'nf-text', name: 'Intro' },
    { id: 'p_age', type: 'number', name: 'Age' },
    { id: 'p_c1', type: 'text', name: 'Comment' },
    { id: 'p_c2', type: 'text', name: 'comment' },
  ],
};

/** Answers GET /open/forms/{42|contact-us} with FORM; returns true when it did. */
export function serveForm(req: RecordedRequest, res: ServerResponse): boolean {
  if (req.method === 'GET' && /^\/open\/forms\/(42|contact-us)$/.test(req.url)) {
    json(res, 200, FORM);
    return true;
  }
  return false;
}
