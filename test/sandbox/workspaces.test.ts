import { describe, expect, it } from 'vitest';
import { boot, call, memberToken } from './helpers.js';

describe('sandbox workspaces', () => {
  it('lists the seeded workspace with the spec fields', async () => {
    const sb = await boot();
    const res = await call(sb, 'GET', '/open/workspaces');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.json).toEqual([
      {
        id: sb.workspaceId,
        name: "Ada's Workspace",
        icon: '🧪',
        settings: { email_settings: { from_name: "Ada's Workspace" } },
        max_file_size: 10,
        is_readonly: false,
      },
    ]);
  });

  it('creates a workspace with the caller as admin', async () => {
    const sb = await boot();
    const res = await call(sb, 'POST', '/open/workspaces/create', { name: 'Marketing', emoji: '🚀' });
    expect(res.status).toBe(200);
    const id = res.json.workspace_id;
    expect(res.json).toEqual({
      message: 'Workspace created.',
      workspace_id: id,
      workspace: { id, name: 'Marketing', icon: '🚀', settings: { email_settings: { from_name: 'Marketing' } }, max_file_size: 10, is_readonly: false },
    });
    const users = await call(sb, 'GET', `/open/workspaces/${id}/users`);
    expect(users.json).toEqual([{ id: 1, name: 'Ada Admin', email: 'admin@example.com', role: 'admin' }]);
    const bad = await call(sb, 'POST', '/open/workspaces/create', { emoji: 5 });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual({
      message: 'The name field is required. (and 1 more error)',
      errors: { name: ['The name field is required.'], emoji: ['The emoji field must be a string.'] },
    });
  });

  it('updates name and icon; the response has no settings; blank emoji clears, absent keeps', async () => {
    const sb = await boot();
    const path = `/open/workspaces/${sb.workspaceId}`;
    const keep = await call(sb, 'PUT', path, { name: 'Renamed' });
    expect(keep.status).toBe(200);
    expect(keep.json).toEqual({
      message: 'Workspace updated.',
      workspace: { id: sb.workspaceId, name: 'Renamed', icon: '🧪', max_file_size: 10, is_readonly: false },
    });
    const cleared = await call(sb, 'PUT', path, { name: 'Renamed', emoji: '' });
    expect(cleared.json.workspace.icon).toBe('');
    const missing = await call(sb, 'PUT', path, {});
    expect(missing.status).toBe(422);
    expect(missing.json.errors).toEqual({ name: ['The name field is required.'] });
  });

  it('deletes a workspace, but never the caller’s last one', async () => {
    const sb = await boot();
    const last = await call(sb, 'DELETE', `/open/workspaces/${sb.workspaceId}`);
    expect(last.status).toBe(403);
    expect(last.json).toEqual({ message: 'You cannot delete your last workspace. Delete your account instead.' });
    const created = await call(sb, 'POST', '/open/workspaces/create', { name: 'Temp' });
    const id = created.json.workspace_id;
    const form = await call(sb, 'POST', '/open/forms', {
      workspace_id: id,
      title: 'T',
      visibility: 'public',
      language: 'en',
      properties: [{ id: 'a', type: 'text', name: 'A' }],
    });
    expect(form.status).toBe(201);
    const del = await call(sb, 'DELETE', `/open/workspaces/${id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ message: 'Workspace successfully deleted.', workspace_id: id });
    expect((await call(sb, 'GET', `/open/forms/${form.json.id}`)).status).toBe(404);
    expect((await call(sb, 'GET', `/open/workspaces/${id}/users`)).status).toBe(404);
  });
});

describe('sandbox workspace members and invites', () => {
  it('adds an existing account, invites an unknown address, and reports an existing member', async () => {
    const sb = await boot();
    const path = `/open/workspaces/${sb.workspaceId}/users/add`;
    const bob = sb.admin.createUser({ email: 'bob@example.com', name: 'Bob Builder' });
    const added = await call(sb, 'POST', path, { email: 'bob@example.com', role: 'user' });
    expect(added.status).toBe(200);
    expect(added.json).toEqual({ message: 'User has been successfully added to workspace.' });
    const again = await call(sb, 'POST', path, { email: 'BOB@example.com', role: 'admin' });
    expect(again.json).toEqual({ message: 'User is already in workspace.' });
    const invited = await call(sb, 'POST', path, { email: 'carol@example.com', role: 'readonly' });
    expect(invited.status).toBe(200);
    expect(invited.json.message).toBe('Registration invitation email sent to user.');
    expect(invited.json.invite).toMatchObject({ email: 'carol@example.com', role: 'readonly', status: 'pending' });
    expect(invited.json.invite).not.toHaveProperty('token');
    const twice = await call(sb, 'POST', path, { email: 'carol@example.com', role: 'user' });
    expect(twice.status).toBe(400);
    expect(twice.json).toEqual({ message: 'User has already been invited.' });

    const users = await call(sb, 'GET', `/open/workspaces/${sb.workspaceId}/users`);
    expect(users.json).toEqual([
      { id: 1, name: 'Ada Admin', email: 'admin@example.com', role: 'admin' },
      { id: bob.id, name: 'Bob Builder', email: 'bob@example.com', role: 'user' },
    ]);
  });

  it('validates email and role', async () => {
    const sb = await boot();
    const res = await call(sb, 'POST', `/open/workspaces/${sb.workspaceId}/users/add`, { email: 'not-an-email', role: 'member' });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      message: 'The email field must be a valid email address. (and 1 more error)',
      errors: {
        email: ['The email field must be a valid email address.'],
        role: ['The selected role is invalid. Allowed: admin, user, readonly.'],
      },
    });
  });

  it('changes a role, removes a member (404 for non-members) and lets a member leave with 204', async () => {
    const sb = await boot();
    const ws = `/open/workspaces/${sb.workspaceId}`;
    const danToken = await memberToken(sb, 'dan@example.com', 'user');
    const dan = (await call(sb, 'GET', `${ws}/users`)).json.find((u: { email: string }) => u.email === 'dan@example.com');
    const role = await call(sb, 'PUT', `${ws}/users/${dan.id}/update-role`, { role: 'readonly' });
    expect(role.status).toBe(200);
    expect(role.json).toEqual({ message: 'User role changed successfully.' });
    const badRole = await call(sb, 'PUT', `${ws}/users/${dan.id}/update-role`, { role: 'owner' });
    expect(badRole.status).toBe(422);
    expect(badRole.json.errors).toEqual({ role: ['The selected role is invalid. Allowed: admin, user, readonly.'] });
    expect((await call(sb, 'GET', `${ws}/users`)).json[1].role).toBe('readonly');
    // A readonly member sees is_readonly on the workspace.
    const dansList = await call(sb, 'GET', '/open/workspaces', undefined, danToken);
    expect(dansList.json.find((w: { id: number }) => w.id === sb.workspaceId).is_readonly).toBe(true);

    const leave = await call(sb, 'POST', `${ws}/leave`, undefined, danToken);
    expect(leave.status).toBe(204);
    expect(leave.text).toBe('');
    const notMember = await call(sb, 'POST', `${ws}/leave`, undefined, danToken);
    expect(notMember.status).toBe(403);
    expect(notMember.json).toEqual({ message: 'You are not a member of this workspace.' });
    // docs/service-details.md, Members and invites: a user left without a workspace gets "My Workspace".
    const own = await call(sb, 'GET', '/open/workspaces', undefined, danToken);
    expect(own.json.map((w: { name: string }) => w.name)).toEqual(['My Workspace']);

    await call(sb, 'POST', `${ws}/users/add`, { email: 'dan@example.com', role: 'user' });
    const removed = await call(sb, 'DELETE', `${ws}/users/${dan.id}/remove`);
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual({ message: 'User removed from workspace successfully.' });
    const gone = await call(sb, 'DELETE', `${ws}/users/${dan.id}/remove`);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ message: 'User is not a member of this workspace.' });
    expect((await call(sb, 'PUT', `${ws}/users/999/update-role`, { role: 'user' })).status).toBe(404);
  });

  it('lists invites for admins with workspaces-write, resends and cancels them', async () => {
    let now = Date.UTC(2025, 4, 1, 12);
    const sb = await boot({ now: () => now });
    const ws = `/open/workspaces/${sb.workspaceId}`;
    await call(sb, 'POST', `${ws}/users/add`, { email: 'erin@example.com', role: 'user' });
    await call(sb, 'POST', `${ws}/users/add`, { email: 'finn@example.com', role: 'admin' });
    const list = await call(sb, 'GET', `${ws}/invites`);
    expect(list.status).toBe(200);
    expect(list.json).toEqual([
      {
        id: 1,
        workspace_id: sb.workspaceId,
        email: 'erin@example.com',
        role: 'user',
        status: 'pending',
        valid_until: '2025-05-08T12:00:00.000Z',
        created_at: '2025-05-01T12:00:00.000Z',
        updated_at: '2025-05-01T12:00:00.000Z',
      },
      {
        id: 2,
        workspace_id: sb.workspaceId,
        email: 'finn@example.com',
        role: 'admin',
        status: 'pending',
        valid_until: '2025-05-08T12:00:00.000Z',
        created_at: '2025-05-01T12:00:00.000Z',
        updated_at: '2025-05-01T12:00:00.000Z',
      },
    ]);
    // workspace-users-read alone cannot list invites (spec, latest change).
    const usersRead = sb.admin.createToken('admin@example.com', ['workspace-users-read', 'workspace-users-write']);
    const denied = await call(sb, 'GET', `${ws}/invites`, undefined, usersRead);
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('This action requires the workspaces-write ability, which this token does not have.');

    const resend = await call(sb, 'POST', `${ws}/invites/1/resend`);
    expect(resend.status).toBe(200);
    expect(resend.json).toEqual({ message: 'Invite email resent successfully.' });
    const cancel = await call(sb, 'DELETE', `${ws}/invites/1/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.json).toEqual({ message: 'Invite deleted successfully.' });
    const missing = await call(sb, 'POST', `${ws}/invites/1/resend`);
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ message: 'Invite not found for this workspace.' });

    // Accepting turns the invite into an account and a membership with the invited role.
    now += 3_600_000;
    sb.admin.acceptInvite('finn@example.com');
    const after = await call(sb, 'GET', `${ws}/invites`);
    expect(after.json).toEqual([expect.objectContaining({ id: 2, status: 'accepted', updated_at: '2025-05-01T13:00:00.000Z' })]);
    const accepted = await call(sb, 'DELETE', `${ws}/invites/2/cancel`);
    expect(accepted.status).toBe(400);
    expect(accepted.json).toEqual({ message: 'Invite already accepted.' });
    const users = await call(sb, 'GET', `${ws}/users`);
    expect(users.json[1]).toEqual({ id: 3, name: 'Finn', email: 'finn@example.com', role: 'admin' });
    expect(() => sb.admin.acceptInvite('finn@example.com')).toThrow('No open invite for finn@example.com.');
  });
});

