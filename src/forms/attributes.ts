import { UsageError } from '../errors.js';
import { OPTIONAL_ATTRIBUTES, UPDATE_REQUIRED } from '../service/forms.js';
import { CREATE_DEFAULTS, IDENTITY_KEYS } from './document.js';
import { SECRET_KEYS } from './secrets.js';

// Top-level attributes a form update may name (docs/forms.md, "Unknown attributes"): what the
// service returned for this form, the service's writable attributes (src/service/forms.ts, the
// retention pair), the identity keys and the write-only secrets. Anything else the service would drop (and formctl would only notice after
// the PUT and a backup), so it is refused before sending unless --force.

/** The attributes a change to `current` may set at the top level. */
export function knownAttributes(current: Record<string, unknown>): Set<string> {
  return new Set([
    ...Object.keys(current),
    ...Object.keys(CREATE_DEFAULTS),
    ...UPDATE_REQUIRED,
    ...OPTIONAL_ATTRIBUTES,
    'submission_retention_value',
    'submission_retention_unit',
    ...IDENTITY_KEYS,
    ...SECRET_KEYS,
  ]);
}

/** Throws a usage error (exit 2) naming each top-level key of `keys` the form does not have, with the closest known ones. */
export async function assertKnownAttributes(current: Record<string, unknown>, keys: Iterable<string>, formLabel: string): Promise<void> {
  const known = knownAttributes(current);
  const unknown = [...new Set(keys)].filter((k) => !known.has(k));
  if (unknown.length === 0) return;
  const { get: distance } = (await import('fast-levenshtein')).default;
  const lines = unknown.map((k) => {
    const close = [...known]
      .map((c) => ({ c, d: distance(k.toLowerCase(), c.toLowerCase()) }))
      .filter(({ c, d }) => d <= Math.max(2, Math.floor(k.length / 3)) || c.includes(k) || k.includes(c))
      .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
      .slice(0, 3)
      .map(({ c }) => `"${c}"`);
    return `  "${k}"${close.length > 0 ? `: did you mean ${close.join(', ')}?` : ''}`;
  });
  throw new UsageError(
    `Form ${formLabel} has no attribute${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => `"${k}"`).join(', ')}; the service would drop ${unknown.length === 1 ? 'it' : 'them'}. Nothing was sent.\n${lines.join('\n')}`,
    `\`formctl form get\` lists the attributes; pass --force to send ${unknown.length === 1 ? 'it' : 'them'} anyway.`,
  );
}
