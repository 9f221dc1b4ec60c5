import { validationFailed } from './errors.js';
import type { FieldErrors } from './errors.js';
import { charLength } from '../service/text.js';

/** A plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

import { isEmail } from '../service/text.js';

export { charLength, isEmail } from '../service/text.js';

/** Collects field errors under dotted paths; `throwIfAny` raises the 422. */
export class Errors {
  readonly map: FieldErrors = {};

  add(path: string, message: string): void {
    (this.map[path] ??= []).push(message);
  }

  /** Adds `more`'s errors after those this holds (Laravel reports the rules it expanded from a wildcard last). */
  addAll(more: Errors): void {
    for (const [path, messages] of Object.entries(more.map)) for (const m of messages) this.add(path, m);
  }

  get empty(): boolean {
    return Object.keys(this.map).length === 0;
  }

  throwIfAny(): void {
    if (!this.empty) throw validationFailed(this.map);
  }
}

/** Human label of a field path for messages: `webhook_url` → "webhook url". */
export function label(path: string): string {
  return (path.split('.').pop() ?? path).replace(/_/g, ' ');
}

/** Laravel-style "present and not empty" (null, "", [] and whitespace-only strings count as missing). */
export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
}

/** Checks a required string field and returns it (trimmed), recording an error otherwise. */
export function requiredString(errors: Errors, body: Record<string, unknown>, key: string, max?: number): string | undefined {
  const v = body[key];
  if (isBlank(v)) {
    errors.add(key, `The ${label(key)} field is required.`);
    return undefined;
  }
  if (typeof v !== 'string') {
    errors.add(key, `The ${label(key)} field must be a string.`);
    return undefined;
  }
  const s = v.trim();
  if (max !== undefined && charLength(s) > max) {
    errors.add(key, `The ${label(key)} field must not be greater than ${max} characters.`);
    return undefined;
  }
  return s;
}

/** Checks a required email field (present, a plausible address) and returns it, recording an error otherwise. */
export function requiredEmail(errors: Errors, body: Record<string, unknown>, key = 'email'): string | undefined {
  const v = body[key];
  if (isBlank(v)) errors.add(key, `The ${label(key)} field is required.`);
  else if (!isEmail(v)) errors.add(key, `The ${label(key)} field must be a valid email address.`);
  else return v;
  return undefined;
}

/** Checks that a field is one of `values`; records "required" or "invalid" otherwise. */
export function requiredEnum<T extends string>(errors: Errors, body: Record<string, unknown>, key: string, values: readonly T[], path = key): T | undefined {
  const v = body[key];
  if (isBlank(v)) {
    errors.add(path, `The ${label(key)} field is required.`);
    return undefined;
  }
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
    errors.add(path, `The selected ${label(key)} is invalid. Allowed: ${values.join(', ')}.`);
    return undefined;
  }
  return v as T;
}

/** Positive integer from a query value; `fallback` when absent or not a number. */
export function queryInt(raw: string | null, fallback: number): number {
  if (raw === null || raw.trim() === '') return fallback;
  const n = Number.parseInt(raw, 10);
  return Number.isFinite(n) ? n : fallback;
}
