// The `--field` mini-language of `form create`: "Name", "Email:email", "Plan:select=Free,Pro".
// It builds one form property (field) from a short text, with the service's block types and rules.
import { UsageError } from '../errors.js';
import { splitList } from '../io/output.js';
import { PROPERTY_TYPES } from './properties.js';

/** Block types whose options the deployed service requires, at least one (docs/forms.md, "Fields from the command line"). */
export const WITH_OPTIONS: readonly string[] = ['select', 'multi_select'];

/**
 * Parses `--field "Name:type"`: the type follows the last colon (a name may hold colons, "Time: start:text"),
 * and must be one of the service's block types, since the service stores any string and the form would
 * then show a field nobody can fill in. A select lists its options after "=": `"Plan:select=Free,Pro"`
 * (the options may hold colons; the deployed service refuses a select without options).
 */
export function parseField(spec: string, newId: () => string): Record<string, unknown> {
  const withOptions = /^(.*):\s*(select|multi_select)\s*=(.*)$/is.exec(spec);
  const i = spec.lastIndexOf(':');
  const name = (withOptions ? withOptions[1]! : i >= 0 ? spec.slice(0, i) : spec).trim();
  const type = (withOptions ? withOptions[2]! : i >= 0 ? spec.slice(i + 1) : 'text').trim().toLowerCase();
  if (!name) throw new UsageError(`Invalid --field "${spec}": the field needs a name.`, 'Use --field "Name" or --field "Email:email".');
  if (!(PROPERTY_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(
      type ? `Invalid --field "${spec}": unknown field type "${type}".` : `Invalid --field "${spec}": the type after ":" is empty.`,
      `Types: ${PROPERTY_TYPES.join(', ')}. Leave out ":type" for a text field.`,
    );
  }
  const field = newField(name, type, newId);
  if (!WITH_OPTIONS.includes(type)) return field;
  const options = withOptions ? splitOptions(withOptions[3]!) : [];
  if (options.length === 0) {
    throw new UsageError(`Invalid --field "${spec}": a ${type} field needs its options.`, `List them after "=", e.g. --field "${name}:${type}=Free,Pro,Team".`);
  }
  return withSelectOptions(field, options);
}

/** A field formctl adds to a form (from --field, the prompt, or the default "Name"): optional, with a fresh id. */
export function newField(name: string, type: string, newId: () => string): Record<string, unknown> {
  return { id: newId(), type, name: name.trim(), required: false };
}

/** Comma-separated option names, trimmed, empty ones and repeats left out. */
export function splitOptions(list: string): string[] {
  return [...new Set(splitList(list))];
}

/** The service keys options by name when they have no id of their own (docs/forms.md); the answer stores the name. */
export function withSelectOptions(field: Record<string, unknown>, options: string[]): Record<string, unknown> {
  return { ...field, [field.type as string]: { options: options.map((o) => ({ id: o, name: o })) } };
}
