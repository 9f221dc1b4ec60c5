import type { Form, FormProperty } from '../api/forms.js';
import { findProperty } from '../forms/properties.js';
import { isLayoutBlock } from '../service/forms.js';
import { UsageError } from '../errors.js';

/** Fields that hold answers (layout blocks are neither answered nor exported). */
export function inputProperties(form: Form): FormProperty[] {
  return (Array.isArray(form.properties) ? form.properties : []).filter((p) => !isLayoutBlock(p));
}

const NUMERIC_TYPES = ['number', 'rating', 'scale', 'slider'];

/**
 * Turns a `--set` string into the JSON value the field type expects: numbers for numeric fields,
 * true/false for checkboxes (anything else there is a UsageError naming the field), one of its
 * options for a select, a list of them for a multi-select; other fields keep the text, and `--file`
 * is the way to send arrays, objects or null.
 */
export function coerceValue(p: FormProperty, raw: string, key: string = p.id): unknown {
  const type = String(p.type ?? '');
  if (NUMERIC_TYPES.includes(type)) return decimalNumber(p, key, raw);
  if (type === 'checkbox') {
    if (/^(true|false)$/i.test(raw.trim())) return raw.trim().toLowerCase() === 'true';
    throw typeError(p, key, raw);
  }
  if (type === 'multi_select') return checkOption(p, key, multiSelectList(raw));
  if (type === 'select') return checkOption(p, key, raw);
  return raw;
}

/**
 * A multi-select's answer is a list (the service validates it as an array, OpnForm
 * api/app/Http/Requests/AnswerFormRequest.php:113-124): a JSON list of strings (`["A","B"]`, null
 * items allowed and then left out by checkOption) is taken as it is, blank text (empty or spaces) is
 * no option chosen (`[]`), any other text is the one option chosen. Blank text was `[""]`: a list
 * holding an empty option, which the deployed server refuses where the user meant no answer (its
 * middleware turns the item into null, Kernel.php:45-46, and a null item is a 422,
 * AnswerFormRequest.php:124).
 */
function multiSelectList(raw: string): unknown[] {
  if (raw.trim() === '') return [];
  if (raw.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      // null items choose nothing: left out below (choosesOption), as blank ones are.
      if (Array.isArray(parsed) && parsed.every((v) => typeof v === 'string' || v === null)) return parsed;
    } catch {
      // not JSON: the text itself
    }
  }
  return [raw];
}

/**
 * Whether an item of a multi-select list chooses an option: null and blank text do not. The deployed
 * service turns blank text into null, inside lists too, and then refuses a null item with 422 (OpnForm
 * api/app/Http/Kernel.php:45-46, api/app/Http/Requests/AnswerFormRequest.php:124 and 219-231;
 * docs/service.md, Submissions), so such items are left out of a list, as blank text is the empty list.
 */
export function choosesOption(item: unknown): boolean {
  return item !== null && item !== undefined && !(typeof item === 'string' && item.trim() === '');
}

/** The option names of a select or multi-select field (the answer stores the name); undefined when it lists none. */
function optionNames(p: FormProperty): string[] | undefined {
  const block = (p as Record<string, unknown>)[String(p.type)];
  const options = block !== null && typeof block === 'object' ? (block as { options?: unknown }).options : undefined;
  if (!Array.isArray(options)) return undefined;
  const names = (options as unknown[])
    .map((o): unknown => (o !== null && typeof o === 'object' ? (o as { name?: unknown }).name : o))
    .filter((n): n is string => typeof n === 'string');
  return names.length > 0 ? names : undefined;
}

/** The option ids of a select or multi-select field (the service takes an option's id as well as its name). */
function optionIds(p: FormProperty): string[] {
  const block = (p as Record<string, unknown>)[String(p.type)];
  const options = block !== null && typeof block === 'object' ? (block as { options?: unknown }).options : undefined;
  if (!Array.isArray(options)) return [];
  return (options as unknown[])
    .map((o): unknown => (o !== null && typeof o === 'object' ? (o as { id?: unknown }).id : undefined))
    .filter((n): n is string => typeof n === 'string');
}

