import type { IOStreams } from '../io/iostreams.js';
import { escapeControls, notice } from '../io/output.js';
import { isObject } from './document.js';

type Obj = Record<string, unknown>;

/** A field kept by a change that loses some of its attributes. */
export interface DroppedAttributes {
  id: string;
  name: string;
  keys: string[];
}

/**
 * The attributes of existing fields that a change would drop: a field object is stored as sent on
 * both services (the deployed server stores `properties` as one JSON value: docs/forms.md,
 * "Attributes a field leaves out"), so a field of the change's `properties` that keeps an existing
 * field's id but leaves out one of its attributes (`required`, `rating_max_value`, `logic`…) erases
 * that attribute. An attribute holding an empty value (`null`, `false`, `""`, `[]`, `{}`: what
 * `form create --field` stores for `required`, `hidden`, `help`) is no loss, leaving it out means the
 * same, so it is not named. Only fields of both versions are compared: fields the change removes are
 * reported as removed, new ones have nothing to lose.
 */
export function droppedFieldAttributes(current: Obj, next: Obj): DroppedAttributes[] {
  if (!Array.isArray(current.properties) || !Array.isArray(next.properties)) return [];
  const before = new Map<string, Obj>();
  for (const p of current.properties) if (isObject(p) && typeof p.id === 'string') before.set(p.id, p);
  const out: DroppedAttributes[] = [];
  for (const p of next.properties) {
    if (!isObject(p) || typeof p.id !== 'string') continue;
    const old = before.get(p.id);
    if (!old) continue;
    const keys = Object.keys(old).filter((k) => !(k in p) && !isEmptyValue(old[k]));
    if (keys.length > 0) out.push({ id: p.id, name: typeof old.name === 'string' ? old.name : p.id, keys });
  }
  return out;
}

/** A value whose loss changes nothing: null, false, "", [] or {}. */
function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

/**
 * The warning naming, per field, the attributes a change drops, and what to do about it. `when`:
 * 'dry-run' (the change is only described) or 'ask' (a question, or a refusal without --yes, comes
 * next): the file can still be fixed; 'yes' (--yes: the change goes out next): it cannot, and the
 * backup saved before every update (docs/forms.md, "Backups") is what brings them back. `formctl`:
 * how the command starts in a hint (with `--profile` when one was given). Names, ids and keys come
 * from the service: their control characters, tab and newline included, are escaped so a name
 * holding a line break cannot pass for a line of its own (`error: …`).
 */
export async function warnDroppedAttributes(
  io: IOStreams,
  formId: number,
  dropped: readonly DroppedAttributes[],
  when: 'dry-run' | 'ask' | 'yes',
  formctl = 'formctl',
): Promise<void> {
  if (dropped.length === 0) return;
  const e = (s: string) => escapeControls(s, { all: true });
  const lines = dropped.map((d) => `  field "${e(d.name)}" (${e(d.id)}): ${d.keys.map(e).join(', ')}`);
  const what = dropped.length === 1 ? 'a field' : `${dropped.length} fields`;
  await notice(
    io,
    [
      `the "properties" list ${when === 'dry-run' ? 'would drop' : 'drops'} what it leaves out of ${what} of form ${formId} (a field is stored as sent):`,
      ...lines,
      when === 'yes'
        ? `With --yes they are dropped; the form's previous version is saved as a backup first (\`${formctl} form restore ${formId}\` puts it back).`
        : `To keep them, copy them into the file (\`${formctl} form get ${formId} --json properties\` shows them).`,
    ].join('\n'),
    'warning',
  );
}
