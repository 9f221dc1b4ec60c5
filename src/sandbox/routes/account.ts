import { ok } from '../context.js';
import type { RouteTable } from '../context.js';

/**
 * Who am I, on both flavours (the spec has no such route; the spec flavour fills the gap from the
 * deployed server): `GET /external/zapier/validate` answers `{name, email}` of the token's owner to
 * any valid token, whatever its abilities (OpnForm `api/routes/api-external.php:12-17`,
 * `Integrations/Zapier/ValidateAuthController.php:9-17`). Its own limiter: `server.ts`, EXTERNAL.
 */
export function registerAccount(r: RouteTable): void {
  r.api('GET', '/external/zapier/validate', (ctx) => ok({ name: ctx.caller.user.name, email: ctx.caller.user.email }));
}
