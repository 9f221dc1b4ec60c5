import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type StubServer, json, startStubServer } from '../helpers/http.js';

// A service that answers 200 with the wrong thing: every command must say so (exit 1), naming the
// request, instead of printing nothing with exit 0 or crashing on a missing field.
const FORM = {
  id: 5,
  slug: 'contact',
  title: 'Contact',
  visibility: 'public',
  properties: [{ id: 'f1', type: 'text', name: 'Name' }],
  updated_at: '2026-01-01T00:00:00Z',
};

type Answer = (res: ServerResponse) => void;
const html: Answer = (res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!doctype html><html><body>Welcome to nginx!</body></html>');
};
const empty: Answer = (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end();
};
const bareString: Answer = (res) => json(res, 200, 'ok');
const dataNotList: Answer = (res) => json(res, 200, { data: { id: 1 } });

let server: StubServer;
let answer: Answer = html;
let home: ReturnType<typeof tempHome>;
beforeAll(async () => {
  server = await startStubServer((req, res) => {
    // Form lookups that are not under test answer properly, so the listing after them is reached.
    if (req.method === 'GET' && req.url === '/open/forms/5' && answer !== formAnswer) return json(res, 200, FORM);
    answer(res);
  });
  home = tempHome();
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});
let formAnswer: Answer = empty;

async function run(args: string[], a: Answer, onForm = false) {
  answer = a;
  formAnswer = onForm ? a : empty;
  return runFormctl(args, { env: { ...home.env, FORMCTL_BASE_URL: server.url, FORMCTL_TOKEN: 'fsk_t', FORMCTL_WORKSPACE: '1' } });
}

describe('an answer without the shape the command needs is an error (exit 1), never a silent success or a crash', () => {
  it.each([
    ['workspace list', ['workspace', 'list'], html, 'GET /open/workspaces', 'an HTML page'],
    ['workspace list', ['workspace', 'list'], empty, 'GET /open/workspaces', 'an empty body'],
    ['form list', ['form', 'list'], bareString, 'GET /open/workspaces/1/forms', 'a string'],
    ['form list', ['form', 'list', '--json'], dataNotList, 'GET /open/workspaces/1/forms', 'an object whose data is an object'],
    ['submission list', ['submission', 'list', '5'], dataNotList, 'GET /open/forms/5/submissions', 'an object whose data is an object'],
    ['submission list', ['submission', 'list', '5', '--json'], html, 'GET /open/forms/5/submissions', 'an HTML page'],
  ] as const)('%s: %s', async (_name, args, a, where, what) => {
    const r = await run([...args], a);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/\w/);
    expect(r.stderr.split('\n')[0]).toMatch(
      new RegExp(`^error: The service sent an unexpected answer \\(HTTP 200, ${where}(\\?[^)]*)?\\): a list was expected, it sent ${what}\\.$`),
    );
  });

  it.each([
    ['form get, empty body', ['form', 'get', '5'], empty, 'an empty body'],
    ['form get, bare JSON string', ['form', 'get', '5'], (res: ServerResponse) => json(res, 200, 'a string'), 'a string'],
    ['form update, empty body on its GET', ['form', 'update', '5', '--set', 'title=New'], empty, 'an empty body'],
    [
      'form update, {data: "x"} on its GET',
      ['form', 'update', '5', '--set', 'title=New'],
      (res: ServerResponse) => json(res, 200, { data: 'x' }),
      'an object whose data is a string',
    ],
  ] as const)('%s', async (_name, args, a, what) => {
    const before = server.requests.length;
    const r = await run([...args], a, true);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('Cannot read properties');
    expect(r.stderr.split('\n')[0]).toBe(`error: The service sent an unexpected answer (HTTP 200, GET /open/forms/5): a form was expected, it sent ${what}.`);
    // Nothing was written on the strength of a broken answer.
    expect(server.requests.slice(before).every((q) => q.method === 'GET')).toBe(true);
  });
});
