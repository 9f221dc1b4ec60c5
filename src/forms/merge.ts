import { UsageError } from '../errors.js';
import { inexactNumber, inexactReason } from '../io/files.js';
import { isObject } from './document.js';

type Obj = Record<string, unknown>;

const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * A `--set` value: JSON when it parses (numbers, booleans, null, objects, arrays), else the raw
 * string. A number JSON would change (`--set settings.code=12345678901234567890`) is refused (exit 2)
 * rather than sent rounded, as a number in a `--file` is (docs/forms.md, "Numbers in JSON files").
 */
export function parseSetValue(raw: string, key = 'KEY'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return raw;
  }
  const inexact = inexactNumber(raw);
  if (inexact) {
    throw new UsageError(
      `--set ${key}=${raw.length > 60 ? `${raw.slice(0, 48)}…` : raw}: ${inexactReason(inexact.literal)}.`,
      inexact.literal === raw.trim() && raw.length <= 60
        ? `To keep every digit, send it as text: --set '${key}="${raw.trim()}"'.`
        : 'To keep every digit, write it as a string (in double quotes).',
    );
  }
  return value;
}

/**
 * Sets a dotted key (`settings.navigation_arrows`, `properties.0.required`) in a copy of `target`,
 * creating objects on the way. Array elements are addressed by index; an index past the end is refused
 * so a typo cannot append a half-made field.
 */
export function setPath(target: Obj, dotted: string, value: unknown): Obj {
  const parts = dotted.split('.');
  if (parts.some((p) => p === '' || FORBIDDEN.has(p)))
    throw new UsageError(`Invalid --set key "${dotted}".`, 'Use dotted names such as settings.navigation_arrows=true.');
  const root = structuredClone(target);
  let node: unknown = root;
  for (let i = 0; i < parts.length; i++) {
    const key = parts[i]!;
    const last = i === parts.length - 1;
    const where = parts.slice(0, i).join('.') || '(form)';
    if (Array.isArray(node)) {
      if (!/^\d+$/.test(key) || Number(key) >= node.length) {
        throw new UsageError(`--set ${dotted}: "${where}" is a list of ${node.length}; "${key}" is not an index in it.`);
      }
      if (last) node[Number(key)] = value;
      else {
        if (node[Number(key)] === null || typeof node[Number(key)] !== 'object') node[Number(key)] = {};
        node = node[Number(key)];
      }
    } else if (isObject(node)) {
      if (last) node[key] = value;
      else {
        if (node[key] === null || node[key] === undefined) node[key] = {};
        else if (typeof node[key] !== 'object') throw new UsageError(`--set ${dotted}: "${parts.slice(0, i + 1).join('.')}" is not an object.`);
        node = node[key];
      }
    }
  }
  return root;
}

/**
 * Merges a patch into a form: objects merge key by key, arrays and scalars replace, `null` sets null.
 * Keys the patch does not mention keep their current value, which is what makes a partial update safe.
 */
export function mergePatch(current: Obj, patch: Obj): Obj {
  const out: Obj = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (FORBIDDEN.has(k)) continue;
    out[k] = isObject(v) && isObject(current[k]) ? mergePatch(current[k] as Obj, v) : structuredClone(v);
  }
  return out;
}
