// A hostile or careless client must not be able to break the sandbox for everyone else.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/sandbox/server.js';
import { answer, boot, call, createForm } from './helpers.js';

/** Sends `total` bytes as a chunked body (no Content-Length) and resolves with the status, or the error. */
function chunkedPost(url: string, total: number): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (err) => resolve({ error: err.message }));
    });
    req.on('error', (err) => resolve({ error: err.message }));
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < total) {
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

describe('sandbox hardening: incoming JSON', () => {
  it('refuses a value nested 10,000 deep with 422, and lists and exports keep working', async () => {
    const sb = await boot({ seed: 2 });
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const res = await call(sb, 'POST', `/forms/${sb.formSlug}/answer`, `{"name":"Mallory","comments":${deep}}`, null);
    expect(res.status).toBe(422);
    expect(res.json.message).toBe(`The request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels of arrays and objects).`);
    const list = await call(sb, 'GET', `/open/forms/${sb.formId}/submissions`);
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(2);
    const csv = await call(sb, 'POST', `/open/forms/${sb.formId}/submissions/export`, { columns: { name: true } });
    expect(csv.status).toBe(200);
    expect(csv.text.split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('accepts nesting up to the limit (the body object is level 1)', async () => {
    const sb = await boot();
    const form = await createForm(sb);
    const ok = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
    expect((await call(sb, 'POST', `/forms/${form.slug}/answer`, `{"name":"A","email":${ok(MAX_JSON_DEPTH - 1)}}`, null)).status).toBe(200);
    expect((await call(sb, 'POST', `/forms/${form.slug}/answer`, `{"name":"A","email":${ok(MAX_JSON_DEPTH)}}`, null)).status).toBe(422);
    // Brackets inside strings are text, not nesting.
    expect((await answer(sb, form.slug, { name: '['.repeat(5000) })).status).toBe(200);
  });

  it('answers a 20 MB chunked body with 413 (and stays usable)', async () => {
    const sb = await boot({ seed: 1 });
    const res = await chunkedPost(`${sb.url}/forms/${sb.formSlug}/answer`, 20 * 1024 * 1024);
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body!)).toEqual({ message: 'The request body is larger than 10485760 bytes.' });
    expect((await call(sb, 'GET', `/open/forms/${sb.formId}/submissions`)).json).toHaveLength(1);
  });

  it('answers a 12 MB body with a Content-Length with 413 too', async () => {
    const sb = await boot({ seed: 1 });
    const res = await call(sb, 'POST', `/forms/${sb.formSlug}/answer`, `{"name":"${'x'.repeat(12 * 1024 * 1024)}"}`, null);
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect((await call(sb, 'GET', `/open/forms/${sb.formId}/submissions`)).json).toHaveLength(1);
  });
});
