// `submission delete --json` goes the one --json path (docs/architecture.md, "Adding a flag"): its
// field list is named once, in the declaration, and the option's parser checks it.
import { describe, expect, it } from 'vitest';
import { submissionDeleteCommand } from '../../../src/commands/submission/shared.js';
import { UsageError } from '../../../src/errors.js';

describe('submission delete --json', () => {
  it('names its fields once: the declaration refuses a field outside the list (exit 2) before anything runs', () => {
    expect(() => submissionDeleteCommand().exitOverride().parse(['42', '--before', '1d', '--json', 'nope'], { from: 'user' })).toThrow(UsageError);
    const parsed = submissionDeleteCommand().exitOverride().parse(['42', '--before', '1d', '--json', 'deleted,failed'], { from: 'user' });
    expect(parsed.opts().json).toEqual(['deleted', 'failed']);
  });
});
