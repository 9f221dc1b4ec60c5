// The sandbox's two flavours differ in one place, src/sandbox/flavor.ts (docs/service.md says the
// same in prose): route code asks the rules object, it does not branch on the flavour's name.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLAVOR_RULES } from '../../src/sandbox/flavor.js';
import { ROOT } from '../helpers/cli.js';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the flavour rules', () => {
  it('every field is a difference: the two flavours disagree on each', () => {
    const same = (Object.keys(FLAVOR_RULES.spec) as Array<keyof typeof FLAVOR_RULES.spec>).filter((k) => FLAVOR_RULES.spec[k] === FLAVOR_RULES.deployed[k]);
    expect(same).toEqual([]);
    expect(Object.keys(FLAVOR_RULES.deployed).sort()).toEqual(Object.keys(FLAVOR_RULES.spec).sort());
  });

  it("no sandbox module but flavor.ts branches on the flavour's name (a route that exists in one flavour only checks the route table's flavour)", () => {
    const sandbox = join(ROOT, 'src', 'sandbox');
    const offenders = files(sandbox)
      .filter((f) => !f.endsWith('flavor.ts'))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(ROOT, f)}:${i + 1}` }))
          .filter(({ line }) => /isDeployed\(|[!=]==\s*'(?:deployed|spec)'|'(?:deployed|spec)'\s*[!=]==/.test(line) && !/\br\.flavor\s*[!=]==/.test(line)),
      )
      .map(({ at, line }) => `${at}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });
});
