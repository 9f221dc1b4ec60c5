// The service's numeric limits that both sides need (docs/service.md): the client paces and pages by
// them, the sandbox enforces them.

/** The largest page a list endpoint of the service returns (`per_page` is clamped to it). */
export const MAX_PER_PAGE = 100;

/** Requests a minute the service allows by default (spec: 100; the deployed server counts per user). */
export const RATE_LIMIT_PER_MINUTE = 100;

/** Exports a minute per user on the deployed service, a limiter of its own; the answers' headers can only lower it. */
export const EXPORT_LIMIT_PER_MINUTE = 10;

/** An export of more submissions than this becomes an asynchronous job (the deployed server: > 1000). */
export const EXPORT_ASYNC_THRESHOLD = 1000;
