import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { buildBody, keyPath, orderedFields, parseHeaders, typedValue } from '../../../src/commands/api/fields.js';
import newApiCommand, { type ApiOptions, apiRun } from '../../../src/commands/api/index.js';
import { CliError } from '../../../src/errors.js';
import type { Factory } from '../../../src/factory.js';
import { fakeIO } from '../../helpers/io.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';

describe('field parsing', () => {
  it('-F types values; @file reads a file', () => {
    expect([typedValue('true'), typedValue('false'), typedValue('null'), typedValue('42'), typedValue('-1.5e3'), typedValue('007'), typedValue('abc')]).toEqual(
      [true, false, null, 42, -1500, '007', 'abc'],
    );
    expect(typedValue('@some/file', (p) => `contents of ${p}`)).toBe('contents of some/file');
    const err = (() => {
      try {
        typedValue('@/no/such/file');
      } catch (e) {
        return e as CliError;
      }
    })();
    expect([err?.exitCode, err?.message]).toEqual([2, 'Cannot read /no/such/file: no such file.']);
  });

  it('nests a[b] and appends a[]', () => {
    expect(keyPath('a[b][]')).toEqual(['a', 'b', '']);
    for (const key of ['__proto__[x]', 'a[__proto__]', 'a[constructor][prototype]']) {
      expect(() => keyPath(key), key).toThrow(/reserved name/);
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(
      buildBody([
        { key: 'name', value: 'x' },
        { key: 'columns[created_at]', value: true },
        { key: 'columns[q1]', value: false },
        { key: 'tags[]', value: 'a' },
        { key: 'tags[]', value: 'b' },
        { key: 'props[][id]', value: 1 },
      ]),
    ).toEqual({ name: 'x', columns: { created_at: true, q1: false }, tags: ['a', 'b'], props: [{ id: 1 }] });
    expect(() =>
      buildBody([
        { key: 'a', value: 1 },
        { key: 'a[]', value: 2 },
      ]),
    ).toThrow(CliError);
    expect(() => keyPath('a[b')).toThrow('Invalid field name "a[b".');
  });

  it('any plain key=value round-trips as a string field', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/), fc.string(), (key, value) => {
        expect(buildBody([{ key, value }])).toEqual({ [key]: value });
      }),
    );
  });

  it('headers: lower-cased names; Authorization and malformed ones refused', () => {
    expect(parseHeaders(['X-Trace: abc', 'Accept:text/csv'])).toEqual({ 'x-trace': 'abc', accept: 'text/csv' });
    expect(() => parseHeaders(['Authorization: Bearer x'])).toThrow('formctl sets the Authorization header itself.');
    expect(() => parseHeaders(['no colon'])).toThrow(`-H "no …" is not a valid header: it has no ':' between the name and the value.`);
    expect(() => parseHeaders(['X-Foo'])).toThrow(`-H "X-Foo" is not a valid header: it has no ':' between the name and the value.`);
    expect(() => parseHeaders(['X Foo: bar'])).toThrow('-H is not a valid header: its name has a character header names cannot have.');
  });

  it('headers: a value Node would refuse is refused here, naming the header but never quoting the value or a nameless flag', () => {
    const refused = (flags: string[]) => {
      try {
        parseHeaders(flags);
      } catch (e) {
        return [(e as CliError).exitCode, (e as CliError).message];
      }
      return undefined;
    };
    expect(refused(['X-A: a\r\nX-B: b'])).toEqual([2, "Header value for 'X-A' contains a line break; nothing was sent."]);
    expect(refused(['X-Ok: 1', 'X-Key: s3cr3t\u0007'])).toEqual([2, "Header value for 'X-Key' contains a control character; nothing was sent."]);
    expect(refused(['X-Emoji: s3cr3t📣'])).toEqual([
      2,
      "Header value for 'X-Emoji' contains a character HTTP headers cannot carry (beyond Latin-1); nothing was sent.",
    ]);
    expect(refused(['X-Ok: 1', 'Bearer s3cr3t'])).toEqual([2, `-H "Bearer …" is not a valid header: it has no ':' between the name and the value.`]);
    // A token given alone does not read as a name: the flag is named by its place.
    expect(refused(['X-Ok: 1', 'fsk_s3cr3tS3cr3tS3cr3t'])).toEqual([
      2,
      "-H number 2 (not shown, in case it is a secret) is not a valid header: it has no ':' between the name and the value.",
    ]);
    expect(refused(['eyJhbGciOiJIUzI1NiJ9.e30.x'])).toEqual([
      2,
      "-H (not shown, in case it is a secret) is not a valid header: it has no ':' between the name and the value.",
    ]);
    expect(parseHeaders(['X-Tab: a\tb', 'X-Latin: café'])).toEqual({ 'x-tab': 'a\tb', 'x-latin': 'café' });
  });
});