describe('sandbox Community instance', () => {
  it('allows at most 2 users across the instance; existing users can join more workspaces', async () => {
    const sb = await boot({ community: true });
    const ws = `/open/workspaces/${sb.workspaceId}`;
    const first = await call(sb, 'POST', `${ws}/users/add`, { email: 'gia@example.com', role: 'user' });
    expect(first.json.message).toBe('Registration invitation email sent to user.');
    const third = await call(sb, 'POST', `${ws}/users/add`, { email: 'hal@example.com', role: 'user' });
    expect(third.status).toBe(403);
    expect(third.json).toEqual({
      message:
        'This Community instance has reached its 2-user limit (Community limit: 2 users in total across the instance). Adding or inviting more users requires an Enterprise licence.',
    });
    // The pending invitee holds the second seat: inviting the same address to another workspace is fine.
    const other = await call(sb, 'POST', '/open/workspaces/create', { name: 'Other' });
    const otherWs = `/open/workspaces/${other.json.workspace_id}`;
    const sameAddress = await call(sb, 'POST', `${otherWs}/users/add`, { email: 'gia@example.com', role: 'user' });
    expect(sameAddress.json.message).toBe('Registration invitation email sent to user.');
    sb.admin.acceptInvite('gia@example.com');
    // Adding an existing account to another workspace does not take a seat.
    const third2 = await call(sb, 'POST', '/open/workspaces/create', { name: 'Third' });
    const existing = await call(sb, 'POST', `/open/workspaces/${third2.json.workspace_id}/users/add`, { email: 'gia@example.com', role: 'readonly' });
    expect(existing.json).toEqual({ message: 'User has been successfully added to workspace.' });
    const stillFull = await call(sb, 'POST', `${otherWs}/users/add`, { email: 'ivy@example.com', role: 'user' });
    expect(stillFull.status).toBe(403);
  });

  it('does not limit users without the community option', async () => {
    const sb = await boot();
    for (const email of ['a1@example.com', 'a2@example.com', 'a3@example.com']) {
      const res = await call(sb, 'POST', `/open/workspaces/${sb.workspaceId}/users/add`, { email, role: 'user' });
      expect(res.status).toBe(200);
    }
  });
});
