import { Command } from '@commander-js/extra-typings';
import { type Account, whoAmI } from '../../api/account.js';
import type { ApiClient } from '../../api/client.js';
import { ApiError, ForbiddenError, UnauthorizedError } from '../../api/errors.js';
import { listWorkspaces } from '../../api/workspaces.js';
import { type ResolvedContext, checkBaseUrl, maskToken, notLoggedIn, resolveContext } from '../../config/resolve.js';
import { type ConfigStore, DEFAULT_BASE_URL } from '../../config/store.js';
import { CliError, ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { profileFlag } from '../../io/shell-word.js';
import { type Column, notice, resolveFormat, writeList, writeObject } from '../../io/output.js';
import { type FlagsOf, addOutputOptions, examples, profileOverride } from '../shared.js';

export const AUTH_STATUS_FIELDS = [
  'profile',
  'base_url',
  'base_url_source',
  'token_source',
  'token',
  'workspace',
  'account',
  'valid',
  'error',
  'profiles',
] as const;

/** One saved profile in `auth status`: its service, whose its token is, and whether it works. */
export interface ProfileStatus {
  profile: string;
  /** True for the profile this run uses (its line shows FORMCTL_TOKEN / FORMCTL_BASE_URL when set). */
  current: boolean;
  host: string;
  base_url: string;
  account: Account | null;
  valid: boolean;
  error: string | null;
}

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
  /** Every saved profile (only the one in use with --profile or FORMCTL_PROFILE), each checked at once. */
  profiles: ProfileStatus[];
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
  ctx: Pick<ResolvedContext, 'baseUrl' | 'baseUrlSource' | 'tokenSource' | 'profileName' | 'profileSource'>,
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
          ctx.tokenSource === 'env' ? 'Set FORMCTL_TOKEN to a valid token.' : `Run \`formctl${profileFlag(ctx)} auth login\` with a new token.`,
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
        failure: err.hintChecksBaseUrl
          ? new CliError(err.message, err.exitCode, `Is the service running, and is the base URL right? ${baseUrlOrigin(ctx)}`.trimEnd())
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
  const base = new Command('status').description(
    'Show the active profile, where the token comes from, and whether it works; then every other profile (--profile: that one only)',
  );
  return examples(addOutputOptions(base, { fields: AUTH_STATUS_FIELDS }), [
    'formctl auth status',
    'formctl auth status --json valid,base_url | jq -e .valid   # exit 1 when invalid',
  ]);
}

export type AuthStatusOptions = FlagsOf<typeof authStatusCommand> & Pick<Factory, 'io' | 'context' | 'apiFor'> & Partial<Pick<Factory, 'config' | 'env'>>;

/** `formctl auth status`. */
export function newAuthStatusCommand(f: Factory, runF = authStatusRun) {
  return authStatusCommand().action((flags) => runF({ ...flags, io: f.io, context: f.context, apiFor: f.apiFor, config: f.config, env: f.env }));
}

const SOURCE_LABEL: Record<string, string> = {
  env: 'from FORMCTL_BASE_URL',
  profile: 'from the profile',
  default: 'default',
};

/** Where to change the base URL, by where it came from. */
function baseUrlOrigin(ctx: Pick<ResolvedContext, 'baseUrlSource' | 'profileName' | 'profileSource'>): string {
  const login = `formctl${profileFlag(ctx)} auth login`;
  if (ctx.baseUrlSource === 'env') return 'It comes from FORMCTL_BASE_URL.';
  if (ctx.baseUrlSource === 'profile') return `It comes from the profile (change it with \`${login} --base-url <url>\`).`;
  return `It is the default; pass \`--base-url\` to \`${login}\` for another service.`;
}

