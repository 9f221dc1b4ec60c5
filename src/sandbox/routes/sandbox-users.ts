import { ok } from '../context.js';
import type { RouteTable } from '../context.js';
import { ensureUser } from '../users.js';
import { Errors, requiredEmail } from '../validation.js';

/**
 * Sandbox-only (not part of the service): POST /sandbox/users {email, name?} creates an account with
 * an all-abilities token, as someone registering would, and accepts that address's open invites.
 * Any valid token of the sandbox may call it. docs/service.md, "Team work".
 */
export function registerSandboxUsers(r: RouteTable): void {
  r.api('POST', '/sandbox/users', async (ctx) => {
    const { app } = ctx;
    const body = await ctx.body();
    const errors = new Errors();
    if (requiredEmail(errors, body) !== undefined && app.store.userByEmail(body.email as string)) errors.add('email', 'The email has already been taken.');
    if (body.name !== undefined && body.name !== null && typeof body.name !== 'string') errors.add('name', 'The name field must be a string.');
    errors.throwIfAny();
    const { user, joined } = ensureUser(app.store, (body.email as string).trim(), app.opts.now(), (body.name as string | null | undefined) ?? undefined);
    return ok({ ...user, workspaces_joined: joined }, 201);
  });
}
