import { CliError, ExitCode } from '../errors.js';
import { type Ability, COMMUNITY_SEATS, DEPLOYED_ABILITY } from '../service/access.js';

/** Field errors as the service reports them: dotted path → messages. */
export type FieldErrors = Record<string, string[]>;

export interface ApiErrorInit {
  status: number;
  method: string;
  path: string;
  serverMessage?: string;
  errors?: FieldErrors;
  /** The ability the spec requires for this endpoint, named in 403 hints. */
  ability?: string;
  retryAfterSeconds?: number;
  /** Refused here before sending (the shared rate budget): no answer came, so no HTTP status is quoted. */
  local?: boolean;
  /** For 405: the methods the path takes (the answer's `Allow` header), when it said. */
  allow?: string;
  /** The answer's body was empty, or its `message` an empty string (emptyMessageBody). */
  emptyMessage?: boolean;
}

/** An HTTP error answer from the service. Carries status, message and field errors — never headers or tokens. */
export class ApiError extends CliError {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly serverMessage?: string;
  readonly errors?: FieldErrors;
  readonly ability?: string;
  /** For 429: how long the service asked to wait (Retry-After / X-RateLimit-Reset), when it said. */
  readonly retryAfterSeconds?: number;
  /** The answer's body was empty, or its `message` an empty string: see closedToTokens. */
  readonly emptyMessage: boolean;

  constructor(init: ApiErrorInit, exitCode: number = ExitCode.error, hint?: string) {
    super(describe(init), exitCode, hint);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.serverMessage = init.serverMessage;
    this.emptyMessage = init.emptyMessage ?? false;
    this.errors = init.errors;
    this.ability = init.ability;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** 401: missing or rejected token. */
export class UnauthorizedError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, ExitCode.auth, 'Run `formctl auth login` (or set FORMCTL_TOKEN) with a valid personal access token.');
  }
}

/** 403: ability, role, membership or seat limit. */
export class ForbiddenError extends ApiError {
  constructor(init: ApiErrorInit, hint?: string) {
    super(init, ExitCode.forbidden, hint ?? forbiddenHint(init));
  }
}

/**
 * 402: the deployed service's answer when the workspace's plan lacks a feature the request uses
 * (its FeatureAccessDeniedException). Exit 5, like other refusals of permission.
 */
export class PlanRequiredError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, ExitCode.forbidden, "The workspace's plan does not include this feature: upgrade the plan, or leave the feature out of the request.");
  }
}

/**
 * A body that says nothing: none, blank text, or a JSON object whose `message` is an empty string
 * (with or without the keys Laravel adds in debug mode). How the deployed server answers a token on a
 * route that exists but is not open to tokens: 404 `{"message":""}` (OpnForm
 * `AuthenticateWithJwtOrSanctum.php:30-37` throws a NotFoundHttpException without a message;
 * docs/service.md, "Requests in general"). A page from a proxy, a `{}`, or any message is not it.
 */
export function emptyMessageBody(body: unknown): boolean {
  if (body === undefined || body === null) return true;
  if (typeof body === 'string') return body.trim() === '';
  return typeof body === 'object' && !Array.isArray(body) && (body as { message?: unknown }).message === '';
}

/**
 * Whether an error is the deployed server's 404 for a route closed to tokens (emptyMessageBody): the
 * ids in the path may well be right. The one reading of that answer, for every command.
 */
export function closedToTokens(err: unknown): err is NotFoundError {
  return err instanceof NotFoundError && err.emptyMessage;
}

/** 404. */
export class NotFoundError extends ApiError {
  constructor(init: ApiErrorInit, hint?: string) {
    super(init, ExitCode.notFound, hint ?? notFoundHint(init.path));
  }
}

/** The route a Laravel router's own 404 names (`The route open/x could not be found.`), or undefined for any other answer. */
function unknownRoute(serverMessage: string | undefined): string | undefined {
  return /^The route (.*) could not be found\.?$/.exec(serverMessage ?? '')?.[1];
}

