import { UsageError } from '../../errors.js';

/** Parser for durations in seconds (fractions allowed) → ms. */
export function parseSeconds(name: string, o: { min?: number } = {}): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < (o.min ?? 0)) throw new UsageError(`${name} must be a number of seconds${o.min ? ` of at least ${o.min}` : ''}, got "${v}".`);
    return Math.round(n * 1000);
  };
}

/** Comma-separated list flag. */
export function parseList(v: string): string[] {
  return v.split(',').map((s) => s.trim()).filter(Boolean);
}
