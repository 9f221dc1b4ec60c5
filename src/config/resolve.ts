import { parseIdText } from '../io/ids.js';
import { DEFAULT_BASE_URL, DEFAULT_PROFILE, type ConfigStore, type Profile } from './store.js';

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
}

/** Resolution: --profile > FORMCTL_PROFILE > current profile; FORMCTL_TOKEN / FORMCTL_BASE_URL override the profile. */
export function resolveContext(
  store: ConfigStore,
  env: NodeJS.ProcessEnv,
  flags: { profile?: string; workspace?: number },
): ResolvedContext {
  const data = store.data;
  let profileName = DEFAULT_PROFILE;
  let profileSource: Source = 'default';
  if (flags.profile) {
    profileName = flags.profile;
    profileSource = 'flag';
  } else if (env.FORMCTL_PROFILE) {
    profileName = env.FORMCTL_PROFILE;
    profileSource = 'env';
  } else if (data.currentProfile) {
    profileName = data.currentProfile;
    profileSource = 'profile';
  }
  const profile = data.profiles[profileName];

  const baseUrl = env.FORMCTL_BASE_URL || profile?.baseUrl || DEFAULT_BASE_URL;
  const baseUrlSource: Source = env.FORMCTL_BASE_URL ? 'env' : profile?.baseUrl ? 'profile' : 'default';
  const token = env.FORMCTL_TOKEN || profile?.token || undefined;
  const tokenSource: Source = env.FORMCTL_TOKEN ? 'env' : profile?.token ? 'profile' : 'none';

  const rawWs = env.FORMCTL_WORKSPACE?.trim();
  const envWs = rawWs ? parseIdText('FORMCTL_WORKSPACE', rawWs, 'See `formctl workspace list`, or unset it.') : undefined;
  let workspace: number | undefined;
  let workspaceSource: Source = 'none';
  if (flags.workspace !== undefined) {
    workspace = flags.workspace;
    workspaceSource = 'flag';
  } else if (envWs !== undefined && Number.isInteger(envWs)) {
    workspace = envWs;
    workspaceSource = 'env';
  } else if (profile?.workspace !== undefined) {
    workspace = profile.workspace;
    workspaceSource = 'profile';
  }
  return { profileName, profileSource, profile, baseUrl, baseUrlSource, token, tokenSource, workspace, workspaceSource };
}

/** "abcd••••" — the first 4 characters of a token, never more. */
export function maskToken(token: string): string {
  return token.length <= 4 ? '••••' : `${token.slice(0, 4)}••••`;
}
