import { parseIdText } from '../io/ids.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { profileFlag, shellWord } from '../io/shell-word.js';
import { DEFAULT_BASE_URL, DEFAULT_PROFILE, type ConfigStore, type Profile, checkProfileName, originOf } from './store.js';

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'none';

/** Everything a command needs to talk to the service, and where each value came from. */
export interface ResolvedContext {
  profileName: string;
  profileSource: Source;
  profile?: Profile;
  baseUrl: string;
  baseUrlSource: Source;
  token?: string;
  tokenSource: Source;
  workspace?: number;
  workspaceSource: Source;
  /**
   * Set when the profile has a token but it was saved for another origin than the base URL in
   * effect (FORMCTL_BASE_URL, or a base URL changed with `config set`): that token is not used.
   */
  withheldToken?: { origin: string };
  /**
   * Set when the profile has a default workspace but FORMCTL_BASE_URL points at another origin: that
   * id names a workspace of the profile's service, so it is not used (docs/security.md).
   */
  withheldWorkspace?: { id: number; origin: string; here: string };
  /**
   * Set when the profile's saved token cannot be a header value (a hand-edited config.json with a
   * line break in it): every command that would send it throws this (exit 2) instead, while the
   * commands that repair the profile (`auth login`, `auth logout`, `config …`) still work.
   */
  tokenProblem?: UsageError;
  /**
   * Set when the profile in use has a field of the wrong type (a hand-edited config.json: a number
   * for the token, text for the workspace): the error naming the field, the profile and the file.
   * `profile` then holds only its sound fields. Every command that reads the profile to act throws it
   * (exit 2); the commands that repair it (`auth login`, `auth logout`, `config set`) still work.
   */
  profileProblem?: UsageError;
  /**
   * Set when --profile or FORMCTL_PROFILE names a profile that is not saved and FORMCTL_TOKEN does not
   * stand in for it: "No profile named …" with the saved ones (exit 2), so that a typo is not reported
   * as "Not logged in" or "Missing --workspace". Every command that uses the profile throws it; those
   * that create it (`auth login`, `config set`) do not.
   */
  missingProfile?: UsageError;
}

/**
 * Resolution: --profile > FORMCTL_PROFILE > current profile; FORMCTL_TOKEN / FORMCTL_BASE_URL override the profile.
 * `--profile ''` is a name given, and refused; an empty FORMCTL_PROFILE is unset, as an empty FORMCTL_TOKEN or FORMCTL_BASE_URL is.
 */
