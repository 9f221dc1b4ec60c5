import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { stopTracked } from './processes.js';

// Loaded before every test file (vitest.config.ts): Node's fetch, which the client uses, loads its
// internal undici and compiles its HTTP parser on the first request. That takes 100 ms or more on a
// busy machine, and the request spinner appears after 150 ms: without this warm-up, tests that check
// a TTY's stderr would depend on how busy the machine is. One request to a local server does it.
const warm = createServer((_req, res) => res.end('ok'));
await new Promise<void>((r) => warm.listen(0, '127.0.0.1', r));
await fetch(`http://127.0.0.1:${(warm.address() as AddressInfo).port}/`).then((r) => r.arrayBuffer());
warm.closeAllConnections();
warm.close();

// What a file started outside its tests (in beforeAll) and did not stop is stopped after the file.
afterAll(async () => {
  await stopTracked();
});