/** Prints the status, then exits 4 when the token is missing or rejected (11 when the service is unreachable). */
export async function authStatusRun(o: AuthStatusOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const ctx = await o.context();
  // A profile named with --profile or FORMCTL_PROFILE that is not saved is a typo, said as every command says it (exit 2).
  if (ctx.missingProfile) throw ctx.missingProfile;
  const status: AuthStatus = {
    profile: ctx.profileName,
    base_url: ctx.baseUrl,
    base_url_source: ctx.baseUrlSource,
    token_source: ctx.tokenSource,
    token: ctx.token ? maskToken(ctx.token) : null,
    workspace: ctx.workspace ?? null,
    account: null,
    valid: false,
    profiles: [],
  };
  // The other saved profiles are checked at the same time as the one in use (one request each).
  const narrowed = ctx.profileSource === 'flag' || ctx.profileSource === 'env';
  const others = narrowed || !o.config ? Promise.resolve([]) : o.config().then((store) => checkOtherProfiles(store, ctx.profileName, o.apiFor));
  let failure: CliError | undefined;
  let detail = '';
  let summary: string | undefined;
  const badBaseUrl = baseUrlProblem(ctx);
  if (ctx.profileProblem) {
    // A hand-edited field of the wrong type: the profile's values are not used (exit 2).
    status.error = 'the saved profile has a field of the wrong type';
    failure = ctx.profileProblem;
  } else if (badBaseUrl) {
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

  const current: ProfileStatus = {
    profile: status.profile,
    current: true,
    host: hostOf(status.base_url),
    base_url: status.base_url,
    account: status.account,
    valid: status.valid,
    error: status.error ?? null,
  };
  status.profiles = [current, ...(await others)].sort((a, b) => a.profile.localeCompare(b.profile));

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
          ? `none (set one with \`formctl${profileFlag(ctx)} workspace use <id>\`)`
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
    const rest = status.profiles.filter((p) => !p.current);
    if (rest.length > 0) {
      if (format.kind === 'table') await write(o.io.stdout, '\nOther profiles:\n');
      // Piped, each line of another profile starts with `other profile`, a key no line above has:
      // a profile named `status` or `token` is never taken for the profile in use's row of that name.
      await writeList(o.io, format, rest, format.kind === 'tsv' ? [{ header: 'Kind', value: () => 'other profile' }, ...PROFILE_COLUMNS] : PROFILE_COLUMNS);
    }
  }
  // The other profiles are left out: say why, when the current one is not the profile shown.
  if (ctx.profileSource === 'env' && o.config && o.env) {
    const override = profileOverride(o.env, (await o.config()).data.currentProfile);
    if (override) await notice(o.io, `${override}: only the profile it names is shown; unset it to see every profile.`);
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

const PROFILE_COLUMNS: Column<ProfileStatus>[] = [
  { header: 'Profile', value: (p) => p.profile, style: 'cyan' },
  { header: 'Host', value: (p) => p.host, keep: true },
  { header: 'Account', value: (p) => (p.account ? accountLabel(p.account) : null) },
  { header: 'Status', value: (p) => (p.valid ? 'valid' : `not working: ${p.error ?? 'unknown'}`) },
];

function hostOf(baseUrl: string): string {
  return URL.canParse(baseUrl) ? new URL(baseUrl).host : baseUrl;
}

/**
 * Every saved profile but the one in use, each resolved as `--profile NAME` would be without the
 * FORMCTL_* overrides (they belong to the run, not to the profiles) and checked in parallel. A
 * check never fails the command: the exit code is the profile in use's.
 */
async function checkOtherProfiles(store: ConfigStore, currentName: string, apiFor: Factory['apiFor']): Promise<ProfileStatus[]> {
  const names = Object.keys(store.data.profiles).filter((n) => n !== currentName);
  return Promise.all(
    names.map(async (name): Promise<ProfileStatus> => {
      let ctx: ResolvedContext;
      try {
        ctx = resolveContext(store, {}, { profile: name });
      } catch {
        // A hand-edited name no command could select ("", "-x"): said, never a crash of the whole status.
        const baseUrl = store.profile(name)?.baseUrl || DEFAULT_BASE_URL;
        return { profile: name, current: false, host: hostOf(baseUrl), base_url: baseUrl, account: null, valid: false, error: 'its name cannot be selected' };
      }
      const base = { profile: name, current: false, host: hostOf(ctx.baseUrl), base_url: ctx.baseUrl, account: null };
      if (ctx.profileProblem) return { ...base, valid: false, error: 'the saved profile has a field of the wrong type' };
      if (!ctx.token)
        return { ...base, valid: false, error: ctx.withheldToken ? `no token for this host (the saved one is for ${ctx.withheldToken.origin})` : 'no token' };
      if (ctx.tokenProblem) return { ...base, valid: false, error: 'the saved token is not a valid header value' };
      try {
        const check = await checkToken(apiFor(ctx.baseUrl, ctx.token, { neverWait: true }), ctx);
        return { ...base, account: check.account, valid: check.valid, error: check.error ?? null };
      } catch (err) {
        return { ...base, valid: false, error: (err as Error).message.split('\n')[0]! };
      }
    }),
  );
}
