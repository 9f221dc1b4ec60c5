import { Command } from '@commander-js/extra-typings';
import { resolveContext } from '../../config/resolve.js';
import { DEFAULT_BASE_URL } from '../../config/store.js';
import type { Factory } from '../../factory.js';
import { type Column, notice, resolveFormat, writeList } from '../../io/output.js';
import { type FlagsOf, addOutputOptions, examples, profileOverride } from '../shared.js';

export const PROFILE_FIELDS = ['name', 'base_url', 'workspace', 'current', 'logged_in'] as const;

/** One row of `profile list`; never carries the token itself. */
export interface ProfileRow {
  name: string;
  base_url: string;
  workspace: number | null;
  current: boolean;
  /** The profile has a token formctl would send: saved for its base URL's origin, and a valid value. */
  logged_in: boolean;
}

/** The Token column: whether the profile has a token, and when one is saved but cannot be used, why. */
type TokenState = 'saved' | 'none' | 'for another host' | 'unusable';

/** `formctl profile list`: the command and its flags, declared once. */
function profileListCommand() {
  const base = new Command('list').alias('ls').description('List saved profiles; * marks the one commands use now');
  return examples(addOutputOptions(base, { list: true, fields: PROFILE_FIELDS }), [
    'formctl profile list',
    "formctl profile list --json name,logged_in | jq -r '.[] | select(.logged_in) | .name'",
  ]);
}

export type ProfileListOptions = FlagsOf<typeof profileListCommand> & Pick<Factory, 'io' | 'config' | 'context' | 'env'>;

/** `formctl profile list`. */
export function newProfileListCommand(f: Factory, runF = profileListRun) {
  return profileListCommand().action((flags) => runF({ ...flags, io: f.io, config: f.config, context: f.context, env: f.env }));
}

/** Lists profiles sorted by name; "current" is the profile after --profile / FORMCTL_PROFILE resolution. */
export async function profileListRun(o: ProfileListOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const [store, ctx] = [await o.config(), await o.context()];
  const tokens = new Map<string, TokenState>();
  const rows: ProfileRow[] = Object.entries(store.data.profiles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => {
      // Each profile as `--profile NAME` resolves it, without the FORMCTL_* overrides (they are this
      // run's, not the profile's): a token saved for another origin than the profile's base URL now
      // (`config set base_url`) is sent nowhere, so the profile is not logged in (as auth status says).
      const own = resolvedOrUndefined(() => resolveContext(store, {}, { profile: name }));
      const state: TokenState =
        own?.tokenSource === 'profile' && !own.tokenProblem && !own.profileProblem
          ? 'saved'
          : own?.withheldToken
            ? 'for another host'
            : store.holds(name, 'token')
              ? 'unusable'
              : 'none';
      tokens.set(name, state);
      return {
        name,
        base_url: p.baseUrl || DEFAULT_BASE_URL,
        workspace: p.workspace ?? null,
        current: name === ctx.profileName,
        logged_in: state === 'saved',
      };
    });
  const columns: Column<ProfileRow>[] = [
    { header: 'Name', value: (r) => r.name, style: 'cyan' },
    { header: 'Base URL', value: (r) => r.base_url },
    { header: 'Workspace', value: (r) => r.workspace },
    { header: 'Token', value: (r) => tokens.get(r.name) ?? 'none' },
    { header: 'Current', value: (r) => (r.current ? '*' : '') },
  ];
  await writeList(o.io, format, rows, columns, { empty: 'No profiles. Create one with `formctl auth login`.' });
  const override = ctx.profileSource === 'env' ? profileOverride(o.env, store.data.currentProfile) : undefined;
  if (override && rows.length > 0) {
    const marked = rows.some((r) => r.current);
    await notice(o.io, `${override}: ${marked ? 'the one marked current is the profile it names' : 'it names no saved profile, so none is current'}.`);
  }
}

/** A saved profile resolved, or undefined when its name (hand-edited: "", "-x") is one no command could select. */
function resolvedOrUndefined<T>(resolve: () => T): T | undefined {
  try {
    return resolve();
  } catch {
    return undefined;
  }
}