describe('the api command line', () => {
  it('-f and -F fields merge back in command-line order; -H collects', async () => {
    let got: ApiOptions | undefined;
    const f = { io: fakeIO().io, api: async () => Promise.reject(new Error('no request here')) } as unknown as Factory;
    const cmd = newApiCommand(f, async (o) => {
      got = o;
    });
    await cmd.parseAsync(['/open/x', '-f', 'a=1', '-F', 'b=2', '-f', 'c=x=y', '-F', 'a=3', '-H', 'X-A: 1', '-H', 'X-B: 2'], { from: 'user' });
    expect(orderedFields(got!.rawField, got!.field)).toEqual([
      { key: 'a', raw: '1', at: 0, typed: false },
      { key: 'b', raw: '2', at: 1, typed: true },
      { key: 'c', raw: 'x=y', at: 2, typed: false },
      { key: 'a', raw: '3', at: 3, typed: true },
    ]);
    expect([got!.path, got!.header]).toEqual(['/open/x', ['X-A: 1', 'X-B: 2']]);
  });

  it('-X takes a method in any case, as upper case; help still lists the choices; another word is refused', async () => {
    const methods: Array<string | undefined> = [];
    const f = { io: fakeIO().io, api: async () => Promise.reject(new Error('no request here')) } as unknown as Factory;
    const make = () =>
      newApiCommand(f, async (o) => {
        methods.push(o.method);
      }).exitOverride();
    for (const m of ['get', 'Post', 'DELETE', 'head']) await make().parseAsync(['/open/x', '-X', m], { from: 'user' });
    expect(methods).toEqual(['GET', 'POST', 'DELETE', 'HEAD']);
    expect(make().helpInformation().replace(/\s+/g, ' ')).toContain('(choices: "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD")');
    const bad = make().configureOutput({ writeErr: () => undefined });
    await expect(bad.parseAsync(['/open/x', '-X', 'fetch'], { from: 'user' })).rejects.toThrow(
      "option '-X, --method <method>' argument 'fetch' is invalid. Allowed choices are GET, POST, PUT, PATCH, DELETE, HEAD.",
    );
    expect(methods).toHaveLength(4);
  });
});

