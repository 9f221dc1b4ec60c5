import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { NetworkError } from '../../../src/api/errors.js';
import { checkToken } from '../../../src/commands/auth/status.js';
import { CliError, ExitCode } from '../../../src/errors.js';

// auth status replaces a hint that sends the reader to `formctl auth status` (it is that check), and
// tells such a hint by the error's kind, never by the hint's words.
const ctx = { baseUrl: 'http://127.0.0.1:9', baseUrlSource: 'env', tokenSource: 'env', profileName: 'default', profileSource: 'default' } as const;
const failing = (err: Error) => ({ request: () => Promise.reject(err) }) as unknown as ApiClient;

describe('checkToken: the hint of a failed check', () => {
  it('replaces a hint marked as the base-URL check', async () => {
    const err = new NetworkError('Connection refused by 127.0.0.1:9.', 'See `formctl auth status`.', 'ECONNREFUSED', ExitCode.network, {
      hintChecksBaseUrl: true,
    });
    const r = await checkToken(failing(err), ctx);
    expect(r.valid).toBe(false);
    expect(r.failure?.message).toBe('Connection refused by 127.0.0.1:9.');
    expect(r.failure?.hint).toBe('Is the service running, and is the base URL right? It comes from FORMCTL_BASE_URL.');
  });

  it('keeps any other hint as it is, whatever its words', async () => {
    const err = new CliError('Something else.', ExitCode.error, 'Mentions formctl auth status, but is not the base-URL check.');
    const r = await checkToken(failing(err), ctx);
    expect(r.failure).toBe(err);
  });
});
