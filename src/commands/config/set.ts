import { Command } from '@commander-js/extra-typings';
import { DEFAULT_BASE_URL, originOf } from '../../config/store.js';
import type { Factory } from '../../factory.js';
import { profileFlag } from '../../io/shell-word.js';
import { notice, success } from '../../io/output.js';
import { type FlagsOf, examples } from '../shared.js';
import { configKey, configKeyArgument } from './shared.js';

/** `formctl config set <key> <value>`: the command and its flags, declared once. */
function configSetCommand() {
  const base = new Command('set')
    .description('Change one setting of the current profile')
    .addArgument(configKeyArgument())
    .argument('<value>', 'New value ("" clears workspace)');
  return examples(base, [
    'formctl config set base_url https://forms.example.com',
    'formctl --profile ci config set workspace 12',
    'formctl config set workspace ""',
  ]);
}

export type ConfigSetOptions = FlagsOf<typeof configSetCommand> &
  Pick<Factory, 'io' | 'config' | 'context'> & {
    /** The <key> argument. */
    key: string;
    /** The <value> argument. */
    value: string;
  };

/** `formctl config set <key> <value>`. */
export function newConfigSetCommand(f: Factory, runF = configSetRun) {
  return configSetCommand().action((key, value, flags) => runF({ ...flags, io: f.io, config: f.config, context: f.context, key, value }));
}

/** Validates and saves; creates the profile (without a token) when it does not exist yet. */
export async function configSetRun(o: ConfigSetOptions): Promise<void> {
  const k = configKey(o.key);
  const ctx = await o.context();
  const patch = k.parse(o.value, profileFlag(ctx));
  const store = await o.config();
  const before = store.profile(ctx.profileName);
  if (!before && patch.baseUrl === undefined) patch.baseUrl = DEFAULT_BASE_URL;
  // A default workspace is an id on the service it was chosen on: on another service the same id is
  // another workspace (forms created, members added there). Cleared, as `auth login` to another host does.
  const oldOrigin = originOf(before?.baseUrl || DEFAULT_BASE_URL);
  const dropped = patch.baseUrl !== undefined && before?.workspace !== undefined && originOf(patch.baseUrl) !== oldOrigin ? before.workspace : undefined;
  if (dropped !== undefined) patch.workspace = undefined;
  const saved = await store.saveProfile(ctx.profileName, patch);
  const now = k.read(saved);
  await success(o.io, now === undefined ? `Cleared ${k.key} of profile ${ctx.profileName}` : `Set ${k.key} of profile ${ctx.profileName} to ${now}`);
  if (dropped !== undefined) {
    await notice(
      o.io,
      `the default workspace (${dropped}) was one of ${oldOrigin ?? 'the old service'}'s, so it is cleared; choose one on the new service: formctl${profileFlag(ctx)} workspace use <id>.`,
    );
  }
}
