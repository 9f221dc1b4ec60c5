import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boot, call, tempDir } from './helpers.js';

describe('sandbox team work: several users with tokens (both flavours)', () => {
  for (const flavor of ['spec', 'deployed'] as const) {
    it(`${flavor}: seeds the admin and a colleague who is not yet a member; member add finds her account`, async () => {
      const sb = await boot({ flavor });
      expect(sb.flavor).toBe(flavor);
      expect(sb.users.map((u) => [u.id, u.email, u.name])).toEqual([
        [1, 'admin@example.com', 'Ada Admin'],
        [2, 'bea@example.com', 'Bea Builder'],
      ]);
      expect(sb.users[0]!.token).toBe(sb.tokens.all);
      // A new workspace still gets the id the README shows: seeding a colleague shifted no workspace ids.
      expect((await call(sb, 'POST', '/open/workspaces/create', { name: 'Ops' })).json.workspace_id).toBe(2);
      const bea = sb.users[1]!.token;
      // Bea's token works and sees no workspace yet; the seeded workspace has one member.
      expect((await call(sb, 'GET', '/open/workspaces', undefined, bea)).json).toEqual([]);
      expect((await call(sb, 'GET', `/open/workspaces/${sb.workspaceId}/users`)).json).toHaveLength(1);
      // Adding her address adds the existing account (no invite), then another member can be managed.
      const added = await call(sb, 'POST', `/open/workspaces/${sb.workspaceId}/users/add`, { email: 'bea@example.com', role: 'user' });
      expect(added.json.message).toBe('User has been successfully added to workspace.');
      expect((await call(sb, 'GET', '/open/workspaces', undefined, bea)).json.map((w: { id: number }) => w.id)).toEqual([sb.workspaceId]);
      expect((await call(sb, 'PUT', `/open/workspaces/${sb.workspaceId}/users/2/update-role`, { role: 'admin' })).status).toBe(200);
      expect((await call(sb, 'DELETE', `/open/workspaces/${sb.workspaceId}/users/2/remove`)).status).toBe(200);
    });
  }

  it('POST /sandbox/users creates an account with a token and accepts its open invites', async () => {
    const sb = await boot();
    await call(sb, 'POST', `/open/workspaces/${sb.workspaceId}/users/add`, { email: 'carol@example.com', role: 'readonly' });
    const res = await call(sb, 'POST', '/sandbox/users', { email: 'carol@example.com', name: 'Carol C' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ id: 3, name: 'Carol C', email: 'carol@example.com', workspaces_joined: [sb.workspaceId] });
    const members = (await call(sb, 'GET', `/open/workspaces/${sb.workspaceId}/users`)).json;
    expect(members).toContainEqual(expect.objectContaining({ email: 'carol@example.com' }));
    const invites = (await call(sb, 'GET', `/open/workspaces/${sb.workspaceId}/invites`)).json;
    expect(invites[0].status).toBe('accepted');
    expect((await call(sb, 'GET', '/open/workspaces', undefined, res.json.token)).status).toBe(200);
    // Taken address, bad address, no token.
    expect((await call(sb, 'POST', '/sandbox/users', { email: 'carol@example.com' })).json.errors.email).toEqual(['The email has already been taken.']);
    expect((await call(sb, 'POST', '/sandbox/users', { email: 'nope' })).status).toBe(422);
    expect((await call(sb, 'POST', '/sandbox/users', { email: 'x@example.com' }, null)).status).toBe(401);
  });

  it('users option: accounts created at start, found again on restart with the same token', async () => {
    const dataFile = join(await tempDir(), 'state.json');
    const first = await boot({ dataFile, users: ['dan@example.com'] });
    expect(first.users.map((u) => u.email)).toEqual(['admin@example.com', 'bea@example.com', 'dan@example.com']);
    await first.close();
    const second = await boot({ dataFile, users: ['dan@example.com', 'erin@example.com'] });
    expect(second.users.slice(0, 3)).toEqual(first.users);
    expect(second.users[3]!.email).toBe('erin@example.com');
  });

  it('community seeds only the admin, so its second seat stays free', async () => {
    const sb = await boot({ community: true });
    expect(sb.users.map((u) => u.email)).toEqual(['admin@example.com']);
    expect((await call(sb, 'POST', `/open/workspaces/${sb.workspaceId}/users/add`, { email: 'carol@example.com', role: 'user' })).status).toBe(200);
  });

  it('refuses an unknown flavour', async () => {
    await expect(boot({ flavor: 'live' as 'spec' })).rejects.toThrow('Invalid sandbox flavor "live" (expected spec or deployed).');
  });
});
