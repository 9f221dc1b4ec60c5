import { describe, expect, it } from 'vitest';
import { profileFlag, shellWord, withProfileFlag } from '../../src/io/shell-word.js';

describe('shellWord', () => {
  it('leaves plain words and quotes the rest so a shell reads them back as given', () => {
    expect(shellWord('ci-box')).toBe('ci-box');
    expect(shellWord('my box')).toBe("'my box'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });
});

describe('withProfileFlag', () => {
  const flag = { profileName: 'my box', profileSource: 'flag' };
  it('puts the quoted profile into each command of a group that acts on a profile', () => {
    expect(withProfileFlag('See `formctl webhook list 1`; or `formctl auth login`.', flag)).toBe(
      "See `formctl --profile 'my box' webhook list 1`; or `formctl --profile 'my box' auth login`.",
    );
  });
  it('leaves prose, other groups and commands that already name a profile as they are', () => {
    const text = 'formctl sends it nowhere; see `formctl profile list`, `formctl --profile other auth login`, `formctl forms`.';
    expect(withProfileFlag(text, flag)).toBe(text);
  });
  it('adds nothing when the profile is the current one or the default', () => {
    expect(withProfileFlag('formctl form list', { profileName: 'p', profileSource: 'profile' })).toBe('formctl form list');
    expect(withProfileFlag('formctl form list', undefined)).toBe('formctl form list');
    expect(profileFlag({ profileName: 'p', profileSource: 'env' })).toBe(' --profile p');
  });
});
