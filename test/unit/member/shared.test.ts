import { describe, expect, it } from 'vitest';
import { forbiddenCause } from '../../../src/api/errors.js';
import { classifyAddOutcome } from '../../../src/api/members.js';
import { forbiddenHintFor, type Requirement } from '../../../src/api/requirements.js';
import { isValidEmail, parseEmail, parseMemberRef, parseRole } from '../../../src/commands/member/shared.js';
import { ExitCode, UsageError } from '../../../src/errors.js';

describe('email validation', () => {
  it.each(['alice@example.com', 'a.b+tag@sub.example.co.uk', 'ÄÖ@bücher.de', 'x@example.xn--p1ai', "O'Brien@example.ie"])('accepts %s', (e) => {
    expect(isValidEmail(e)).toBe(true);
  });
  it.each([
    '',
    'alice',
    'alice@',
    '@example.com',
    'alice@example',
    'al ice@example.com',
    'a@@b.com',
    'a@b.c',
    '.a@b.com',
    'a.@b.com',
    'a..b@c.com',
    'a@-b.com',
    'a@b..com',
    'a,b@c.com',
  ])('rejects %j', (e) => {
    expect(isValidEmail(e)).toBe(false);
  });
  it('trims and reports a usage error naming the input', () => {
    expect(parseEmail('  alice@example.com ')).toBe('alice@example.com');
    const err = (() => {
      try {
        parseEmail('alice@example');
      } catch (e) {
        return e as UsageError;
      }
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect(err?.exitCode).toBe(ExitCode.usage);
    expect(err?.message).toBe('Invalid email address "alice@example".');
  });
});

describe('parseRole', () => {
  it('accepts the three roles, case-insensitively', () => {
    expect(parseRole('admin')).toBe('admin');
    expect(parseRole('ReadOnly')).toBe('readonly');
  });
  it('lists the accepted values for an unknown role', () => {
    expect(() => parseRole('owner')).toThrow(new UsageError('Unknown role "owner".', 'Accepted roles: admin, user, readonly.'));
    try {
      parseRole('member');
    } catch (e) {
      expect((e as UsageError).hint).toBe('Accepted roles: admin, user, readonly.');
    }
  });
});

describe('parseMemberRef', () => {
  it('reads ids and emails', () => {
    expect(parseMemberRef('42')).toEqual({ id: 42 });
    expect(parseMemberRef('Bob@Example.com')).toEqual({ email: 'Bob@Example.com' });
  });
  it('rejects anything else with exit 2', () => {
    expect(() => parseMemberRef('bob')).toThrow('Expected a numeric user id or an email address, got "bob".');
    expect(() => parseMemberRef('bob@')).toThrow('Invalid email address "bob@".');
  });
});

describe('classifyAddOutcome', () => {
  it.each([
    // Deployed server texts (docs/service-details.md, Members and invites).
    [{ type: 'success', message: 'User has been successfully added to workspace.' }, 'added'],
    [{ type: 'success', message: 'Registration invitation email sent to user.', invite: { id: 3 } }, 'invited'],
    [{ type: 'success', message: 'User is already in workspace.' }, 'already_member'],
    // The spec's meanings, worded as the spec words them.
    [{ message: 'user successfully added to workspace' }, 'added'],
    [{ message: 'registration invitation email sent' }, 'invited'],
    [{ message: 'user already in workspace' }, 'already_member'],
    // Other plausible wordings.
    [{ message: 'Invitation sent.' }, 'invited'],
    [{ message: 'This user is already a member.' }, 'already_member'],
    [{ message: 'Member added' }, 'added'],
    // An invite object wins over any text.
    [{ message: 'Done', invite: { id: 1 } }, 'invited'],
  ])('%j → %s', (body, outcome) => {
    expect(classifyAddOutcome(body)).toBe(outcome);
  });
  it('gives undefined for a text it cannot read', () => {
    expect(classifyAddOutcome({ message: 'OK' })).toBeUndefined();
    expect(classifyAddOutcome('')).toBeUndefined();
  });
});

describe('403 explanations', () => {
  const add: Requirement = {
    action: 'adding members',
    ability: 'workspace-users-write',
    deployedAbility: 'workspaces-write',
    role: 'admin',
    workspaceId: 7,
    seats: true,
  };
  it.each([
    ['This Community instance has reached its 2-user limit. Adding or inviting more users requires an Enterprise licence.', 'seats'],
    ['You have reached the maximum number of users allowed with your license.', 'seats'],
    ['A Pro plan is required to invite users.', 'plan'],
    ['This action requires the workspace-users-write ability, which this token does not have.', 'ability'],
    ['You are not a member of this workspace.', 'membership'],
    ['Only workspace admins can add users to this workspace.', 'admin'],
    ['You need to be an admin of this workspace to do this.', 'admin'],
    ['This action is unauthorized.', 'unknown'],
    [undefined, 'unknown'],
  ])('%j → %s', (msg, cause) => {
    expect(forbiddenCause(msg)).toBe(cause);
  });
  it('words each cause for the endpoint', () => {
    expect(forbiddenHintFor('seat limit reached', add)).toMatch(
      /^This self-hosted Community instance allows 2 users in total, and that limit is reached; .*Enterprise licence/,
    );
    expect(forbiddenHintFor('requires the x ability', add)).toBe(
      'Your token lacks the `workspace-users-write` ability (OpnForm servers check `workspaces-write`), which adding members needs. Create a token with it and run `formctl auth login`.',
    );
    expect(forbiddenHintFor('Only workspace admins can add users to this workspace.', add)).toBe(
      'Adding members needs the admin role in workspace 7, and your role there is not admin. Ask an admin to do it, or to make you one with `formctl member set-role`.',
    );
    expect(forbiddenHintFor('You are not a member of this workspace.', add)).toBe(
      'You are not a member of workspace 7. Check the id with `formctl workspace list`.',
    );
    expect(forbiddenHintFor('This action is unauthorized.', add)).toBe(
      'Adding members needs a token with the `workspace-users-write` ability (OpnForm servers check `workspaces-write`) and the admin role in workspace 7; on a self-hosted Community instance it is also refused once 2 users exist. Check your role with `formctl member list -w 7`.',
    );
    expect(
      forbiddenHintFor('nope', { action: 'listing invites', ability: 'workspaces-write', deployedAbility: 'workspaces-write', role: 'admin', workspaceId: 1 }),
    ).toBe(
      'Listing invites needs a token with the `workspaces-write` ability and the admin role in workspace 1. Check your role with `formctl member list -w 1`.',
    );
  });
});