/**
 * A select's answer, or each of a multi-select's, must be one of the field's options: matched in any
 * case and sent as the option is written; anything else is a UsageError listing them (exit 2). A
 * multi-select's blank items are left out first (choosesOption), and a blank select is no option
 * chosen: null, which clears the answer (the deployed server's middleware makes the same of an empty
 * string, api/app/Http/Kernel.php:45-46). As the service does (OpnForm
 * api/app/Http/Requests/AnswerFormRequest.php:73-86 and 219-232), an option's exact id passes too,
 * and a field that lets people add options (`allow_creation`) takes any value.
 */
function checkOption(p: FormProperty, key: string, sent: unknown): unknown {
  if (p.type === 'select' && typeof sent === 'string' && sent.trim() === '') return null;
  const value = p.type === 'multi_select' && Array.isArray(sent) ? sent.filter(choosesOption) : sent;
  const names = optionNames(p);
  if (!names || (p as Record<string, unknown>).allow_creation === true) return value;
  const ids = optionIds(p);
  /** The option a text names in any case, spaces around it aside. */
  const named = (text: string): string | undefined => names.find((n) => n.toLowerCase() === text.trim().toLowerCase());
  const one = (v: unknown): unknown => {
    if (typeof v === 'string' && ids.includes(v) && !names.includes(v)) return v;
    const found = typeof v === 'string' ? (names.find((n) => n === v) ?? named(v)) : undefined;
    if (found !== undefined) return found;
    const name = key === p.id ? `"${key}"` : `"${key}" (${p.id})`;
    // A value that holds double quotes is shown in single ones, so that its quotes read as its own.
    const got = typeof v !== 'string' ? JSON.stringify(v) : v.includes('"') ? `'${v}'` : `"${v}"`;
    const hint = [`Options: ${names.join(', ')}.`];
    const unquoted = typeof v === 'string' ? /^\s*"(.*)"\s*$/s.exec(v)?.[1] : undefined;
    if (unquoted !== undefined && named(unquoted) !== undefined) {
      hint.push(`The quotes are part of the value as given: write ${unquoted.trim()} without them.`);
    } else if (typeof v === 'string' && v.trim().toLowerCase() === 'null') {
      hint.push(p.type === 'multi_select' ? 'An empty value chooses no option.' : 'An empty value clears the answer.');
    } else if (p.type === 'multi_select' && typeof v === 'string' && v.includes(',')) {
      const parts = v.split(',').map((x) => x.trim());
      if (parts.every((x) => named(x) !== undefined)) hint.push(`To choose several, give them as a JSON list: ${JSON.stringify(parts)}.`);
    }
    throw new UsageError(`Field ${name} is a ${String(p.type)} field and ${got} is not one of its options.`, hint.join(' '));
  };
  if (p.type === 'multi_select' && Array.isArray(value)) return value.map(one);
  return one(value);
}

/**
 * Checks a JSON value (`--file`, bulk lines) against a numeric or checkbox field: a number (or a
 * numeric string) and a boolean (or "true"/"false") pass unchanged, null clears; anything else is a
 * UsageError, so a typo is caught here rather than stored as text in a numeric field. A select's value
 * must be one of its options; a multi-select's string becomes a list as `--set` makes it (multiSelectList).
 */
export function checkValue(p: FormProperty, value: unknown, key: string = p.id): unknown {
  if (value === null) return value;
  const type = String(p.type ?? '');
  if (NUMERIC_TYPES.includes(type)) {
    if (typeof value === 'string') decimalNumber(p, key, value);
    else if (typeof value !== 'number' || !Number.isFinite(value)) throw typeError(p, key, value);
  } else if (type === 'checkbox') {
    const ok = typeof value === 'boolean' || (typeof value === 'string' && /^(true|false)$/i.test(value.trim()));
    if (!ok) throw typeError(p, key, value);
  } else if (type === 'multi_select') {
    // A bare string is read as `--set` reads it (one option, or a JSON list): the service takes only a list.
    return checkOption(p, key, typeof value === 'string' ? multiSelectList(value) : value);
  } else if (type === 'select') {
    return checkOption(p, key, value);
  }
  return value;
}

