import { Command } from '@commander-js/extra-typings';
import { type Account, whoAmI } from '../../api/account.js';
import type { ApiClient } from '../../api/client.js';
import { ApiError, ForbiddenError, UnauthorizedError } from '../../api/errors.js';
import { listWorkspaces } from '../../api/workspaces.js';
import { type ResolvedContext, checkBaseUrl, maskToken, notLoggedIn } from '../../config/resolve.js';
import { CliError, ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { type Column, resolveFormat, writeObject } from '../../io/output.js';
import { type FlagsOf, addOutputOptions, examples } from '../shared.js';

export const AUTH_STATUS_FIELDS = ['profile', 'base_url', 'base_url_source', 'token_source', 'token', 'workspace', 'account', 'valid', 'error'] as const;

/** The `auth status --json` contract: field names are stable. */
export interface AuthStatus {
  profile: string;
  base_url: string;
  base_url_source: string;
  token_source: string;
  /** Masked: first 4 characters only. */
  token: string | null;
  workspace: number | null;
  /** Whose the token is, when the service says (`GET /external/zapier/validate`); null otherwise. */
  account: Account | null;
  valid: boolean;
  error?: string;
}

/** What one check of a token learnt: the status fields it sets, the line a person reads, and the error to exit with. */
export interface TokenCheck {
  valid: boolean;
  account: Account | null;
  /** After "valid: " in the table (nothing when the account is known). */
  detail: string;
  error?: string;
  /** Replaces `error` in the table when the error line below says the rest. */
  summary?: string;
  failure?: CliError;
}

/**
 * Checks a token against its service: who-am-I first (one request under its own limiter, open to
 * any token whatever its abilities: docs/service.md, "Who am I"); where the service has no such
 * route, the workspace list, as before (a 403 there still means the token authenticated).
 */
export async function checkToken(
  client: ApiClient,
  ctx: Pick<ResolvedContext, 'baseUrl' | 'baseUrlSource' | 'tokenSource' | 'profileName'>,
): Promise<TokenCheck> {
  try {
    const account = await whoAmI(client);
    if (account) return { valid: true, account, detail: '' };
    const workspaces = await listWorkspaces(client);
    return { valid: true, account: null, detail: `can see ${workspaces.length} workspace${workspaces.length === 1 ? '' : 's'}` };
  } catch (err) {
    if (err instanceof ForbiddenError) {
      // The token authenticated; it only lacks the ability to list workspaces.
      return { valid: true, account: null, detail: 'accepted, but lacks the workspaces-read ability' };
    }
    if (err instanceof UnauthorizedError) {
      return {
        valid: false,
        account: null,
        detail: '',
        error: 'token rejected (HTTP 401)',
        failure: new CliError(
          `The token from ${ctx.tokenSource === 'env' ? 'FORMCTL_TOKEN' : `profile "${ctx.profileName}"`} was rejected by ${new URL(ctx.baseUrl).host} (HTTP 401).`,
          ExitCode.auth,
          ctx.tokenSource === 'env' ? 'Set FORMCTL_TOKEN to a valid token.' : 'Run `formctl auth login` with a new token.',
        ),
      };
    }
    if (err instanceof CliError) {
      return {
        valid: false,
        account: null,
        detail: '',
        error: err instanceof ApiError ? `HTTP ${err.status}` : err.message.split('\n')[0]!,
        // The error line below says what failed; the table does not say it a second time.
        summary: err instanceof ApiError ? `HTTP ${err.status} (see the error below)` : 'cannot reach the service (see the error below)',
        // A hint that sends the reader to `formctl auth status` is no help from auth status itself.
        failure: err.hint?.includes('formctl auth status')
          ? new CliError(err.message, err.exitCode, `Is the service running, and is the base URL right? ${BASE_URL_ORIGIN[ctx.baseUrlSource] ?? ''}`.trimEnd())
          : err,
      };
    }
    throw err;
  }
}

/** "Ada Admin (ada@example.com)", or the e-mail alone. */
export function accountLabel(a: Account): string {
  return a.name.trim() ? `${a.name.trim()} (${a.email})` : a.email;
}

/** `formctl auth status`: the command and its flags, declared once. */
function authStatusCommand() {
  const base = new Command('status').description('Show the active profile, where the token comes from, and whether it works');
  return examples(addOutputOptions(base, { fields: AUTH_STATUS_FIELDS }), [
    'formctl auth status',
    'formctl auth status --json valid,base_url | jq -e .valid   # exit 1 when invalid',
  ]);
}

export type AuthStatusOptions = FlagsOf<typeof authStatusCommand> & Pick<Factory, 'io' | 'context' | 'apiFor'>;

/** `formctl auth status`. */
export function newAuthStatusCommand(f: Factory, runF = authStatusRun) {
  return authStatusCommand().action((flags) => runF({ ...flags, io: f.io, context: f.context, apiFor: f.apiFor }));
}

const SOURCE_LABEL: Record<string, string> = {
  env: 'from FORMCTL_BASE_URL',
  profile: 'from the profile',
  default: 'default',
};

/** Where to change the base URL, by where it came from. */
const BASE_URL_ORIGIN: Record<string, string> = {
  env: 'It comes from FORMCTL_BASE_URL.',
  profile: 'It comes from the profile (change it with `formctl auth login --base-url <url>`).',
  default: 'It is the default; pass `--base-url` to `formctl auth login` for another service.',
};

/** Prints the status, then exits 4 when the token is missing or rejected (11 when the service is unreachable). */
export async function authStatusRun(o: AuthStatusOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const ctx = await o.context();
  const status: AuthStatus = {
    profile: ctx.profileName,
    base_url: ctx.baseUrl,
    base_url_source: ctx.baseUrlSource,
    token_source: ctx.tokenSource,
    token: ctx.token ? maskToken(ctx.token) : null,
    workspace: ctx.workspace ?? null,
    account: null,
    valid: false,
  };
  let failure: CliError | undefined;
  let detail = '';
  let summary: string | undefined;
  const badBaseUrl = baseUrlProblem(ctx);
  if (badBaseUrl) {
    // Checked first, as every command does: no request can go to such a base URL (exit 2).
    status.error = 'the base URL is not an http(s) URL';
    failure = badBaseUrl;
  } else if (!ctx.token) {
    status.error = ctx.withheldToken ? `no token for this host (the saved one is for ${ctx.withheldToken.origin})` : 'no token';
    failure = notLoggedIn(ctx);
  } else if (ctx.tokenProblem) {
    // A saved token that cannot be a header value is not sent (the value is never shown).
    status.error = 'the saved token is not a valid header value';
    failure = ctx.tokenProblem;
  } else {
    const check = await checkToken(o.apiFor(ctx.baseUrl, ctx.token), ctx);
    status.valid = check.valid;
    status.account = check.account;
    if (check.error !== undefined) status.error = check.error;
    ({ detail, summary, failure } = check);
  }

  const columns: Column<AuthStatus>[] = [
    {
      header: 'Profile',
      value: (s) => `${s.profile}${ctx.profileSource === 'flag' ? ' (from --profile)' : ctx.profileSource === 'env' ? ' (from FORMCTL_PROFILE)' : ''}`,
    },
    { header: 'Base URL', value: (s) => `${s.base_url}${s.base_url_source === 'profile' ? '' : ` (${SOURCE_LABEL[s.base_url_source]})`}` },
    { header: 'Token', value: (s) => (s.token ? `${s.token} (${s.token_source === 'env' ? 'from FORMCTL_TOKEN' : 'from the profile'})` : 'none') },
    {
      header: 'Workspace',
      value: (s) =>
        s.workspace === null
          ? 'none (set one with `formctl workspace use <id>`)'
          : `${s.workspace}${ctx.workspaceSource === 'env' ? ' (from FORMCTL_WORKSPACE)' : ''}`,
    },
    { header: 'Status', value: (s) => (s.valid ? `valid${detail ? `: ${detail}` : ''}` : `not working: ${summary ?? s.error}`) },
  ];
  // Whose the token is, as `gh auth status` says it; only once the token was accepted.
  if (status.valid) {
    const account = status.account;
    columns.splice(4, 0, { header: 'Account', value: () => (account ? accountLabel(account) : 'unknown (this service does not say whose a token is)') });
  }
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, status, []);
  } else {
    await writeObject(o.io, format, status, columns);
  }
  if (failure) throw failure;
}

/** The usage error for a base URL no request can go to, if it is one. */
function baseUrlProblem(ctx: ResolvedContext): CliError | undefined {
  try {
    checkBaseUrl(ctx);
    return undefined;
  } catch (err) {
    if (err instanceof CliError) return err;
    throw err;
  }
}
