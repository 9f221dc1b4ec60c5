import { Command } from '@commander-js/extra-typings';
import { maskToken } from '../../config/resolve.js';
import type { Factory } from '../../factory.js';
import { type Column, resolveFormat, writeObject } from '../../io/output.js';
import { type FlagsOf, addOutputOptions, examples } from '../shared.js';

export const CONFIG_LIST_FIELDS = ['profile', 'base_url', 'workspace', 'token'] as const;

/** What `config list` shows: the profile's saved settings, the token masked. */
export interface ConfigView {
  profile: string;
  base_url: string | null;
  workspace: number | null;
  token: string | null;
}

/** `formctl config list`: the command and its flags, declared once. */
function configListCommand() {
  const base = new Command('list').alias('ls').description('Show the saved settings of the current profile (token masked)');
  return examples(addOutputOptions(base, { fields: CONFIG_LIST_FIELDS }), ['formctl config list', 'formctl --profile work config list --json | jq .base_url']);
}

export type ConfigListOptions = FlagsOf<typeof configListCommand> & Pick<Factory, 'io' | 'context'>;

/** `formctl config list`. */
export function newConfigListCommand(f: Factory, runF = configListRun) {
  return configListCommand().action((flags) => runF({ ...flags, io: f.io, context: f.context }));
}

/** Shows what is saved, not what environment variables override (that is `formctl auth status`). */
export async function configListRun(o: ConfigListOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const ctx = await o.context();
  if (ctx.profileProblem) throw ctx.profileProblem;
  // --profile or FORMCTL_PROFILE naming no saved profile is a typo (config set creates one).
  if (ctx.missingProfile) throw ctx.missingProfile;
  const p = ctx.profile;
  const view: ConfigView = {
    profile: ctx.profileName,
    base_url: p?.baseUrl ?? null,
    workspace: p?.workspace ?? null,
    token: p?.token ? maskToken(p.token) : null,
  };
  const columns: Column<ConfigView>[] = [
    { header: 'profile', value: (v) => `${v.profile}${p ? '' : ' (not saved)'}` },
    { header: 'base_url', value: (v) => v.base_url },
    { header: 'workspace', value: (v) => v.workspace },
    { header: 'token', value: (v) => v.token },
  ];
  await writeObject(o.io, format, view, columns);
}
