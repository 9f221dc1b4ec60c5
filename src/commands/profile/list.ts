import { Command } from '@commander-js/extra-typings';
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
  logged_in: boolean;
}

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
  const rows: ProfileRow[] = Object.entries(store.data.profiles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => ({
      name,
      base_url: p.baseUrl,
      workspace: p.workspace ?? null,
      current: name === ctx.profileName,
      logged_in: typeof p.token === 'string' && p.token.length > 0,
    }));
  const columns: Column<ProfileRow>[] = [
    { header: 'Name', value: (r) => r.name, style: 'cyan' },
    { header: 'Base URL', value: (r) => r.base_url },
    { header: 'Workspace', value: (r) => r.workspace },
    { header: 'Token', value: (r) => (r.logged_in ? 'saved' : 'none') },
    { header: 'Current', value: (r) => (r.current ? '*' : '') },
  ];
  await writeList(o.io, format, rows, columns, { empty: 'No profiles. Create one with `formctl auth login`.' });
  const override = ctx.profileSource === 'env' ? profileOverride(o.env, store.data.currentProfile) : undefined;
  if (override && rows.length > 0) {
    const marked = rows.some((r) => r.current);
    await notice(o.io, `${override}: ${marked ? 'the one marked current is the profile it names' : 'it names no saved profile, so none is current'}.`);
  }
}
