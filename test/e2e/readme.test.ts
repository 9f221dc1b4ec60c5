// Every command the README shows runs, as written, against the sandbox.
//
// How: test/helpers/readme.ts splits README.md's ```sh/```bash/```console blocks into statements
// (the format, and the `<!-- replay … -->` notes that take a command out of this replay, are
// described there and in docs/contributing.md).
// Each `## ` section is replayed as one bash script (state carries through it: create → use →
// delete), in a fresh temp HOME/config/state/cache, in a directory holding a copy of examples/, with
// `formctl` a bash function running the built bin/formctl.js, CI=true and NO_COLOR=1.
//
// The story's setup, which the README states under "Install → Running the examples": a sandbox started with
// `formctl sandbox --seed 5 --allow-private-webhooks --profile-name local` and `profile use local`.
// The runner starts that sandbox in this process (port 0, no rate limit) and logs the profile in
// with `auth login --with-token` before the section's first line. Lines that start their own
// sandbox or receiver run in the background until the section ends (then Ctrl-C, which must exit 0).
//
// Overrides, all documented in the helper: README ports (8787, 8080, 3000) map to free ports;
// https://forms.example.com ("your instance") maps to the section's sandbox; `formctl sandbox`
// lines get `--rate-limit 0`; MY_TOKEN is the sandbox's token; EDITOR is a script that changes a
// form document (as a person would in the editor).
//
// Each statement must exit 0 (or the N of a trailing `# exit N` comment, for a reason other than a
// parse error), print no stack trace, and, in console blocks, print the `error:`/`hint:` lines the
// README shows; every formctl call inside it must exit 0 too, unless the statement branches on it.
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { sandboxForTest } from '../helpers/fixture.js';
import {
  README_PORTS,
  SECTION_MARKER,
  SERVERS,
  type Statement,
  copyExamples,
  freePort,
  parseReadme,
  problemOf,
  readReadme,
  runSection,
  sectionTimeoutMs,
} from '../helpers/readme.js';
import { processesWith } from '../helpers/processes.js';

const { statements, notes } = readReadme();
const sections = [...new Set(statements.map((s) => s.section))];

