import { spawnSync } from 'node:child_process';
import { spawnTracked as spawn } from '../helpers/processes.js';
import { chmodSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempHome } from '../helpers/cli.js';

// `-o` into a directory formctl may not write is knowable before the export is requested (on the
// deployed service every export request counts against a limit of 10 a minute): exit 2, nothing sent.
let home: ReturnType<typeof tempHome>;
let requests = 0;
let url = '';
let closeServer: () => void;
beforeAll(async () => {
  home = tempHome();
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: { id: 7, slug: 'f-7', title: 'F', properties: [] } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeServer = () => server.close();
});
afterAll(() => {
  closeServer();
  home.cleanup();
});

/** Runs the built binary; as root (who may write anywhere) it runs as an unprivileged user. */
function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...home.env, FORMCTL_BASE_URL: url, FORMCTL_TOKEN: 'fsk_t' },
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const BIN = join(__dirname, '../../bin/formctl.js');
// Root may write anywhere, so as root the check runs as `nobody`; that needs Node and the checkout
// to be reachable for `nobody` (not so in a checkout under a 0700 home directory).
const asRoot = process.getuid?.() === 0;
const nobodyCanRun = !asRoot || spawnSync(process.execPath, [BIN, '--version'], { uid: 65534, gid: 65534, stdio: 'ignore' }).status === 0;
if (!nobodyCanRun) console.warn('export-unwritable: skipped: running as root, and user 65534 cannot run Node or read this checkout');

it.skipIf(!nobodyCanRun)('submission export -o into a read-only directory: exit 2 before any request', async () => {
  chmodSync(home.dir, 0o777);
  const ro = join(home.dir, 'ro');
  mkdirSync(ro, { mode: 0o555 });
  chmodSync(ro, 0o555);
  const out = join(ro, 'answers.csv');
  const r = await run(['submission', 'export', '7', '-o', out]);
  expect(r.stderr.split('\n')[0]).toBe(`error: Cannot write ${out}: permission denied.`);
  expect(r.code).toBe(2);
  expect(requests).toBe(0);
});
