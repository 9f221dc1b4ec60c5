import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { inRange, parseTimeFlag, resolveRange } from '../../../src/io/time-range.js';

const since = parseTimeFlag('--since');
const until = parseTimeFlag('--until');
const NOW = new Date('2026-11-27T12:00:00Z');

describe('--since / --until', () => {
  it.each([
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T09:30', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01 09:30:15', '2026-11-01T09:30:15.000Z'],
    ['2026-11-01T09:30:00+02:00', '2026-11-01T07:30:00.000Z'],
    ['2026-11-01T09:30:00.250Z', '2026-11-01T09:30:00.250Z'],
    ['30m', '2026-11-27T11:30:00.000Z'],
    ['24h', '2026-11-26T12:00:00.000Z'],
    ['7d', '2026-11-20T12:00:00.000Z'],
    ['2w', '2026-11-13T12:00:00.000Z'],
  ])('%s starts at %s', (text, iso) => {
    expect(new Date(resolveRange({ since: since(text) }, NOW).since!).toISOString()).toBe(iso);
  });

  it('a date alone in --until includes that day', () => {
    const r = resolveRange({ since: since('2026-11-01'), until: until('2026-11-01') }, NOW);
    expect(inRange(r, Date.parse('2026-11-01T23:59:59Z'))).toBe(true);
    expect(inRange(r, Date.parse('2026-11-02T00:00:00Z'))).toBe(false);
    expect(inRange(r, Date.parse('2026-10-31T23:59:59Z'))).toBe(false);
  });

  it.each(['yesterday', '7', '7days', '2026-02-30', '2026-11-01T25:00', '-7d', ''])('refuses %j with exit 2 and a hint', (text) => {
    let err: unknown;
    try {
      since(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(`--since: "${text}" is not a date, a time or a duration.`);
    expect((err as UsageError).hint).toContain('30m, 24h, 7d');
  });

  it('refuses a range that ends before it starts', () => {
    expect(() => resolveRange({ since: since('1d'), until: until('2d') }, NOW)).toThrow('--since 1d is not before --until 2d: the range is empty.');
  });
});
