import { run } from '../../../src/main.js';
import { tempHome } from '../../helpers/cli.js';
import { type RecordedRequest, type StubServer, json, startStubServer } from '../../helpers/http.js';
import { fakeIO } from '../../helpers/io.js';

/** A canned answer: status and JSON body (undefined = empty body). */
export type Reply = [status: number, body?: unknown];

/**
 * A stub service answering "METHOD /path" keys once each, in order; anything unexpected gets 599
 * so the test fails on the exit code. `pending()` lists routes never requested.
 */
export async function stubRoutes(routes: Array<[string, Reply]>): Promise<StubServer & { pending(): string[] }> {
  const queue = [...routes];
  const server = await startStubServer((req: RecordedRequest, res) => {
    const key = `${req.method} ${req.url}`;
    const i = queue.findIndex(([k]) => k === key);
    if (i < 0) {
      json(res, 599, { message: `unexpected request ${key}` });
      return;
    }
    const [, [status, body]] = queue.splice(i, 1)[0]!;
    if (body === undefined) {
      res.writeHead(status);
      res.end();
    } else json(res, status, body);
  });
  return Object.assign(server, { pending: () => queue.map(([k]) => k) });
}

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs formctl in-process (src/main.ts run) against `url`, with TTY or piped streams. */
export async function runCli(args: string[], o: { url: string; tty?: boolean; env?: NodeJS.ProcessEnv }): Promise<CliRun> {
  const home = tempHome();
  const io = fakeIO({ tty: o.tty ?? false });
  try {
    const env = { ...home.env, NO_COLOR: '1', FORMCTL_BASE_URL: o.url, FORMCTL_TOKEN: 'test-token', ...o.env };
    const code = await run(args, env, { stdin: io.stdin, stdout: io.stdout, stderr: io.stderr });
    return { code, out: io.out(), err: io.err() };
  } finally {
    home.cleanup();
  }
}
