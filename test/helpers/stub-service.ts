// A stub service that verifies itself, after gh's httpmock Registry: the test lists the requests the
// command must make ("METHOD /path?query") with their canned answers, and the stub fails the test when
//   - a request matches no route (or a route already used up): it is answered 599 and reported;
//   - a route was registered but never requested (or requested fewer times than declared).
// `useStubService()` registers the check as an afterEach of the file (or describe) that calls it,
// so no test file carries its own copy of it.
import { afterEach } from 'vitest';
import { type RecordedRequest, type StubServer, json, startStubServer } from './http.js';

/** A canned answer: status and JSON body (undefined = empty body). */
export type Reply = [status: number, body?: unknown];

/** "METHOD /path?query" → answer, matched once, or `times` times when given. */
export type Route = [key: string, reply: Reply] | [key: string, reply: Reply, o: { times: number }];

export interface StubService extends StubServer {
  /** Routes (by key) not yet requested as often as declared, once per missing call. */
  pending(): string[];
  /** Requests that matched no route, as "METHOD /path". */
  unexpected: string[];
  /** Throws when a request matched nothing or a route was not used up; what afterEach runs. */
  verify(): void;
}

/** Starts a stub service on 127.0.0.1:0 answering `routes`; the caller verifies and closes it. */
export async function stubRoutes(routes: Route[]): Promise<StubService> {
  const left = routes.map(([key, reply, o]) => ({ key, reply, times: o?.times ?? 1 }));
  const unexpected: string[] = [];
  const server = await startStubServer((req: RecordedRequest, res) => {
    const key = `${req.method} ${req.url}`;
    const route = left.find((r) => r.key === key && r.times > 0);
    if (!route) {
      unexpected.push(key);
      json(res, 599, { message: `unexpected request ${key}` });
      return;
    }
    route.times -= 1;
    const [status, body] = route.reply;
    if (body === undefined) {
      res.writeHead(status);
      res.end();
    } else json(res, status, body);
  });
  const pending = () => left.flatMap((r) => Array<string>(r.times).fill(r.key));
  return Object.assign(server, {
    pending,
    unexpected,
    verify() {
      const problems = [
        ...unexpected.map((k) => `unexpected request: ${k}`),
        // A stubbed route nobody called means the command did not do what the test expected.
        ...pending().map((k) => `registered but never requested: ${k}`),
      ];
      if (problems.length) throw new Error(`stub service:\n  ${problems.join('\n  ')}`);
    },
  });
}

/**
 * `const serve = useStubService()` at the top of a test file (or describe): `await serve(routes)`
 * in a test starts a stub; after each test the stub is closed and verified. A second `serve` in the
 * same test verifies and closes the first one before starting the next.
 */
export function useStubService(): (routes: Route[]) => Promise<StubService> {
  let current: StubService | undefined;
  const finish = async () => {
    const s = current;
    current = undefined;
    if (!s) return;
    await s.close();
    s.verify();
  };
  afterEach(finish);
  return async (routes) => {
    await finish();
    current = await stubRoutes(routes);
    return current;
  };
}