describe('apiRun', () => {
  let server: StubServer;
  let client: ApiClient;
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'formctl-api-'));
    server = await startStubServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/open/paged') {
        const page = Number(url.searchParams.get('page'));
        return json(res, 200, { data: [{ n: page * 10 + 1 }, { n: page * 10 + 2 }], meta: { current_page: page, last_page: 3, per_page: 2, total: 6 } });
      }
      if (url.pathname === '/open/echo') return json(res, 401, { message: 'The token tok_api is not valid.', errors: { token: ['tok_api was revoked'] } });
      if (url.pathname === '/open/fail') return json(res, 422, { message: 'The name field is required.', errors: { name: ['The name field is required.'] } });
      if (url.pathname === '/open/forms/1/submissions/5') return json(res, 404, { message: '' });
      if (url.pathname === '/open/forms/1/submissions/export/status/abc') {
        res.writeHead(404);
        return void res.end();
      }
      if (url.pathname === '/open/forms/1/submissions/6') return json(res, 404, { message: 'Submission not found.' });
      if (url.pathname === '/open/forms/1/submissions/export/abc/status')
        return json(res, 404, { message: `The route ${url.pathname.slice(1)} could not be found.` });
      if (url.pathname === '/open/csv') {
        res.writeHead(200, { 'content-type': 'text/csv; charset=UTF-8' });
        return void res.end('\ufeffid,name\n1,Ada\n');
      }
      if (url.pathname === '/open/empty') {
        res.writeHead(204);
        res.end();
        return;
      }
      json(res, url.pathname.startsWith('/open/') ? 200 : 404, { ok: true, message: 'Not Found' }, { 'x-ratelimit-remaining': '99' });
    });
    client = new ApiClient({ baseUrl: server.url, token: 'tok_api', userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (o: Partial<ApiOptions> & { path: string }, io = fakeIO()) =>
    apiRun({ io: io.io, api: async () => client, ...o }).then(
      () => ({ code: 0, out: io.out(), err: io.err(), hint: undefined as string | undefined }),
      (e: CliError) => ({ code: e.exitCode, out: io.out(), err: e.message, hint: e.hint }),
    );

  it('GET by default, authenticated, path kept as given; compact JSON when piped, pretty on a TTY', async () => {
    const piped = await run({ path: 'open/workspaces' });
    expect(piped).toEqual({ code: 0, out: '{"ok":true,"message":"Not Found"}\n', err: '', hint: undefined });
    const tty = await run({ path: '/open/workspaces' }, fakeIO({ tty: true }));
    expect(tty.out).toBe('{\n  "ok": true,\n  "message": "Not Found"\n}\n');
    expect(server.requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ['GET', '/open/workspaces', 'Bearer tok_api'],
      ['GET', '/open/workspaces', 'Bearer tok_api'],
    ]);
  });

  it('fields make a POST with a JSON body, in command-line order; -X GET puts them in the query', async () => {
    await run({
      path: '/open/workspaces/create',
      // -f name=Marketing -F count=3 -f flag=true -F count=4
      rawField: [
        { key: 'name', raw: 'Marketing', at: 0 },
        { key: 'flag', raw: 'true', at: 2 },
      ],
      field: [
        { key: 'count', raw: '3', at: 1 },
        { key: 'count', raw: '4', at: 3 },
      ],
      header: ['X-Trace: t1'],
    });
    await run({ path: '/open/forms?x=1', method: 'GET', field: [{ key: 'page', raw: '2', at: 0 }], rawField: [{ key: 'f[a]', raw: 'b c', at: 1 }] });
    const [post, get] = server.requests;
    expect([post!.method, post!.url, post!.headers['content-type'], post!.headers['x-trace'], JSON.parse(post!.body)]).toEqual([
      'POST',
      '/open/workspaces/create',
      'application/json',
      't1',
      { name: 'Marketing', count: 4, flag: 'true' },
    ]);
    expect([get!.method, get!.url, get!.body]).toEqual(['GET', '/open/forms?x=1&page=2&f%5Ba%5D=b+c', '']);
  });

  it('--input sends the file as the raw body (POST by default), -H Content-Type is honoured', async () => {
    const file = join(dir, 'form.json');
    writeFileSync(file, '{"title":"T"}\n');
    await run({ path: '/open/forms/1', method: 'PUT', input: file, header: ['Content-Type: application/merge-patch+json'] });
    await run({ path: '/open/x', input: '-' }, fakeIO({ stdin: 'raw-bytes' }));
    expect(server.requests.map((r) => [r.method, r.url, r.headers['content-type'], r.body])).toEqual([
      ['PUT', '/open/forms/1', 'application/merge-patch+json', '{"title":"T"}\n'],
      ['POST', '/open/x', 'application/json', 'raw-bytes'],
    ]);
    const missing = await run({ path: '/open/x', input: join(dir, 'nope.json') });
    expect([missing.code, missing.err]).toEqual([2, `Cannot read --input ${join(dir, 'nope.json')}: no such file.`]);
  });

  it('--paginate follows every page and prints one array', async () => {
    const r = await run({ path: '/open/paged', paginate: true });
    expect(r).toEqual({ code: 0, out: '[{"n":11},{"n":12},{"n":21},{"n":22},{"n":31},{"n":32}]\n', err: '', hint: undefined });
    expect(server.requests.map((q) => q.url)).toEqual(['/open/paged?page=1', '/open/paged?page=2', '/open/paged?page=3']);
    expect((await run({ path: '/open/paged', paginate: true, method: 'POST' })).code).toBe(2);
  });

  it('an error answer prints its body to stdout and exits with the mapped code', async () => {
    const r = await run({ path: '/open/fail' });
    expect(r.code).toBe(7);
    expect(r.out).toBe('{"message":"The name field is required.","errors":{"name":["The name field is required."]}}\n');
    expect(r.err).toBe('The name field is required. (HTTP 422, GET /open/fail)\n  name: The name field is required.');
    const nf = await run({ path: 'workspaces' });
    expect([nf.code, nf.hint]).toEqual([6, 'API paths start with /open/, e.g. `formctl api /open/workspaces`.']);
  });

  it("an empty 404 (the deployed service's answer on a route closed to tokens) says so before the hint on the ids; a 404 that says why keeps that hint", async () => {
    const closed = await run({ path: '/open/forms/1/submissions/5' });
    expect([closed.code, closed.out, closed.err, closed.hint]).toEqual([
      6,
      '{"message":""}\n',
      'Not found. (HTTP 404, GET /open/forms/1/submissions/5)',
      'This service may not let API tokens use this route (the deployed OpnForm service answers such a route 404 with an empty message); if it does, check the submission id: formctl submission list 1',
    ]);
    const job = await run({ path: '/open/forms/1/submissions/export/status/abc' });
    expect([job.code, job.hint]).toEqual([
      6,
      'This service may not let API tokens use this route (the deployed OpnForm service answers such a route 404 with an empty message); if it does, the export job is unknown or expired (jobs are kept for a limited time); start a new one: formctl submission export 1',
    ]);
    const said = await run({ path: '/open/forms/1/submissions/6' });
    expect([said.code, said.hint]).toEqual([6, 'Check the submission id: formctl submission list 1']);
    const noRoute = await run({ path: '/open/forms/1/submissions/export/abc/status' });
    expect([noRoute.code, noRoute.hint]).toEqual([6, 'This service has no such route: check the path, which is sent as given.']);
  });

  it('an error line never repeats the token when the service echoes it (the body on stdout is the answer as sent)', async () => {
    const r = await run({ path: '/open/echo' });
    expect(r.code).toBe(4);
    expect(r.err).not.toContain('tok_api');
    expect(r.err).toBe('The token [REDACTED] is not valid. (HTTP 401, GET /open/echo)\n  token: [REDACTED] was revoked');
  });

  it('--include prints status and headers; 204 prints no body; --silent prints nothing', async () => {
    const r = await run({ path: '/open/workspaces', include: true });
    const [head, body] = r.out.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toContain('\nx-ratelimit-remaining: 99');
    expect(body).toBe('{"ok":true,"message":"Not Found"}\n');
    expect((await run({ path: '/open/empty', method: 'DELETE' })).out).toBe('');
    expect((await run({ path: '/open/workspaces', silent: true })).out).toBe('');
  });

  it('a header with a line break is refused before any request (exit 2), not blamed on the service', async () => {
    const r = await run({ path: '/open/workspaces', header: ['X-A: a\r\nX-B: b'] });
    expect([r.code, r.out, r.err]).toEqual([2, '', "Header value for 'X-A' contains a line break; nothing was sent."]);
    expect(server.requests).toHaveLength(0);
  });

  it('--jq on an answer that is not JSON (a CSV) is an error, exit 2, with nothing on stdout; --silent asks for nothing to filter', async () => {
    const csv = await run({ path: '/open/csv', method: 'POST', jq: '.' });
    expect([csv.code, csv.out, csv.err, csv.hint]).toEqual([
      2,
      '',
      '--jq needs a JSON answer, but the service answered text/csv (HTTP 200, POST /open/csv).',
      'Drop --jq to get the answer as it is.',
    ]);
    expect((await run({ path: '/open/csv', method: 'POST', jq: '.', silent: true })).code).toBe(0);
    expect(await run({ path: '/open/workspaces', jq: '.ok' })).toEqual({ code: 0, out: 'true\n', err: '', hint: undefined });
    expect(await run({ path: '/open/empty', method: 'DELETE', jq: '.' })).toEqual({ code: 0, out: '', err: '', hint: undefined });
  });

  it('a full URL of another origin goes without the token, and a note on stderr says so (with --silent too); the same origin needs no note', async () => {
    const other = await startStubServer((req, res) =>
      req.url === '/open/private' ? json(res, 401, { message: 'Unauthenticated.' }) : json(res, 200, { public: true }),
    );
    try {
      for (const silent of [undefined, true] as const) {
        const io = fakeIO();
        const r = await run({ path: `${other.url}/open/public?x=1`, silent }, io);
        expect([r.code, r.out, io.err()]).toEqual([
          0,
          silent ? '' : '{"public":true}\n',
          `note: the token was not sent: ${other.url} is not the service's origin (${server.url}).\n`,
        ]);
      }
      const denied = await run({ path: `${other.url}/open/private` });
      expect([denied.code, denied.err, denied.hint]).toEqual([
        4,
        `Unauthenticated. (HTTP 401, GET ${other.url}/open/private)`,
        `formctl sent no token there: it sends the token to the service's origin (${server.url}) only.`,
      ]);
      expect(other.requests.map((q) => [q.url, q.headers.authorization])).toEqual([
        ['/open/public?x=1', undefined],
        ['/open/public?x=1', undefined],
        ['/open/private', undefined],
      ]);
      const same = fakeIO();
      await run({ path: `${server.url}/open/workspaces` }, same);
      expect([same.err(), server.requests.map((q) => q.headers.authorization)]).toEqual(['', ['Bearer tok_api']]);
    } finally {
      await other.close();
    }
  });

  it('refuses a body on GET', async () => {
    const r = await run({ path: '/open/x', method: 'GET', input: '-' }, fakeIO({ stdin: 'x' }));
    expect(r.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});
