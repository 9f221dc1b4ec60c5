// The one place where id arguments are checked, before any request. JavaScript numbers hold whole
// numbers exactly only up to 2^53 - 1: a larger id would be rounded to another record's id
// (9007199254740993 becomes ...992), so it is refused, as are `1e23`, `0x10`, `-3` and `4.0`.
import { UsageError } from '../errors.js';

/** The largest id formctl can send unchanged. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/** The id in `text` when it is a positive whole number up to MAX_ID written in decimal digits, else undefined. */
export function safeId(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return n >= 1 && n <= MAX_ID ? n : undefined;
}

/** True when the text is all digits: meant as a numeric id (which `safeId` may still refuse), never a slug. */
export function looksNumeric(text: string): boolean {
  return /^\d+$/.test(text.trim());
}

/** Why `text` is not an id, in the house words, or undefined when it is one. */
function idProblem(name: string, text: string): string | undefined {
  const t = text.trim();
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  // One wording for every bad id; a number past MAX_ID would be rounded to another record's id.
  if (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > MAX_ID) return `${name} must be a whole number from 1 to ${MAX_ID}, got "${shown}".`;
  return undefined;
}

/** Checks a numeric id given by the user (argument, flag, file): the number, or a UsageError (exit 2). */
export function parseIdText(name: string, text: string, hint?: string): number {
  const problem = idProblem(name, text);
  if (problem) throw new UsageError(problem, hint);
  return Number(text.trim());
}

/** An id read from JSON (a document's `id`): a number or a digit string, checked like an argument. */
export function parseIdValue(name: string, value: unknown): number {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= 1) return value;
    // JSON has already rounded a number past 2^53, so the value read is not the one written: not echoed.
    const got = Math.abs(value) > MAX_ID ? 'a larger number' : `got ${JSON.stringify(value)}`;
    throw new UsageError(`${name} must be a whole number from 1 to ${MAX_ID}, ${got}.`);
  }
  if (typeof value === 'string') return parseIdText(name, value);
  throw new UsageError(`${name} must be a numeric id, got ${JSON.stringify(value) ?? String(value)}.`);
}

/**
 * Text the deployed service would read as a number (PHP's is_numeric: signs, decimals, exponents,
 * surrounding blanks). It treats such a form reference as an id, never as a slug.
 */
const NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** A slug as the service makes them: letters, digits, `-` and `_`, starting with a letter or digit. */
const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,254}$/;

/** True for a slug the service could tell from an id: slug characters, and not a number. */
export function isSlug(text: string): boolean {
  return SLUG.test(text) && !NUMERIC.test(text);
}

/**
 * Checks a `<form>` argument: a positive id up to MAX_ID (returned in canonical digits), or a slug.
 * Anything numeric that is not such an id (`1e23`, `-4`, `4.5`, 2^53 and up) is refused: the service
 * would read it as a number, not as a slug.
 */
export function parseFormRef(text: string, name = '<form>'): string {
  const t = text.trim();
  if (NUMERIC.test(t)) {
    const id = safeId(t);
    if (id === undefined) throw new UsageError(`${name} "${text}" is not a form id or slug: form ids are whole numbers from 1 to ${MAX_ID}.`);
    return String(id);
  }
  if (!SLUG.test(t)) {
    throw new UsageError(`${name} must be a form id or slug, got "${text}".`, 'Slugs hold letters, digits, "-" and "_"; see `formctl form list`.');
  }
  return t;
}
