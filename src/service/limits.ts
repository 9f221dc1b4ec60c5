// The service's numeric limits that both sides need (docs/service.md): the client paces and pages by
// them, the sandbox enforces them.

/** The largest page a list endpoint of the service returns (`per_page` is clamped to it). */
export const MAX_PER_PAGE = 100;

/** Requests a minute the service allows by default (spec: 100; the deployed server counts per user). */
export const RATE_LIMIT_PER_MINUTE = 100;

/** Exports a minute per user on the deployed service, a limiter of its own; the answers' headers can only lower it. */
export const EXPORT_LIMIT_PER_MINUTE = 10;
/**
 * The deployed server's `api` limiter on the `/external/` routes (who am I): 60 a minute per user,
 * separate from the general one (OpnForm `api/app/Http/Kernel.php:109-113`,
 * `api/app/Providers/RouteServiceProvider.php:50-52`).
 */
export const EXTERNAL_LIMIT_PER_MINUTE = 60;

/** An export of more submissions than this becomes an asynchronous job (the deployed server: > 1000). */
export const EXPORT_ASYNC_THRESHOLD = 1000;
