import { describe, expect, it } from 'vitest';
import { ForbiddenError, apiErrorFor, forbiddenCause } from '../../../src/api/errors.js';

// One classifier reads every 403 message; the generic hint names the deployed server's ability next to
// the contract's where they differ, and does not send a user after abilities when the cause is another.
const init = (serverMessage: string, ability?: string) => ({ status: 403, method: 'PUT', path: '/open/forms/1/submissions/2', serverMessage, ability });

describe('403 hints', () => {
  it('names forms-write next to submissions-write (the deployed server has no submissions-write)', () => {
    const err = apiErrorFor(init('This action is unauthorized.', 'submissions-write')) as ForbiddenError;
    expect(err.hint).toBe(
      'This needs a token with the `submissions-write` ability (OpnForm servers check `forms-write`) (or your role in the workspace does not allow it). Create a token with that ability and run `formctl auth login`.',
    );
  });

  it('deleting your last workspace is not about token abilities', () => {
    expect(forbiddenCause('You cannot delete your last workspace. Delete your account instead.')).toBe('last-workspace');
    const err = apiErrorFor({
      ...init('You cannot delete your last workspace. Delete your account instead.', 'workspaces-write'),
      method: 'DELETE',
      path: '/open/workspaces/1',
    });
    expect(err.hint).toMatch(/^The service keeps every account in at least one workspace: create another one first/);
    expect(err.hint).not.toMatch(/abilit/);
  });

  it('a workspace limit of the plan is a plan matter', () => {
    expect(forbiddenCause('You have reached the workspace limit of your plan.')).toBe('plan');
  });
});
