import { Command } from '@commander-js/extra-typings';
import { ApiError, ForbiddenError, UnauthorizedError } from '../../api/errors.js';
import { listWorkspaces } from '../../api/workspaces.js';
import { maskToken, notLoggedIn } from '../../config/resolve.js';
import { CliError, ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { type Column, resolveFormat, writeObject } from '../../io/output.js';
import { type FlagsOf, addOutputOptions, examples } from '../shared.js';

export const AUTH_STATUS_FIELDS = ['profile', 'base_url', 'base_url_source', 'token_source', 'token', 'workspace', 'valid', 'error'] as const;

/** The `auth status --json` contract: field names are stable. */
export interface AuthStatus {
  profile: string;
  base_url: string;
  base_url_source: string;
  token_source: string;
  /** Masked: first 4 characters only. */
  token: string | null;
  workspace: number | null;
  valid: boolean;
  error?: string;
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
  const format = resolveFormat(o.io, o, AUTH_STATUS_FIELDS);
  const ctx = await o.context();
  const status: AuthStatus = {
    profile: ctx.profileName,
    base_url: ctx.baseUrl,
    base_url_source: ctx.baseUrlSource,
    token_source: ctx.tokenSource,
    token: ctx.token ? maskToken(ctx.token) : null,
    workspace: ctx.workspace ?? null,
    valid: false,
  };
  let failure: CliError | undefined;
  let detail = '';
  let summary: string | undefined;
  if (!ctx.token) {
    status.error = ctx.withheldToken ? `no token for this host (the saved one is for ${ctx.withheldToken.origin})` : 'no token';
    failure = notLoggedIn(ctx);
  } else if (ctx.tokenProblem) {
    // A saved token that cannot be a header value is not sent (the value is never shown).
    status.error = 'the saved token is not a valid header value';
    failure = ctx.tokenProblem;
  } else {
    try {
      const workspaces = await listWorkspaces(o.apiFor(ctx.baseUrl, ctx.token));
      status.valid = true;
      detail = `can see ${workspaces.length} workspace${workspaces.length === 1 ? '' : 's'}`;
    } catch (err) {
      if (err instanceof ForbiddenError) {
        // The token authenticated; it only lacks the ability to list workspaces.
        status.valid = true;
        detail = 'accepted, but lacks the workspaces-read ability';
      } else if (err instanceof UnauthorizedError) {
        status.error = 'token rejected (HTTP 401)';
        failure = new CliError(
          `The token from ${ctx.tokenSource === 'env' ? 'FORMCTL_TOKEN' : `profile "${ctx.profileName}"`} was rejected by ${new URL(ctx.baseUrl).host} (HTTP 401).`,
          ExitCode.auth,
          ctx.tokenSource === 'env' ? 'Set FORMCTL_TOKEN to a valid token.' : 'Run `formctl auth login` with a new token.',
        );
      } else if (err instanceof CliError) {
        status.error = err instanceof ApiError ? `HTTP ${err.status}` : err.message.split('\n')[0]!;
        // The error line below says what failed; the table does not say it a second time.
        summary = err instanceof ApiError ? `HTTP ${err.status} (see the error below)` : 'cannot reach the service (see the error below)';
        // A hint that sends the reader to `formctl auth status` is no help from auth status itself.
        failure = err.hint?.includes('formctl auth status')
          ? new CliError(err.message, err.exitCode, `Is the service running, and is the base URL right? ${BASE_URL_ORIGIN[ctx.baseUrlSource] ?? ''}`.trimEnd())
          : err;
      } else {
        throw err;
      }
    }
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
    { header: 'Status', value: (s) => (s.valid ? `valid: ${detail}` : `not working: ${summary ?? s.error}`) },
  ];
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, status, []);
  } else {
    await writeObject(o.io, format, status, columns);
  }
  if (failure) throw failure;
}