/**
 * Laravel's router's own 404 (docs/service.md, "Requests in general"): the service has no such
 * route at all, so no id in the path is to blame. Both sandbox flavours word it the same way.
 */
export function isUnknownRoute(serverMessage: string | undefined): boolean {
  return unknownRoute(serverMessage) !== undefined;
}

/**
 * The hint for the router's 404 on a path under a base URL with a path (`https://host/api`), when
 * the route it names still holds that path: the service's routes have no prefix (OpnForm
 * `api/app/Providers/RouteServiceProvider.php:33-39`), so the base URL's path is to blame, not an
 * id. OpnForm's docker image answers under `/api` too, its nginx stripping it
 * (`docker/nginx.conf:1-4,38`): a missing route there is named without `api/`, and keeps the
 * usual hint (docs/service.md, "Base URL"). Undefined when the hint does not apply.
 */
export function baseUrlPathHint(baseUrl: URL, serverMessage: string | undefined): string | undefined {
  const route = unknownRoute(serverMessage)?.replace(/^\/+/, '');
  const prefix = baseUrl.pathname.replace(/^\/+/, '');
  if (route === undefined || prefix === '' || !route.startsWith(prefix)) return undefined;
  if (/(^|\/)api\/$/i.test(prefix)) {
    const bare = `${baseUrl.origin}/${prefix.replace(/(^|\/)api\/$/i, '$1')}`.replace(/\/$/, '');
    return `The base URL ends in /api, and this service has no routes under it: formctl adds the API paths (/open/…) to the base URL itself. Use the base URL without /api: ${bare}`;
  }
  return `This service has no routes under the base URL's path (/${prefix}): formctl adds the API paths (/open/…) to the base URL itself. Check the base URL (OpnForm's API paths start at the host: ${baseUrl.origin}).`;
}

/** What to check after a 404, by the resource the path names (ids quoted back from the path). */
export function notFoundHint(path: string): string {
  const p = path.split('?')[0]!;
  const seg = (re: RegExp) =>
    re
      .exec(p)
      ?.slice(1)
      .map((x) => decodeURIComponent(x)) ?? [];
  let m: string[];
  if ((m = seg(/^\/open\/forms\/([^/]+)\/submissions\/export\//)).length) {
    return `The export job is unknown or expired (jobs are kept for a limited time); start a new one: formctl submission export ${m[0]}`;
  }
  if ((m = seg(/^\/open\/forms\/([^/]+)\/submissions\/[^/]+/)).length) return `Check the submission id: formctl submission list ${m[0]}`;
  if ((m = seg(/^\/open\/forms\/([^/]+)\/integrations\/[^/]+/)).length) return `Check the webhook id: formctl webhook list ${m[0]}`;
  if (/^\/open\/forms\/[^/]+/.test(p))
    return "Check the form id or slug: `formctl form list` shows the default workspace's forms, `formctl form list -w <workspace>` another's.";
  if ((m = seg(/^\/open\/workspaces\/([^/]+)\/users\/[^/]+/)).length) return `Check the user id: formctl member list -w ${m[0]}`;
  if ((m = seg(/^\/open\/workspaces\/([^/]+)\/invites\/[^/]+/)).length) return `Check the invite id: formctl invite list -w ${m[0]}`;
  if (/^\/open\/workspaces\/[^/]+/.test(p)) {
    return 'Check the workspace id: formctl workspace list (a default set with `formctl workspace use` may point at a deleted workspace).';
  }
  return 'Check the path and the ids in it.';
}

/** How to check whether a request that may have been applied was (after a 5xx or a lost answer). */
export function appliedCheckHint(path: string): string {
  const m = /^\/open\/forms\/([^/?]+)\/submissions\/([^/?]+)/.exec(path);
  if (m) {
    const [form, id] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)];
    return `See whether submission ${id} already holds the new values before sending it again: formctl submission list ${form}`;
  }
  return 'Check the current state with the matching list or get command before sending it again.';
}

