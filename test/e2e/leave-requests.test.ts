// `workspace leave` from the built binary on both sandbox flavours, behind a counting proxy: the
// last-admin guard refuses after its own reads only (the member list, and who-am-I where one admin
// has company); the workspace's name and form count are read only for the messages of a leave that
// goes ahead (src/commands/workspace/leave.ts).
import { describe, expect, it } from 'vitest';
import { countedSandbox } from '../helpers/counted-sandbox.js';
import { FLAVORS } from '../helpers/sandbox.js';

describe.each(FLAVORS)('workspace leave on the %s flavour: the requests it makes', (flavor) => {
  const t = countedSandbox(flavor);
  const { counted } = t;

  it('refused for the only member after 1 request, for the only admin after 2; the others leave; --force reads the name and form count for its warning', async () => {
    const w = t.sb.workspaceId;
    const users = `GET /open/workspaces/${w}/users`;
    const only = await counted(['workspace', 'leave', String(w), '--yes']);
    expect(only.code).toBe(2);
    expect(only.stderr).toMatch(
      new RegExp(`^error: Refusing to leave workspace ${w}: Ada Admin \\(admin@example\\.com\\) is the only member of workspace ${w}, `),
    );
    expect(only.requests).toEqual([users]);

    expect((await counted(['member', 'add', 'bea@example.com', '--role', 'user', '-w', String(w)])).code).toBe(0);
    const admin = await counted(['workspace', 'leave', String(w), '--yes']);
    expect(admin.code).toBe(2);
    expect(admin.stderr).toMatch(
      new RegExp(`^error: Refusing to leave workspace ${w}: Ada Admin \\(admin@example\\.com\\) is the only admin of workspace ${w}, `),
    );
    expect(admin.requests).toEqual([users, 'GET /external/zapier/validate']);

    // Bea is not the admin: she leaves, and piped with --yes nothing names the workspace.
    const bea = t.sb.users.find((u) => u.email === 'bea@example.com')!;
    const left = await counted(['workspace', 'leave', String(w), '--yes', '--json'], bea.token);
    expect(left.stderr).toBe('');
    expect(left.code).toBe(0);
    // --json as workspace delete has it: the id, and what happened.
    expect(JSON.parse(left.stdout)).toEqual({ id: w, left: true });
    expect(left.requests).toEqual([users, 'GET /external/zapier/validate', `POST /open/workspaces/${w}/leave`]);

    const forced = await counted(['workspace', 'leave', String(w), '--yes', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(
      /^warning: --force: Ada Admin \(admin@example\.com\) is the only member of ".+", so ".+" and its one form would be left with nobody at all\.\n/,
    );
    expect(forced.requests).toEqual([users, 'GET /open/workspaces', `GET /open/workspaces/${w}/forms?page=1&per_page=100`, `POST /open/workspaces/${w}/leave`]);
  });
});
