import { Command } from '@commander-js/extra-typings';
import { type ResolvedContext, maskToken } from '../../config/resolve.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { type Column, type OutputFlags, resolveFormat, writeObject } from '../../io/output.js';
import { addOutputOptions, examples } from '../shared.js';

export const CONFIG_LIST_FIELDS = ['profile', 'base_url', 'workspace', 'token'] as const;

/** What `config list` shows: the profile's saved settings, the token masked. */
export interface ConfigView {
  profile: string;
  base_url: string | null;
  workspace: number | null;
  token: string | null;
}

export interface ConfigListOptions {
  io: IOStreams;
  context: () => Promise<ResolvedContext>;
  output: OutputFlags;
}

/** `formctl config list`. */
export function newConfigListCommand(f: Factory, runF = configListRun) {
  const cmd = new Command('list').alias('ls').description('Show the saved settings of the current profile (token masked)');
  addOutputOptions(cmd, { fields: CONFIG_LIST_FIELDS });
  examples(cmd, ['formctl config list', 'formctl --profile work config list --json | jq .base_url']);
  return cmd.action((flags: OutputFlags) => runF({ io: f.io, context: f.context, output: flags }));
}

/** Shows what is saved, not what environment variables override (that is `formctl auth status`). */
export async function configListRun(o: ConfigListOptions): Promise<void> {
  const format = resolveFormat(o.io, o.output, CONFIG_LIST_FIELDS);
  const ctx = await o.context();
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
