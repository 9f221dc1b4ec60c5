import { describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { startStubServer } from '../helpers/http.js';

const fx = useSandboxFixture({ seed: 3 });

describe('formctl api', () => {
  it('GET prints compact JSON when piped', async () => {
    const r = await runFormctl(['api', '/open/workspaces'], { env: fx.env });
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout).map((w: { id: number }) => w.id)).toEqual([fx.sb.workspaceId]);
  });

  it('-f fields POST a JSON body; the workspace shows up afterwards', async () => {
    const r = await runFormctl(['api', 'open/workspaces/create', '-f', 'name=From api', '-f', 'emoji=🧰'], { env: fx.env });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.workspace).toMatchObject({ name: 'From api', icon: '🧰' });
    const list = await runFormctl(['workspace', 'list', '--json', 'name'], { env: fx.env });
    expect(JSON.parse(list.stdout)).toContainEqual({ name: 'From api' });
  });

  it('--paginate merges the pages of the form list', async () => {
    const r = await runFormctl(['api', `/open/workspaces/${fx.sb.workspaceId}/forms`, '--paginate'], { env: fx.env });
    expect(r.code).toBe(0);
    const forms = JSON.parse(r.stdout);
    expect(Array.isArray(forms)).toBe(true);
    expect(forms.map((f: { id: number }) => f.id)).toEqual([fx.sb.formId]);
  });

  it('--paginate starts at a page=N in the path; -i with --paginate is refused (exit 2), not dropped', async () => {
    const subs = `/open/forms/${fx.sb.formId}/submissions`;
    const every = await runFormctl(['api', `${subs}?per_page=1`, '--paginate'], { env: fx.env });
    expect(every.code).toBe(0);
    const ids = JSON.parse(every.stdout).map((s: { id: number }) => s.id);
    expect(ids).toHaveLength(3);
    const fromTwo = await runFormctl(['api', `${subs}?per_page=1&page=2`, '--paginate'], { env: fx.env });
    expect(fromTwo.code, fromTwo.stderr).toBe(0);
    expect(JSON.parse(fromTwo.stdout).map((s: { id: number }) => s.id)).toEqual(ids.slice(1));
    const viaField = await runFormctl(['api', subs, '-X', 'GET', '-f', 'per_page=1', '-f', 'page=3', '--paginate'], { env: fx.env });
    expect(JSON.parse(viaField.stdout).map((s: { id: number }) => s.id)).toEqual(ids.slice(2));

    const bad = await runFormctl(['api', `${subs}?page=zero`, '--paginate'], { env: fx.env });
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^error: --paginate needs one whole page number of at least 1 in the path, got page=zero\.\n$/);

    const withHead = await runFormctl(['api', subs, '--paginate', '-i'], { env: { ...fx.env, FORMCTL_DEBUG: '1' } });
    expect(withHead).toMatchObject({ code: 2, stdout: '' });
    expect(withHead.stderr).toContain('error: --include cannot be combined with --paginate: the pages are merged into one array.\nhint: Drop -i');
    expect(withHead.stderr).not.toMatch(/GET /);
  });

  it('--paginate on a route that answers one object says the route is not a list (exit 2), not that the base URL is wrong', async () => {
    const r = await runFormctl(['api', `/open/forms/${fx.sb.formId}`, '--paginate'], { env: fx.env });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(
      `error: --paginate needs a list route, but GET /open/forms/${fx.sb.formId} answered with an object, not a list.\n` +
        `hint: --paginate is for list routes (e.g. open/workspaces/ID/forms); drop it for a single object: formctl api /open/forms/${fx.sb.formId}\n`,
    );
  });

  it('validation errors exit 7 and print the error body on stdout', async () => {
    const r = await runFormctl(['api', '/open/workspaces/create', '-X', 'POST', '-F', 'name=null'], { env: fx.env });
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stdout).errors).toHaveProperty('name');
    expect(r.stderr.split('\n')[0]).toMatch(/^error: .+ \(HTTP 422, POST \/open\/workspaces\/create\)$/);
  });

  it("an error on a full URL of the service's own origin names the service's path, its secret query values redacted", async () => {
    const url = `${fx.env.FORMCTL_BASE_URL!.replace(/\/$/, '')}/open/forms/999999?password=pw-SECRET-1&x=1`;
    const r = await runFormctl(['api', url], { env: fx.env });
    expect(r.code).toBe(6);
    expect(r.stderr.split('\n')[0]).toMatch(/ \(HTTP 404, GET \/open\/forms\/999999\?password=\[REDACTED\]&x=1\)$/);
    expect(r.stderr).not.toContain('pw-SECRET-1');
  });

  it('a missing token exits 4 before any request', async () => {
    const r = await runFormctl(['api', '/open/workspaces'], { env: { ...fx.home.env, FORMCTL_BASE_URL: fx.sb.url } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
  });
});

// The service may echo the token back (a 401 body naming it, a debugging header): `formctl api` prints
// what the service sent, but never the token, as --debug does not.
describe('formctl api: an echoed token is masked', () => {
  it('in a 401 body, and in a header with -i', async () => {
    const token = 'echo-me-7c1f3b9a2d4e';
    const stub = await startStubServer((req, res) => {
      const sent = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      res.writeHead(401, { 'content-type': 'application/json', 'x-debug-token': sent });
      res.end(JSON.stringify({ message: `Unauthenticated: token ${sent} is unknown.`, token: sent }));
    });
    const home = tempHome();
    try {
      const env = { ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: token };
      for (const args of [
        ['api', '/open/workspaces'],
        ['api', '-i', '/open/workspaces'],
        ['api', '-i', '--silent', '/open/workspaces'],
      ]) {
        const r = await runFormctl(args, { env });
        expect(r.code).toBe(4);
        expect(r.stdout + r.stderr).not.toContain(token);
        expect(r.stdout).toContain('[REDACTED]');
        if (args.includes('-i')) expect(r.stdout).toMatch(/x-debug-token: \[REDACTED\]/);
      }
    } finally {
      await stub.close();
      home.cleanup();
    }
  });
});
