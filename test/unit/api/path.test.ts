import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiPath } from '../../../src/api/path.js';
import { UsageError } from '../../../src/errors.js';

const BASE = new URL('https://api.example.com/prefix/');

describe('apiPath', () => {
  it('encodes each interpolated segment', () => {
    expect(apiPath`/open/forms/${'my form/1?x#y'}/submissions/${7}`).toBe('/open/forms/my%20form%2F1%3Fx%23y/submissions/7');
  });

  it.each(['', '.', '..'])('refuses %j, which URL parsing would drop or climb (exit 2)', (v) => {
    expect(() => apiPath`/open/forms/${v}`).toThrow(UsageError);
  });

  it('round-trips any value through URL parsing as exactly one segment under the base path', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('%2e%2e', '.%2E', '%2F', '..%2f..', 'a/../b', '?', '#', '%', ' '), fc.integer()),
        (v) => {
          fc.pre(v !== '' && v !== '.' && v !== '..');
          const url = new URL(`.${apiPath`/open/forms/${v}/submissions`}`, BASE);
          const segments = url.pathname.split('/');
          expect(segments.slice(0, 3)).toEqual(['', 'prefix', 'open']);
          expect(segments).toHaveLength(6);
          expect(segments[5]).toBe('submissions');
          expect(decodeURIComponent(segments[4]!)).toBe(String(v));
          expect(url.search).toBe('');
          expect(url.hash).toBe('');
        },
      ),
      { numRuns: 500 },
    );
  });
});