/**
 * 405: the path exists, but not for this method. Exit 6, as for a 404: what was asked for (this
 * method on this path) is not there. The deployed server's router answers it before any check of
 * the token (docs/service.md, "Requests in general").
 */
export class MethodNotAllowedError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(
      init,
      ExitCode.notFound,
      init.allow ? `That path takes ${init.allow}, not ${init.method}.` : `That path does not take ${init.method}: check the method and the path.`,
    );
  }
}

/**
 * 413: the body is larger than the service, or a proxy in front of it, accepts (an OpnForm server:
 * its nginx `client_max_body_size`, `docker/nginx.conf:10`, and PHP's `post_max_size` checked by
 * Laravel's ValidatePostSize, `api/app/Http/Kernel.php:44`; the sandbox: 10 MiB). Exit 7: the
 * service rejected the input.
 */
export class PayloadTooLargeError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, ExitCode.validation, 'The service refuses a request body this large: send less in one request.');
  }
}

/** 400/422: the server rejected the input. */
export class ValidationError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, ExitCode.validation);
  }
}

/** 429 past --max-wait. */
export class RateLimitError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(
      init,
      ExitCode.rateLimited,
      init.local && init.retryAfterSeconds !== undefined
        ? `The budget frees up in ${init.retryAfterSeconds} s, longer than --max-wait allows. Wait and retry, or raise --max-wait.`
        : init.retryAfterSeconds !== undefined
          ? `The service asked to wait ${init.retryAfterSeconds} s, longer than --max-wait allows. Wait and retry, or raise --max-wait.`
          : 'The service allows about 100 requests a minute. Wait and retry, or raise --max-wait.',
    );
  }
}

/** 5xx and anything else unexpected. */
export class ServerError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, ExitCode.error, init.status >= 500 ? 'The service failed; try again later.' : undefined);
  }
}

/** Could not reach the service, or it stopped answering: exit 11. */
export class NetworkError extends CliError {
  constructor(
    message: string,
    hint?: string,
    readonly code?: string,
    exitCode: number = ExitCode.network,
    options: { hintChecksBaseUrl?: boolean } = {},
  ) {
    super(message, exitCode, hint, options);
  }
}

/** The proxy from the environment failed (refused, unreachable, 407): exit 12, never retried (src/api/proxy.ts). */
export class ProxyError extends NetworkError {
  constructor(message: string, hint: string, code?: string) {
    super(message, hint, code, ExitCode.proxy);
  }
}

/** Builds the typed error for a status. */
export function apiErrorFor(init: ApiErrorInit): ApiError {
  const s = init.status;
  if (s === 401) return new UnauthorizedError(init);
  if (s === 402) return new PlanRequiredError(init);
  if (s === 403) return new ForbiddenError(init);
  if (s === 404) return new NotFoundError(init);
  if (s === 405) return new MethodNotAllowedError(init);
  if (s === 400 || s === 422) return new ValidationError(init);
  if (s === 413) return new PayloadTooLargeError(init);
  if (s === 429) return new RateLimitError(init);
  return new ServerError(init);
}

function describe(init: ApiErrorInit): string {
  const base = init.serverMessage?.trim() || defaultMessage(init.status);
  const where = init.local ? `(not sent: ${init.method} ${init.path})` : `(HTTP ${init.status}, ${init.method} ${init.path})`;
  const lines = [`${base.replace(/\.?$/, '.')} ${where}`];
  for (const [field, messages] of Object.entries(init.errors ?? {})) {
    for (const m of messages) lines.push(`  ${field}: ${m}`);
  }
  return lines.join('\n');
}

function defaultMessage(status: number): string {
  switch (status) {
    case 401:
      return 'Not authenticated';
    case 402:
      return 'This feature is not available on your plan';
    case 403:
      return 'Forbidden';
    case 404:
      return 'Not found';
    case 405:
      return 'Method not allowed';
    case 413:
      return 'The request body is too large';
    case 422:
    case 400:
      return 'The server rejected the input';
    case 429:
      return 'Rate limit exceeded';
    default:
      return status >= 500 ? 'The service had an internal error' : `Unexpected HTTP status ${status}`;
  }
}

