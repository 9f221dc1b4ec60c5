// What the config verbs share: the settings `config get` and `config set` can touch.
import { Argument } from '@commander-js/extra-typings';
import { completes } from '../../completion/kinds.js';
import { normalizeBaseUrl } from '../../config/resolve.js';
import type { Profile } from '../../config/store.js';
import { UsageError } from '../../errors.js';
import { parseIdText } from '../../io/ids.js';

/** A setting of the current profile that `config get/set` can touch; the token is deliberately not one. */
export interface ConfigKey {
  key: string;
  description: string;
  read(p: Profile | undefined): string | number | undefined;
  /** Parses the value into a profile patch; "" clears optional settings. `profileFlag`: what a hint's command needs to act on the same profile. */
  parse(value: string, profileFlag?: string): Partial<Profile>;
}

/** Every settable key. */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  {
    key: 'base_url',
    description: 'API base URL of this profile',
    read: (p) => p?.baseUrl,
    parse: (v) => ({ baseUrl: normalizeBaseUrl(v) }),
  },
  {
    key: 'workspace',
    description: 'Default workspace id ("" clears it)',
    read: (p) => p?.workspace,
    parse: (v, profileFlag = '') => {
      if (v.trim() === '') return { workspace: undefined };
      return { workspace: parseIdText('workspace', v, `See \`formctl${profileFlag} workspace list\`.`) };
    },
  },
];

/** The `<key>` argument of config get and set: its help names the keys, and completion offers them. */
export function configKeyArgument() {
  const keys = CONFIG_KEYS.map((k) => k.key);
  return completes(new Argument('<key>', `One of: ${keys.join(', ')}`), { words: keys });
}

/** Finds a key, or fails listing the valid ones. */
export function configKey(name: string): ConfigKey {
  const k = CONFIG_KEYS.find((c) => c.key === name || c.key === name.replace(/-/g, '_'));
  if (!k)
    throw new UsageError(`Unknown config key "${name}".`, `Keys: ${CONFIG_KEYS.map((c) => c.key).join(', ')} (the token is managed by \`formctl auth\`).`);
  return k;
}
