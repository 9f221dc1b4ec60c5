import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type StubServer, json, startStubServer } from '../helpers/http.js';

let server: StubServer;
let home: ReturnType<typeof tempHome>;
beforeAll(async () => {
  server = await startStubServer((req, res) => {
    // A service that echoes the token it was sent (a debugging 401).
    if (req.url.startsWith('/echo')) return json(res, 401, { message: `Token ${String(req.headers.authorization).replace(/^Bearer /, '')} is not valid.` });
    return req.url.startsWith('/gone') ? json(res, 404, { message: 'Not found' }) : json(res, 200, { ok: true });
  });
  home = tempHome();
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});

describe('--debug never prints a signed or token-bearing query', () => {
  it("on the service's own origin (an export file URL with ?token=, a pre-signed URL), in debug lines and errors", async () => {
    const env = { ...home.env, FORMCTL_BASE_URL: server.url, FORMCTL_TOKEN: 'fsk_main', FORMCTL_DEBUG: '1' };
    const ok = await runFormctl(['api', '/exports/answers.csv?token=CAPABILITY1&page=2'], { env });
    expect(ok.code).toBe(0);
    expect(server.requests.at(-1)!.url).toBe('/exports/answers.csv?token=CAPABILITY1&page=2');
    expect(ok.stderr).toContain('token=[REDACTED]&page=2');
    expect(ok.stderr).not.toContain('CAPABILITY1');
    const gone = await runFormctl(['--debug', 'api', '/gone/k.csv?X-Amz-Credential=CRED2&X-Amz-Signature=SIG3&sig=SIG4'], {
      env: { ...env, FORMCTL_DEBUG: '' },
    });
    expect(gone.code).toBe(6);
    expect(gone.stderr).toContain('X-Amz-Signature=[REDACTED]');
    expect(gone.stderr).not.toMatch(/CRED2|SIG3|SIG4|fsk_main/);
  });

  it('a one-character token is masked where it stands alone (an echo), not inside the words of a path', async () => {
    const env = { ...home.env, FORMCTL_BASE_URL: server.url, FORMCTL_TOKEN: 'x', FORMCTL_DEBUG: '1' };
    const ok = await runFormctl(['api', '/external/x/next'], { env });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain('/external/[REDACTED]/next (');
    expect(ok.stderr).not.toContain('e[REDACTED]');
    const echoed = await runFormctl(['api', '/echo/external'], { env });
    expect(echoed.code).toBe(4);
    expect(echoed.stderr).toContain('/echo/external');
    expect(echoed.stderr).toContain('Token [REDACTED] is not valid.');
    expect(echoed.stdout + echoed.stderr).not.toMatch(/Token x |e\[REDACTED\]/);
    // A real token's length: masked wherever it appears, also inside a longer word.
    const long = await runFormctl(['api', '/echo/prefix-fsk_main9-suffix'], { env: { ...env, FORMCTL_TOKEN: 'fsk_main9' } });
    expect(long.stderr).toContain('/echo/prefix-[REDACTED]-suffix');
    expect(long.stdout + long.stderr).not.toContain('fsk_main9');
  });
});