/** "the `x` ability" or "the `x` ability (OpnForm servers check `y`)" (docs/webhooks-and-members.md, "403 hints"). */
export function abilityPhrase(ability: string, deployed: string | undefined = DEPLOYED_ABILITY[ability as Ability]): string {
  return `the \`${ability}\` ability${deployed && deployed !== ability ? ` (OpnForm servers check \`${deployed}\`)` : ''}`;
}

/** Why a server refused, read from its message text (which differs between servers). */
export type ForbiddenCause = 'seats' | 'plan' | 'last-workspace' | 'ability' | 'membership' | 'admin' | 'readonly' | 'unknown';

/**
 * The one classifier of 403 messages; every 403 hint starts from it. Unknown texts (Laravel's "This
 * action is unauthorized.") give 'unknown'.
 */
export function forbiddenCause(serverMessage: string | undefined): ForbiddenCause {
  const m = (serverMessage ?? '').toLowerCase();
  // Seat limit first: its texts mention "users" and "licence", which would otherwise read as other causes.
  if (/seat|licen[cs]e|community|user limit|\d+-user|two users|maximum number of users|enterprise/.test(m)) return 'seats';
  if (/last workspace|your only workspace/.test(m)) return 'last-workspace';
  if (/\bplan\b|upgrade|subscription|workspace limit/.test(m)) return 'plan';
  if (/abilit|scope|token/.test(m)) return 'ability';
  if (/not a member|member of|belong/.test(m)) return 'membership';
  if (/admin/.test(m)) return 'admin';
  if (/read-?only/.test(m)) return 'readonly';
  return 'unknown';
}

/**
 * The deployed server's "You need to be an admin of this workspace to do this." (workspace delete,
 * member add) comes from a check that fails first when the token lacks `workspaces-write`, so a
 * real admin gets it too (OpnForm `app/Policies/WorkspacePolicy.php:96-100,129-133,163-176`).
 */
export function adminOrWriteAbility(serverMessage: string | undefined): boolean {
  return /need to be an admin of this workspace/i.test(serverMessage ?? '');
}

/** The hint for that message: the ability first (an admin's likeliest cause), then the role. */
export function adminOrWriteAbilityHint(workspaceId?: number): string {
  const ws = workspaceId === undefined ? 'the workspace' : `workspace ${workspaceId}`;
  return (
    `OpnForm servers say this also to an admin whose token lacks the \`workspaces-write\` ability. If you are an admin of ${ws} (\`formctl member list\`), ` +
    'create a token with `workspaces-write` and run `formctl auth login`; otherwise ask an admin to do it, or to make you one.'
  );
}

/** The hint for a 403 on a route with no richer requirement (members.ts adds the role and action). */
function forbiddenHint(init: ApiErrorInit): string {
  switch (forbiddenCause(init.serverMessage)) {
    case 'seats':
      return `This self-hosted Community instance allows ${COMMUNITY_SEATS} users in total; an Enterprise licence lifts the limit.`;
    case 'last-workspace':
      return 'The service keeps every account in at least one workspace: create another one first (`formctl workspace create`), or delete the account in the dashboard.';
    case 'plan':
      return "The service's plan does not allow this; an owner must upgrade it.";
    case 'admin':
      if (adminOrWriteAbility(init.serverMessage)) return adminOrWriteAbilityHint();
      return 'Only an admin of the workspace can do this. Ask an admin, or check `formctl member list`.';
    case 'membership':
      return 'Your account is not a member of that workspace. Check `formctl workspace list`.';
    case 'readonly':
      return 'Your role in that workspace is read-only. Ask an admin to change it (`formctl member set-role`).';
    default:
      if (init.ability) {
        return `This needs a token with ${abilityPhrase(init.ability)} (or your role in the workspace does not allow it). Create a token with that ability and run \`formctl auth login\`.`;
      }
      return 'The token may lack the ability this needs, or your role in the workspace does not allow it.';
  }
}
