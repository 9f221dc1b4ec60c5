import { describe, expect, it } from 'vitest';
import { FLAVORS } from '../helpers/sandbox.js';
import { boot, call, createForm, memberToken } from './helpers.js';

describe('sandbox authentication and abilities', () => {
  it('answers 401 without a token and with an unknown token', async () => {
    const sb = await boot();
    const none = await call(sb, 'GET', '/open/workspaces', undefined, null);
    expect(none.status).toBe(401);
    expect(none.json).toEqual({ message: 'Unauthenticated. Send an Authorization: Bearer <token> header.' });
    const bad = await call(sb, 'GET', '/open/workspaces', undefined, 'fsk_not-a-real-token');
    expect(bad.status).toBe(401);
    expect(bad.json).toEqual({ message: 'Unauthenticated. The access token is invalid or has been revoked.' });
  });

  it('hands out tokens that look like PATs and differ from each other', async () => {
    const sb = await boot();
    const all = Object.values(sb.tokens);
    expect(new Set(all).size).toBe(4);
    for (const t of all) expect(t).toMatch(/^fsk_[A-Za-z0-9_-]{32}$/);
  });

  it('names the missing ability in a 403', async () => {
    const sb = await boot();
    const cases: [string, string, string, string][] = [
      [sb.tokens.readonly, 'POST', '/open/workspaces/create', 'workspaces-write'],
      [sb.tokens.forms, 'GET', '/open/workspaces', 'workspaces-read'],
      [sb.tokens.forms, 'GET', `/open/workspaces/${sb.workspaceId}/users`, 'workspace-users-read'],
      [sb.tokens.readonly, 'POST', `/open/workspaces/${sb.workspaceId}/users/add`, 'workspace-users-write'],
      [sb.tokens.readonly, 'POST', '/open/forms', 'forms-write'],
    ];
    for (const [token, method, path, ability] of cases) {
      const res = await call(sb, method, path, method === 'GET' ? undefined : {}, token);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json).toEqual({ message: `This action requires the ${ability} ability, which this token does not have.` });
    }
    const form = await createForm(sb);
    const integrations = await call(sb, 'GET', `/open/forms/${form.id}/integrations`, undefined, sb.tokens.noIntegrations);
    expect(integrations.status).toBe(403);
    expect(integrations.json.message).toBe('This action requires the manage-integrations ability, which this token does not have.');
    const patch = await call(sb, 'PUT', `/open/forms/${form.id}/submissions/1`, { data: {} }, sb.tokens.forms);
    expect(patch.status).toBe(403);
    expect(patch.json.message).toBe('This action requires the submissions-write ability, which this token does not have.');
  });

  it('refuses non-members with a membership message', async () => {
    const sb = await boot();
    const form = await createForm(sb);
    sb.admin.createUser({ email: 'eve@example.com' });
    const eve = sb.admin.createToken('eve@example.com', ['forms-read', 'workspace-users-read', 'workspaces-write']);
    for (const path of [`/open/workspaces/${sb.workspaceId}/forms`, `/open/forms/${form.id}`, `/open/workspaces/${sb.workspaceId}/users`]) {
      const res = await call(sb, 'GET', path, undefined, eve);
      expect(res.status, path).toBe(403);
      expect(res.json).toEqual({ message: 'You are not a member of this workspace.' });
    }
    const create = await call(sb, 'POST', '/open/workspaces/create', { name: 'Eve' }, eve);
    expect(create.status).toBe(200);
  });

  it('applies admin-only and read-only role rules', async () => {
    const sb = await boot();
    const form = await createForm(sb);
    const user = await memberToken(sb, 'uma@example.com', 'user');
    const reader = await memberToken(sb, 'rita@example.com', 'readonly');
    const ws = `/open/workspaces/${sb.workspaceId}`;
    const adminOnly: [string, string, unknown, string][] = [
      ['PUT', ws, { name: 'x' }, 'Only workspace admins can update this workspace.'],
      ['DELETE', ws, undefined, 'Only workspace admins can delete this workspace.'],
      ['POST', `${ws}/users/add`, { email: 'z@example.com', role: 'user' }, 'Only workspace admins can add users to this workspace.'],
      ['PUT', `${ws}/users/1/update-role`, { role: 'user' }, 'Only workspace admins can change member roles.'],
      ['DELETE', `${ws}/users/1/remove`, undefined, 'Only workspace admins can remove users from this workspace.'],
      ['GET', `${ws}/invites`, undefined, 'Only workspace admins can list invites.'],
      ['POST', `${ws}/invites/1/resend`, undefined, 'Only workspace admins can resend invites.'],
      ['DELETE', `${ws}/invites/1/cancel`, undefined, 'Only workspace admins can cancel invites.'],
    ];
    for (const [method, path, body, message] of adminOnly) {
      const res = await call(sb, method, path, body, user);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json).toEqual({ message });
    }
    const readOnly: [string, string, unknown, string][] = [
      ['POST', '/open/forms', { workspace_id: sb.workspaceId }, 'Read-only members cannot create forms.'],
      ['PUT', `/open/forms/${form.id}`, {}, 'Read-only members cannot edit forms.'],
      ['DELETE', `/open/forms/${form.id}`, undefined, 'Read-only members cannot delete forms.'],
      ['PUT', `/open/forms/${form.id}/submissions/1`, { data: {} }, 'Read-only members cannot edit submissions.'],
      ['GET', `/open/forms/${form.id}/integrations`, undefined, 'Read-only members cannot manage integrations.'],
    ];
    for (const [method, path, body, message] of readOnly) {
      const res = await call(sb, method, path, body, reader);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json).toEqual({ message });
    }
    // Members (any role) may read.
    expect((await call(sb, 'GET', `/open/forms/${form.id}`, undefined, reader)).status).toBe(200);
    expect((await call(sb, 'GET', `${ws}/users`, undefined, user)).status).toBe(200);
  });

  it('answers 404 for unknown resources and routes, 405 for a wrong method', async () => {
    const sb = await boot();
    const cases: [string, string, string][] = [
      ['GET', '/open/workspaces/999/forms', 'Workspace not found.'],
      ['GET', '/open/workspaces/abc/users', 'Workspace not found.'],
      ['GET', '/open/forms/999', 'Form not found.'],
      ['GET', '/open/forms/no-such-slug', 'Form not found.'],
      ['GET', '/open/nothing', 'The route /open/nothing could not be found.'],
      ['POST', '/forms/nope/answer', 'Form not found.'],
    ];
    for (const [method, path, message] of cases) {
      const res = await call(sb, method, path, method === 'POST' ? {} : undefined);
      expect(res.status, path).toBe(404);
      expect(res.json).toEqual({ message });
    }
    const wrong = await call(sb, 'DELETE', '/open/workspaces');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    expect(wrong.json).toEqual({ message: 'The DELETE method is not supported for route /open/workspaces. Supported methods: GET, HEAD.' });
    // A static segment wins over a parameter: GET …/export is a wrong method, not a submission id.
    const form = await createForm(sb);
    const exp = await call(sb, 'GET', `/open/forms/${form.id}/submissions/export`);
    expect(exp.status).toBe(405);
    expect(exp.headers.get('allow')).toBe('POST');
  });

  it('rejects a body that is not a JSON object with 400', async () => {
    const sb = await boot();
    const bad = await call(sb, 'POST', '/open/workspaces/create', '{nope');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ message: 'The request body is not valid JSON.' });
    const arr = await call(sb, 'POST', '/open/workspaces/create', '[1]');
    expect(arr.status).toBe(400);
    expect(arr.json).toEqual({ message: 'The request body must be a JSON object.' });
  });
});

