import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { NotFoundError, closedToTokens, emptyMessageBody } from '../../../src/api/errors.js';
import { exportStatusClosed } from '../../../src/api/exports.js';
import { type StubServer, startStubServer } from '../../helpers/http.js';

// One reading of the deployed server's 404 for a route closed to tokens (src/api/errors.ts,
// closedToTokens), for the export's status probe and for `formctl api` alike.
let server: StubServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Whether the export status probe takes this 404 body (with this content type) for "closed to tokens". */
async function probe(body: string, type = 'application/json'): Promise<boolean> {
  server = await startStubServer((_req, res) => {
    res.writeHead(404, { 'content-type': type });
    res.end(body);
  });
  const client = new ApiClient({ baseUrl: server.url, token: 't0ken', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
  const closed = await exportStatusClosed(client, 1);
  await server.close();
  server = undefined;
  return closed;
}

describe('a route closed to tokens', () => {
  it('is a 404 with no body or an empty message, with or without the keys of a server in debug mode', async () => {
    expect(await probe('{"message":""}')).toBe(true);
    expect(await probe('{"message":"","exception":"Symfony\\\\Component\\\\HttpKernel\\\\Exception\\\\NotFoundHttpException","file":"x.php","line":1}')).toBe(
      true,
    );
    expect(await probe('')).toBe(true);
  });

  it("is not a proxy's HTML page, an empty object, or any message (an unknown route, a missing job)", async () => {
    expect(await probe('<html><body>404 Not Found</body></html>', 'text/html')).toBe(false);
    expect(await probe('{}')).toBe(false);
    expect(await probe('{"message":"The route open/forms/1/submissions/export/status/x could not be found."}')).toBe(false);
    expect(await probe('{"message":"Export job not found or has expired."}')).toBe(false);
  });

  it('reads a parsed body the same way (formctl api, which has the answer itself)', () => {
    for (const [body, closed] of [
      [undefined, true],
      ['  \n', true],
      [{ message: '' }, true],
      [{ message: '', exception: 'NotFoundHttpException' }, true],
      [{}, false],
      [[], false],
      [{ message: 'Not Found' }, false],
      ['<html></html>', false],
    ] as const)
      expect([body, emptyMessageBody(body)]).toEqual([body, closed]);
    const err = new NotFoundError({ status: 404, method: 'GET', path: '/open/x', emptyMessage: true });
    expect(closedToTokens(err)).toBe(true);
    expect(closedToTokens(new NotFoundError({ status: 404, method: 'GET', path: '/open/x', serverMessage: '' }))).toBe(false);
    expect(closedToTokens(new Error('x'))).toBe(false);
  });
});