export function resolveContext(store: ConfigStore, env: NodeJS.ProcessEnv, flags: { profile?: string; workspace?: number }): ResolvedContext {
  const data = store.data;
  let profileName = DEFAULT_PROFILE;
  let profileSource: Source = 'default';
  if (flags.profile !== undefined) {
    checkProfileName(flags.profile, '--profile', store.isSaved);
    profileName = flags.profile;
    profileSource = 'flag';
  } else if (env.FORMCTL_PROFILE) {
    checkProfileName(env.FORMCTL_PROFILE, 'FORMCTL_PROFILE', store.isSaved);
    profileName = env.FORMCTL_PROFILE;
    profileSource = 'env';
  } else if (data.currentProfile) {
    profileName = data.currentProfile;
    profileSource = 'profile';
  }
  const profile = store.profile(profileName);
  const profileProblem = store.problem(profileName);

  const baseUrl = env.FORMCTL_BASE_URL || profile?.baseUrl || DEFAULT_BASE_URL;
  const baseUrlSource: Source = env.FORMCTL_BASE_URL ? 'env' : profile?.baseUrl ? 'profile' : 'default';
  // A saved token is sent only to the origin it was saved for (docs/security.md, "A token stays
  // with its host"): another base URL needs its own login or FORMCTL_TOKEN.
  let withheldToken: ResolvedContext['withheldToken'];
  let profileToken = profile?.token || undefined;
  if (profileToken !== undefined && !env.FORMCTL_TOKEN) {
    const saved = tokenOrigin(profile!);
    if (saved !== originOf(baseUrl)) {
      withheldToken = { origin: saved ?? '(unknown)' };
      profileToken = undefined;
    }
  }
  if (env.FORMCTL_TOKEN) checkToken(env.FORMCTL_TOKEN, 'FORMCTL_TOKEN');
  const token = env.FORMCTL_TOKEN || profileToken;
  const tokenSource: Source = env.FORMCTL_TOKEN ? 'env' : profileToken ? 'profile' : 'none';
  let tokenProblem: UsageError | undefined;
  if (tokenSource === 'profile') {
    try {
      checkToken(profileToken!, `The token saved in profile "${profileName}" (${store.path})`, savedTokenHint(profileName, profileSource));
    } catch (err) {
      tokenProblem = err as UsageError;
    }
  }

  const rawWs = env.FORMCTL_WORKSPACE?.trim();
  const envWs = rawWs
    ? parseIdText('FORMCTL_WORKSPACE', rawWs, `See \`formctl${profileFlag({ profileName, profileSource })} workspace list\`, or unset it.`)
    : undefined;
  let workspace: number | undefined;
  let workspaceSource: Source = 'none';
  let withheldWorkspace: ResolvedContext['withheldWorkspace'];
  if (flags.workspace !== undefined) {
    workspace = flags.workspace;
    workspaceSource = 'flag';
  } else if (envWs !== undefined && Number.isInteger(envWs)) {
    workspace = envWs;
    workspaceSource = 'env';
  } else if (profile?.workspace !== undefined) {
    // A workspace id belongs to the service it was chosen on, like the token.
    const own = originOf(profile.baseUrl || DEFAULT_BASE_URL);
    if (baseUrlSource === 'env' && own !== originOf(baseUrl)) {
      withheldWorkspace = { id: profile.workspace, origin: own ?? '(unknown)', here: originOf(baseUrl) ?? baseUrl };
    } else {
      workspace = profile.workspace;
      workspaceSource = 'profile';
    }
  }
  const ctx: ResolvedContext = { profileName, profileSource, profile, baseUrl, baseUrlSource, token, tokenSource, workspace, workspaceSource };
  if (withheldToken) ctx.withheldToken = withheldToken;
  if (withheldWorkspace) ctx.withheldWorkspace = withheldWorkspace;
  if (tokenProblem) ctx.tokenProblem = tokenProblem;
  if (profileProblem) ctx.profileProblem = profileProblem;
  if (!profile && tokenSource !== 'env' && (profileSource === 'flag' || profileSource === 'env')) {
    ctx.missingProfile = noSuchProfile(profileName, profileSource === 'flag' ? '--profile' : 'FORMCTL_PROFILE', Object.keys(data.profiles));
  }
  return ctx;
}

/** Normalises a base URL for storage (`auth login --base-url`, `config set base_url`): must be http(s), no trailing slash. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`Invalid base URL: ${raw}`, 'Use a full URL such as https://api.opnform.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    // The rule the client applies (src/api/client.ts): a token goes over plain http only to loopback.
    throw new UsageError(
      `Unsupported base URL scheme ${url.protocol} (use https://).`,
      'Use an https:// URL such as https://api.opnform.com, or http:// for a loopback address (a local sandbox, http://127.0.0.1:8787).',
    );
  }
  if (url.search || url.hash) {
    throw new UsageError(
      `The base URL must not have a query or fragment: ${raw}`,
      `Pass the service's URL alone, such as ${url.origin}${url.pathname.replace(/\/+$/, '')}`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * Refuses a base URL in effect that formctl cannot send a request to (not a URL, or not http(s)),
 * as a usage error (exit 2) naming where it came from. Checked before anything else a request needs
 * (the token, the profile), so `FORMCTL_BASE_URL=127.0.0.1:8080` is not reported as a missing login.
 */
