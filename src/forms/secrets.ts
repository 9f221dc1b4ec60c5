// Form attributes that are secrets (docs/forms.md, "Secrets"). This list is the one place that names
// them: pulled documents leave them out, and every diff or dry run shows them masked. Add a key
// here when the service gains another secret attribute.

type Obj = Record<string, unknown>;

/** Top-level form attributes whose values never appear in a pulled document (by default) or a diff. */
export const SECRET_KEYS: readonly string[] = ['password'];

/** What a secret value looks like in a diff or a dry run. */
export const MASK = '********';

/** True when a secret attribute holds something (null and '' mean "no password"). */
function holdsSecret(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

/** The document without its secret attributes, and the names of those that held a value. */
export function withoutSecrets(doc: Obj): { doc: Obj; left: string[] } {
  const out: Obj = { ...doc };
  const left: string[] = [];
  for (const k of SECRET_KEYS) {
    if (!(k in out)) continue;
    if (holdsSecret(out[k])) left.push(k);
    delete out[k];
  }
  return { doc: out, left };
}

/** The document with each secret value replaced by the mask (an empty value stays as it is). */
export function maskedCopy(doc: Obj): Obj {
  const out: Obj = { ...doc };
  for (const k of SECRET_KEYS) if (holdsSecret(out[k])) out[k] = MASK;
  return out;
}

/**
 * Both sides of a diff with secrets masked: an unchanged secret shows as the mask on both sides (so
 * no diff line), a changed one as `******** (changed)` on the new side. Clearing a secret shows as
 * such (null is not a secret).
 */
export function maskedPair(before: Obj, after: Obj): [Obj, Obj] {
  const a = maskedCopy(before);
  const b = maskedCopy(after);
  for (const k of SECRET_KEYS) {
    if (holdsSecret(after[k]) && after[k] !== before[k]) b[k] = `${MASK} (changed)`;
  }
  return [a, b];
}

/**
 * An edited copy of a document shown with maskedCopy, with each secret still holding the mask left
 * out: merged over the current form (src/forms/merge.ts), an absent key keeps its value, so the
 * secret is kept without having been shown. A secret the user changed (another value, or null to
 * clear it) stays in. `current`: the form the masked copy was made from (a secret it did not hold
 * was not masked, so a mask typed there is a value like any other).
 */
export function unmaskedEdit(edited: Obj, current: Obj): Obj {
  const out: Obj = { ...edited };
  for (const k of SECRET_KEYS) if (holdsSecret(current[k]) && out[k] === MASK) delete out[k];
  return out;
}
