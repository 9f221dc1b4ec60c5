import { UsageError } from './errors.js';

/**
 * The one reading of an id typed by a person (an argument, a flag, an environment variable, a config
 * value): plain decimal digits for a whole number from 1 to 2^53 - 1. Anything else is not an id.
 *
 * Why so strict (docs/webhooks-and-members.md, "Ids"): `Number()` rounds digits past 2^53 to a neighbouring
 * integer, so `9007199254740993` would become the request for id 9007199254740992, another record;
 * and it reads `1e23`, `0x10` or ` 7.0 ` as numbers too. An id that cannot be represented exactly is
 * refused before any request, never rounded.
 */
export function idFromText(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/** True when the text is all digits: meant as a numeric id (which `idFromText` may still refuse), never a slug. */
export function looksNumeric(text: string): boolean {
  return /^\d+$/.test(text.trim());
}

/** The usage error for text that is not an id; `what` names it ("workspace id", "--workspace"). */
export function notAnId(what: string, text: string, hint?: string): UsageError {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return new UsageError(`${what} must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, got "${shown}".`, hint);
}

/** `idFromText` or exit 2 naming what was expected. */
export function requireId(what: string, text: string, hint?: string): number {
  const id = idFromText(text);
  if (id === undefined) throw notAnId(what, text, hint);
  return id;
}

/**
 * A `<form>` argument: digits are a form id (which must pass `idFromText`), anything else a slug.
 * Returns the trimmed text, so callers pass on a reference that is never rounded.
 */
export function checkFormRef(text: string): string {
  const t = text.trim();
  if (looksNumeric(t)) requireId('form id', t, 'Pass the form\'s id (see `formctl form list`) or its slug.');
  return t;
}
