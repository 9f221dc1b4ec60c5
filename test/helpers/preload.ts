import { afterAll } from 'vitest';
import { stopTracked } from './processes.js';

// Loaded before every test file (vitest.config.ts): undici, which the client imports on its first
// request. Its first load takes 100 ms or more on a busy machine, and the request spinner appears
// after 150 ms: without this, tests that check a TTY's stderr would depend on how busy the machine is.
await import('undici');

// What a file started outside its tests (in beforeAll) and did not stop is stopped after the file.
afterAll(async () => {
  await stopTracked();
});
