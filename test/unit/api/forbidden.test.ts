import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ForbiddenError, apiErrorFor, forbiddenCause } from '../../../src/api/errors.js';
import { updateSubmission } from '../../../src/api/submissions.js';
import { useStubService } from '../../helpers/stub-service.js';

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

describe('a refused submission update (PUT …/submissions/{id})', () => {
  const serve = useStubService();
  const FORMS_WRITE =
    'This needs a token with the `forms-write` ability on the deployed OpnForm service (`submissions-write` by the API spec), or your role in the workspace does not allow it. Create a token with it and run `formctl auth login`.';

  // The hint is chosen by the cause the one classifier reads from the message, not by the text of another hint.
  for (const [message, hint] of [
    ['This action is unauthorized.', FORMS_WRITE],
    ['Your token does not have the required abilities.', FORMS_WRITE],
    ['Your role in this workspace is read-only.', 'Your role in that workspace is read-only. Ask an admin to change it (`formctl member set-role`).'],
    ["The service's plan does not allow this.", "The service's plan does not allow this; an owner must upgrade it."],
  ] as const) {
    it(`"${message}" → ${hint === FORMS_WRITE ? 'the hint naming both services’ abilities' : 'the hint of its cause'}`, async () => {
      const s = await serve([['PUT /open/forms/1/submissions/2', [403, { message }]]]);
      const c = new ApiClient({ baseUrl: s.url, token: 't0ken', userAgent: 'test', timeoutMs: 5000, maxWaitMs: 0 });
      try {
        const err = await updateSubmission(c, 1, 2, { data: {} }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(ForbiddenError);
        expect((err as ForbiddenError).hint).toBe(hint);
        expect((err as ForbiddenError).serverMessage).toBe(message);
      } finally {
        await c.close();
      }
    });
  }
});