describe('sandbox rate limit', () => {
  it('counts per IP in a fixed 60 s window, with headers on every response and Retry-After on 429', async () => {
    let now = Date.UTC(2025, 0, 1);
    const sb = await boot({ rateLimit: 3, now: () => now });
    const seen: string[] = [];
    for (const path of ['/open/workspaces', '/open/nothing']) {
      const res = await call(sb, 'GET', path);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      seen.push(res.headers.get('x-ratelimit-remaining')!);
    }
    // Public and unauthenticated requests count too.
    const unauth = await call(sb, 'GET', '/open/workspaces', undefined, null);
    expect(unauth.status).toBe(401);
    seen.push(unauth.headers.get('x-ratelimit-remaining')!);
    expect(seen).toEqual(['2', '1', '0']);

    const limited = await call(sb, 'GET', '/open/workspaces');
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ message: 'Too Many Attempts.' });
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');

    now += 45_500;
    const later = await call(sb, 'GET', '/open/workspaces');
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('15');

    now += 14_500;
    const fresh = await call(sb, 'GET', '/open/workspaces');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('sends no rate-limit headers when the limit is off', async () => {
    const sb = await boot({ rateLimit: 0 });
    for (let i = 0; i < 101; i++) {
      const res = await call(sb, 'GET', '/open/workspaces');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});

describe.each(FLAVORS)('HEAD (%s flavour)', (flavor) => {
  it("is answered as the GET without the body, as Laravel's router does; a route without GET is 405", async () => {
    const sb = await boot({ flavor });
    const get = await call(sb, 'GET', '/open/workspaces');
    const head = await call(sb, 'HEAD', '/open/workspaces');
    expect([head.status, head.text, head.headers.get('content-type'), head.headers.get('content-length')]).toEqual([
      200,
      '',
      get.headers.get('content-type'),
      String(Buffer.byteLength(get.text)),
    ]);
    // The token is still checked, and a missing resource is still 404.
    expect((await call(sb, 'HEAD', '/open/workspaces', undefined, null)).status).toBe(401);
    expect((await call(sb, 'HEAD', '/open/workspaces/999/forms')).status).toBe(404);
    const postOnly = await call(sb, 'HEAD', '/open/workspaces/create');
    expect([postOnly.status, postOnly.headers.get('allow')]).toEqual([405, 'POST']);
  });
});
