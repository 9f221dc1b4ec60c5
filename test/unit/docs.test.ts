// The repo's documentation is the one a reader of the repo can open: comments cite docs/<file>.md
// (and a section of it) instead of notes that live elsewhere, every cited file and section exists,
// every repo path the docs name exists, and the links of README.md and docs/ lead somewhere
// (docs/contributing.md).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.')) return [];
    const p = join(dir, e.name);
    return e.isDirectory() ? files(p, ext) : ext.test(e.name) ? [p] : [];
  });
}

const CODE = ['src', 'test', 'scripts', 'bench'].flatMap((d) => files(join(ROOT, d), /\.(ts|mjs|js|cjs)$/));
const DOCS = [join(ROOT, 'README.md'), ...files(join(ROOT, 'docs'), /\.md$/)];
const read = (p: string) => readFileSync(p, 'utf8');
const rel = (p: string) => relative(ROOT, p);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) fenced = !fenced;
    const h = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!h) continue;
    const base = h[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function headings(markdown: string): string[] {
  return [...markdown.matchAll(/^#{1,6} (.*)$/gm)].map((m) => m[1]!.replace(/`/g, '').toLowerCase());
}

describe('docs inside the repo', () => {
  it('no comment, README or docs/ page cites notes a reader of the repo cannot open', () => {
    // Built from parts so that this file does not match itself.
    const outside = new RegExp(
      ['\u00a7', 'FIDEL' + 'ITY', 'issue #\\d', '/wo' + 'rk/', '\\.\\./sha' + 'red/', '\\bresea' + 'rch\\b', 'design docu' + 'ment'].join('|'),
      'i',
    );
    const offenders = [...CODE, ...DOCS].flatMap((f) =>
      read(f)
        .split('\n')
        .map((l, i) => (outside.test(l) ? `${rel(f)}:${i + 1}: ${l.trim()}` : ''))
        .filter(Boolean),
    );
    expect(offenders).toEqual([]);
  });

  it('every docs/<file>.md a comment cites exists, and so does the section it names', () => {
    const problems: string[] = [];
    let cited = 0;
    for (const f of CODE) {
      for (const m of read(f).matchAll(/docs\/([a-z0-9-]+\.md)(?:, (?:"([^"]+)"|(?!docs\/)([A-Za-z][^)\n:;.,"]*)))?/g)) {
        cited++;
        const doc = join(ROOT, 'docs', m[1]!);
        if (!existsSync(doc)) {
          problems.push(`${rel(f)}: docs/${m[1]} does not exist`);
          continue;
        }
        const section = (m[2] ?? m[3])
          ?.replace(/\s*\n\s*(?:\/\/|\*)?\s*/g, ' ')
          .trim()
          .toLowerCase();
        if (section && !headings(read(doc)).some((h) => h.startsWith(section))) problems.push(`${rel(f)}: docs/${m[1]} has no section "${section}"`);
      }
    }
    expect(cited).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });

  it('every relative link in README.md and docs/ leads to a file, and to a heading when it names one', () => {
    const problems: string[] = [];
    for (const f of DOCS) {
      for (const m of read(f).matchAll(/\]\(([^)\s]*)\)/g)) {
        const [path, hash] = m[1]!.split('#') as [string, string | undefined];
        if (/^[a-z]+:/.test(path)) continue;
        const target = path === '' ? f : join(dirname(f), path);
        if (!existsSync(target)) {
          problems.push(`${rel(f)}: ${m[1]} (no such file)`);
          continue;
        }
        if (hash && target.endsWith('.md') && !anchors(read(target)).has(hash)) problems.push(`${rel(f)}: ${m[1]} (no such heading)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every file of the repo that README.md or docs/ names in backticks exists', () => {
    const missing: string[] = [];
    let named = 0;
    for (const f of DOCS) {
      for (const m of read(f).matchAll(/`((?:src|test|scripts|bench|bin|completions|examples)\/[^`\s:]+)`/g)) {
        if (/[<*…]/.test(m[1]!)) continue; // a pattern, not a path
        // Built by `npm run build` from src/startup/bin.ts, as dist/ is (named without a build too: test:unit).
        if (m[1] === 'bin/formctl.js') continue;
        named++;
        if (!existsSync(join(ROOT, m[1]!))) missing.push(`${rel(f)}: ${m[1]}`);
      }
    }
    expect(named).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('docs/README.md lists every file of docs/', () => {
    const index = read(join(ROOT, 'docs', 'README.md'));
    const missing = files(join(ROOT, 'docs'), /\.md$/)
      .map((p) => relative(join(ROOT, 'docs'), p))
      .filter((name) => name !== 'README.md' && !index.includes(`](${name})`));
    expect(missing).toEqual([]);
  });
});