/** An $EDITOR that changes the form document it is given, as a person editing it would. */
function editorScript(dir: string): string {
  const path = join(dir, 'editor.mjs');
  writeFileSync(
    path,
    [
      '#!/usr/bin/env node',
      "import { readFileSync, writeFileSync } from 'node:fs';",
      'const file = process.argv[2];',
      "const text = readFileSync(file, 'utf8');",
      // `form edit` puts `//` comment lines above the JSON.
      "const head = text.split('\\n').filter((l) => l.startsWith('//')).join('\\n');",
      "const doc = JSON.parse(text.split('\\n').filter((l) => !l.startsWith('//')).join('\\n'));",
      "doc.description = 'Edited in $EDITOR.';",
      "writeFileSync(file, (head ? head + '\\n' : '') + JSON.stringify(doc, null, 2) + '\\n');",
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

/** Marks profile "local" in $FORMCTL_CONFIG_DIR/config.json as made by `formctl sandbox --profile-name`. */
const MARK_SANDBOX_PROFILE = [
  "const fs = require('node:fs');",
  "const f = require('node:path').join(process.env.FORMCTL_CONFIG_DIR, 'config.json');",
  "const c = JSON.parse(fs.readFileSync(f, 'utf8'));",
  'c.profiles.local.sandbox = true;',
  'fs.writeFileSync(f, JSON.stringify(c, null, 2));',
].join(' ');

/** Replays one README section in the calling test (its sandbox and home stopped when that test ends); returns the problems found, one message per failing statement. */
async function replay(list: Statement[], o: { signal?: AbortSignal; marker?: string } = {}): Promise<{ problems: string[]; ran: number }> {
  const { sb: sandbox, home } = await sandboxForTest({ seed: 5, allowPrivateWebhooks: true });
  const dir = join(home.dir, 'work');
  mkdirSync(dir);
  copyExamples(dir);
  const ports = new Map<number, number>();
  for (const p of README_PORTS) ports.set(p, await freePort());
  const run = list.filter((s) => !s.note);
  const r = await runSection(run, {
    dir,
    env: {
      PATH: process.env.PATH,
      ...home.env,
      CI: 'true',
      NO_COLOR: '1',
      LANG: 'C.UTF-8',
      MY_TOKEN: sandbox.tokens.all,
      WORK_TOKEN: sandbox.tokens.all,
      READONLY_TOKEN: sandbox.tokens.readonly,
      EDITOR: editorScript(home.dir),
    },
    sub: { ports, baseUrl: sandbox.url },
    // The profile is marked as `sandbox --profile-name local` marks it, so a section's own
    // `formctl sandbox --profile-name local` may replace it, as it would after the README's setup.
    prelude: [
      `printf %s "$MY_TOKEN" | formctl --profile local auth login --with-token --base-url ${sandbox.url}`,
      'formctl profile use local',
      `node -e ${JSON.stringify(MARK_SANDBOX_PROFILE)}`,
    ],
    signal: o.signal,
    marker: o.marker,
  });
  const problems = r.results.map(problemOf).filter((p): p is string => p !== undefined);
  for (const [line, code] of r.serverExits) {
    if (code !== 0) problems.push(`README.md:${line}: the server did not exit 0 on Ctrl-C (exit ${code})`);
  }
  if (r.timedOut) problems.push('the section timed out');
  if (r.scriptStderr.trim()) problems.push(`the script itself printed on stderr:\n${r.scriptStderr}`);
  return { problems, ran: run.length };
}

describe('README.md commands', () => {
  it('has shell blocks to check, and every line not run here is noted in the README with why, or with the test that covers it', () => {
    const formctlLines = statements.filter((s) => s.invokesFormctl);
    expect(formctlLines.length).toBeGreaterThan(150);
    for (const n of notes) {
      expect(
        statements.some((s) => s.note === n),
        `README.md:${n.line}: the note names no command of the block below it`,
      ).toBe(true);
      if (n.how === 'skips') expect(n.why.length, `README.md:${n.line}: say why`).toBeGreaterThan(10);
      if (!n.covers) continue;
      const file = join(ROOT, n.covers.file);
      expect(existsSync(file), `${n.covers.file} (README.md:${n.line})`).toBe(true);
      expect(readFileSync(file, 'utf8'), `${n.covers.file} should contain ${n.covers.needle}`).toContain(n.covers.needle);
    }
    for (const s of SERVERS)
      expect(
        statements.some((x) => s.pattern.test(x.text)),
        `stale SERVERS entry ${s.pattern}`,
      ).toBe(true);
  });

  for (const section of sections) {
    const list = statements.filter((s) => s.section === section);
    // The runner's own bound comes first (it reports what ran); vitest's is the last resort.
    it(
      `## ${section}`,
      async () => {
        const { problems } = await replay(list);
        expect(problems, problems.join('\n\n')).toEqual([]);
      },
      sectionTimeoutMs(list.length) + 30_000,
    );
  }
});

describe('the README runner itself', () => {
  it('parses continuations, loops, heredocs, console prompts, comments, expected exit codes and notes', () => {
    const md = [
      '## A',
      '<!-- replay skips `formctl workspace list --json nope`: a reason given here -->',
      '<!-- replay in a terminal: `formctl form create` -->',
      '```sh',
      'formctl form list --all --json id \\',
      "  | jq -r '.[] # not a comment'   # a comment",
      'while read -r id; do',
      '  formctl invite resend "$id"',
      'done < ids.txt',
      "cat > f.ndjson <<'EOF'",
      '{"id": 1}',
      'EOF',
      'X=$(formctl workspace create --name Ops) && echo "$X"',
      'formctl workspace list --json nope   # exit 2: unknown field',
      "echo 'source <(formctl completion bash)' >> ~/.bashrc",
      'formctl form create   # asks',
      'formctl form create --title X',
      '```',
      '```console',
      '$ formctl member add x@example --role user',
      'error: Invalid email address "x@example".',
      '```',
      '```js',
      'formctl("not shell")',
      '```',
    ].join('\n');
    const { statements: got, notes: n } = parseReadme(md);
    expect(got.map((s) => [s.line, s.invokesFormctl, s.expectedExit, s.note?.how])).toEqual([
      [5, true, 0, undefined],
      [7, true, 0, undefined],
      [10, false, 0, undefined],
      [13, true, 0, undefined],
      [14, true, 2, 'skips'],
      [15, false, 0, undefined],
      [16, true, 0, 'in a terminal'],
      [17, true, 0, undefined],
      [20, true, 0, undefined],
    ]);
    expect(got[0]!.text).toBe("formctl form list --all --json id \\\n  | jq -r '.[] # not a comment'   # a comment");
    expect(got[1]!.text).toBe('while read -r id; do\n  formctl invite resend "$id"\ndone < ids.txt');
    expect(got[2]!.text).toBe(`cat > f.ndjson <<'EOF'\n{"id": 1}\nEOF`);
    expect(got[8]!.shownErrors).toEqual(['error: Invalid email address "x@example".']);
    expect(n.map((x) => [x.line, x.command, x.why])).toEqual([
      [2, 'formctl workspace list --json nope', 'a reason given here'],
      [3, 'formctl form create', ''],
    ]);
  });

  it('refuses a note that is not one, or that has no block below it, and a statement left open', () => {
    expect(() => parseReadme('<!-- replay skip `x` -->\n```sh\nx\n```')).toThrow(/README.md:1: not a replay note/);
    expect(() => parseReadme('<!-- replay skips `x`: why -->\n\ntext\n```sh\nx\n```')).toThrow(/README.md:1: a replay note with no block/);
    expect(() => parseReadme('```sh\nwhile true; do\n  formctl x\n```')).toThrow(/README.md:2: unfinished shell statement/);
  });

  it('fails on a README command that does not work, and on a wrong expected exit code', async () => {
    const md = [
      '## Bogus',
      '```sh',
      'formctl workspace list',
      'formctl workspace frobnicate 1',
      'formctl workspace list --json nope   # exit 2',
      'formctl workspace list --json nope   # exit 6',
      // A mistyped flag also exits 2: not the failure the comment means.
      'formctl workspace leave 1 --yse   # exit 2: you are its only member',
      // The statement exits 0 (printf's), but the formctl call inside it failed.
      `printf '%s\\n' "$(formctl workspace list --jsn id)"`,
      'for id in $(formctl workspace list --jsn id); do echo "$id"; done',
      // Branches on the failure itself: fine.
      'if ! out=$(formctl workspace list --json nope); then echo handled; fi',
      '```',
    ].join('\n');
    const { problems, ran } = await replay(parseReadme(md).statements);
    expect(ran).toBe(8);
    expect(problems).toHaveLength(5);
    expect(problems[0]).toContain('formctl workspace frobnicate 1');
    expect(problems[1]).toContain('expected exit 6');
    expect(problems[2]).toContain("failed to parse (error: unknown option '--yse')");
    expect(problems[3]).toMatch(/printf .*\n {2}a formctl call inside it failed \(exit 2\)/);
    expect(problems[4]).toMatch(/for id in .*\n {2}a formctl call inside it failed \(exit 2\)/);
  }, 120_000);

  it.skipIf(!existsSync('/proc/self/environ'))(
    'stops a whole section that times out: the script, its servers in process groups of their own, and what they started',
    async () => {
      const md = [
        '## Hangs',
        '```sh',
        'formctl sandbox --port 8788',
        'formctl webhook listen --port 3000',
        // A statement that never ends, in the script itself (run once both servers said they are ready).
        'sleep 600',
        '```',
      ].join('\n');
      const stop = new AbortController();
      const marker = randomUUID();
      const sectionProcesses = () => processesWith(SECTION_MARKER, marker);
      const replayed = replay(parseReadme(md).statements, { signal: stop.signal, marker });
      // Stopped once everything runs (as the timeout would stop it), not after a guessed delay.
      let before = sectionProcesses();
      while (!before.some((p) => p.cmdline === 'sleep 600')) {
        await new Promise((r) => setTimeout(r, 50));
        before = sectionProcesses();
      }
      stop.abort();
      const { problems } = await replayed;
      // Killed, the servers never saw their Ctrl-C: that is reported too, beside the timeout.
      expect(problems.filter((p) => !/sleep 600\n {2}did not run/.test(p))).toEqual([
        'README.md:3: the server did not exit 0 on Ctrl-C (exit null)',
        'README.md:4: the server did not exit 0 on Ctrl-C (exit null)',
        'the section timed out',
      ]);
      // Both servers were running, each in a process group of its own.
      expect(before.filter((p) => /bin\/formctl\.js (sandbox|webhook listen)/.test(p.cmdline))).toHaveLength(2);
      expect(sectionProcesses()).toEqual([]);
    },
    120_000,
  );
});