export function checkBaseUrl(ctx: Pick<ResolvedContext, 'baseUrl' | 'baseUrlSource' | 'profileName'>): void {
  try {
    normalizeBaseUrl(ctx.baseUrl);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    const from =
      ctx.baseUrlSource === 'env'
        ? 'FORMCTL_BASE_URL'
        : ctx.baseUrlSource === 'profile'
          ? `the base_url saved in profile "${ctx.profileName}"`
          : 'the default base URL';
    const fix =
      ctx.baseUrlSource === 'env'
        ? 'Set FORMCTL_BASE_URL to a full http(s) URL such as https://api.opnform.com, or unset it.'
        : `Fix it: formctl --profile ${shellWord(ctx.profileName)} config set base_url https://api.opnform.com (or your service's URL)`;
    throw new UsageError(`${err.message.replace(/\.$/, '')} (from ${from}).`, fix);
  }
}

/**
 * The origin a profile's token belongs to: the one saved with it, else (profiles saved before
 * origins were recorded) the profile's own base URL, which is where `auth login` verified it.
 */
export function tokenOrigin(p: Profile): string | undefined {
  return p.tokenOrigin ?? originOf(p.baseUrl || DEFAULT_BASE_URL);
}

/**
 * Refuses a token that cannot go into an Authorization header: a line break or another control
 * character, or a character outside Latin-1 (HTTP header values are bytes). Said at once, exit 2,
 * without printing the token; otherwise the HTTP library would refuse it on every retry.
 */
export function checkToken(token: string, source: string, hint = 'Copy only the token itself (the value is not shown here).'): void {
  // eslint-disable-next-line no-control-regex
  const ctl = /[\x00-\x1f\x7f]/.exec(token);
  if (ctl) {
    const what = ctl[0] === '\r' || ctl[0] === '\n' ? 'a line break' : ctl[0] === '\t' ? 'a tab' : 'a control character';
    throw new UsageError(`${source} contains ${what}; a token is a single line of printable characters.`, hint);
  }
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\xff]/.test(token)) {
    throw new UsageError(`${source} contains a character outside Latin-1 (not a valid token).`, hint);
  }
}

/** "No profile named "x" (from --profile)." with the saved profiles and the login that would create it (exit 2). */
export function noSuchProfile(name: string, via: string, saved: string[]): UsageError {
  const create = `formctl --profile ${shellWord(name)} auth login`;
  return new UsageError(
    `No profile named "${name}" (from ${via}).`,
    saved.length ? `Saved profiles: ${saved.join(', ')}. To create this one: ${create}` : `No profile is saved yet. Create one: ${create}`,
  );
}

/** What to do about a saved token that cannot be sent: save a good one over it (the value is never shown). */
function savedTokenHint(profileName: string, profileSource: Source): string {
  return `Save the token again: formctl${profileFlag({ profileName, profileSource })} auth login (or fix the file by hand; the value is not shown here).`;
}

/** "abcd••••" — the first 4 characters of a token, never more. */
export function maskToken(token: string): string {
  return token.length <= 4 ? '••••' : `${token.slice(0, 4)}••••`;
}

/**
 * The exit-4 error for a context without a usable token. When the profile's token was withheld
 * because it belongs to another origin, it says so and names the login for the new one.
 */
export function notLoggedIn(ctx: ResolvedContext): CliError {
  if (ctx.withheldToken) {
    const here = originOf(ctx.baseUrl) ?? ctx.baseUrl;
    return new CliError(
      `The token of profile "${ctx.profileName}" was saved for ${ctx.withheldToken.origin}; formctl sends it to no other host (the base URL is ${here}${ctx.baseUrlSource === 'env' ? ', from FORMCTL_BASE_URL' : ''}).`,
      ExitCode.auth,
      `Log in to that host: formctl${profileFlag(ctx)} auth login --base-url ${ctx.baseUrl} (or set FORMCTL_TOKEN for it).`,
    );
  }
  return new CliError(
    `Not logged in (profile "${ctx.profileName}").`,
    ExitCode.auth,
    `Run \`formctl${profileFlag(ctx)} auth login\`, or set FORMCTL_TOKEN (and FORMCTL_BASE_URL) in CI.`,
  );
}