/**
 * A numeric field's text as the number it says, written in decimal (`12`, `-3.5`, `1e3`): JavaScript
 * would also read `0x10` as 16, `0b11` as 3 and `Infinity`, and would round an integer beyond 2^53
 * (12345678901234567890 becomes 12345678901234567000); either would store another number than the
 * one typed, so both are refused.
 */
function decimalNumber(p: FormProperty, key: string, raw: string): number {
  const text = raw.trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) || !Number.isFinite(Number(text))) throw typeError(p, key, raw);
  const n = Number(text);
  if (/^[-+]?\d+$/.test(text) && !Number.isSafeInteger(n)) {
    throw new UsageError(
      `Field "${key}" takes a number, and ${text} is beyond what is stored exactly (±${Number.MAX_SAFE_INTEGER}): it would become ${n}.`,
      'Give a smaller number; a long code or id belongs in a text field.',
    );
  }
  return n;
}

function typeError(p: FormProperty, key: string, value: unknown): UsageError {
  const type = String(p.type ?? '');
  const wanted = type === 'checkbox' ? 'true or false' : 'a number';
  const name = key === p.id ? `"${key}"` : `"${key}" (${p.id})`;
  const got = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
  return new UsageError(`Field ${name} is a ${type} field and takes ${wanted}, got ${got}.`);
}

/** Maps user keys (field names or ids) to property ids and checks typed fields; UsageError on an unknown or ambiguous key or a wrong value. */
export function resolveData(form: Form, entries: Iterable<[string, unknown]>, o: { coerce?: boolean } = {}): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    const p = findProperty(form, key);
    if (p.id in data) throw new UsageError(`Field "${key}" is set twice (it is ${p.id}).`);
    data[p.id] = o.coerce && typeof value === 'string' ? coerceValue(p, value, key) : checkValue(p, value, key);
  }
  return data;
}

/** Whether an answer is empty as the deployed service reads it (its middleware turns blank text into null, `api/app/Http/Kernel.php:45-46`). */
function blankAnswer(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
}

/**
 * Refuses, before the request, a patch that empties a required field: the service answers it with
 * 422 ("The Name field is required."). Only where the form's definition alone decides it: a field
 * marked `required`, not `hidden`, and without logic, which can make a field required or hidden
 * depending on other answers (OpnForm `api/app/Http/Requests/AnswerFormRequest.php:89-96`, which
 * also reads "required" on a checkbox as "must be true").
 */
export function assertRequiredKept(form: Form, patch: Record<string, unknown>): void {
  for (const p of inputProperties(form)) {
    if (!(p.id in patch) || p.required !== true || p.hidden === true) continue;
    const logic = (p as Record<string, unknown>).logic;
    if (logic !== undefined && logic !== null && !(typeof logic === 'object' && Object.keys(logic).length === 0)) continue;
    const v = patch[p.id];
    const checkbox = String(p.type ?? '') === 'checkbox';
    if (!(blankAnswer(v) || (checkbox && v === false))) continue;
    const name = p.name && p.name !== p.id ? `"${p.name}" (${p.id})` : `"${p.id}"`;
    throw new UsageError(
      `Field ${name} is required${checkbox ? ' (it must be checked)' : ''}: the service refuses to ${checkbox ? 'uncheck' : 'empty'} it (422); nothing was sent.`,
      checkbox
        ? 'Leave the field out of the update, or make it optional first with `formctl form update`.'
        : 'Give it a value, or make it optional first with `formctl form update`.',
    );
  }
}
