// Reads README.md into runnable statements, and runs a README section as one bash script against
// a sandbox (issue #6: every command the README shows is exercised by a test).
//
// Vocabulary:
// - a *block* is a ```sh, ```bash or ```console fence (other languages are not shell);
// - a *statement* is what one prompt would run: a line, joined with its `\` continuations, and
//   kept open while a heredoc, `while … done`, `if … fi` or `case … esac` is unfinished, or while
//   the line ends in `|`, `&&` or `||`. In console blocks only `$ ` lines are commands; the lines
//   after them are the output the README shows;
// - a statement *invokes formctl* when `formctl` is a command word in it (at the start, after a
//   pipe, `;`, `&&`, `(`, `$(`, a variable assignment, or `do`/`then`), not inside single quotes.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BIN, ROOT } from './cli.js';

export interface Statement {
  /** 1-based line in README.md where the statement starts. */
  line: number;
  /** The statement as shown (continuations and multi-line constructs joined with "\n"). */
  text: string;
  /** The `## ` section it is in, and the nearest heading above it. */
  section: string;
  heading: string;
  lang: 'sh' | 'bash' | 'console';
  /** From a trailing comment `# exit N` / `# → exit N`; else 0. */
  expectedExit: number;
  /** Console blocks: `error:`/`hint:` lines shown right after the command. */
  shownErrors: string[];
  invokesFormctl: boolean;
}

const SHELL_LANGS = new Set(['sh', 'bash', 'console']);

/** The comment part of one physical line (from an unquoted `#` that starts a word), or ''. */
export function trailingComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(i);
  }
  return '';
}

function withoutComment(line: string): string {
  const c = trailingComment(line);
  return c ? line.slice(0, line.length - c.length) : line;
}

/** Single-quoted strings and comments removed: what is left is shell syntax and double-quoted text. */
function code(text: string): string {
  return text
    .split('\n')
    .map((l) => withoutComment(l).replace(/'[^']*'/g, "''"))
    .join('\n');
}

export function invokesFormctl(text: string): boolean {
  return /(?:^|[|;&(`]|\$\(|\b(?:do|then|else)\s|\b[A-Z_][A-Z0-9_]*=\S*\s)\s*formctl(?=\s|$|\))/m.test(code(text));
}

/** Nesting opened by a statement so far: heredoc terminator, or the depth of do/if/case. */
function openness(text: string): { depth: number; continues: boolean } {
  const c = code(text);
  const words = c.replace(/"[^"]*"/g, '""');
  const count = (re: RegExp) => (words.match(re) ?? []).length;
  const depth =
    count(/(?:^|[\s;])do(?=[\s;]|$)/gm) -
    count(/(?:^|[\s;])done(?=[\s;]|$)/gm) +
    count(/(?:^|[\s;])if(?=\s)/gm) -
    count(/(?:^|[\s;])fi(?=[\s;]|$)/gm) +
    count(/(?:^|[\s;])case(?=\s)/gm) -
    count(/(?:^|[\s;])esac(?=[\s;]|$)/gm);
  const lastLine = c.split('\n').at(-1)!.trimEnd();
  const continues = /(?:\\|\||&&)$/.test(lastLine);
  return { depth, continues };
}

function heredocTerminator(line: string): string | undefined {
  return /<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?/.exec(withoutComment(line))?.[1];
}

function expectedExitOf(text: string): number {
  for (const l of text.split('\n')) {
    const m = /^#\s*(?:→\s*)?exit (\d+)\b/.exec(trailingComment(l));
    if (m) return Number(m[1]);
  }
  return 0;
}

/** Every shell statement of a markdown document, in order. */
export function parseReadme(markdown: string): Statement[] {
  const lines = markdown.split('\n');
  const out: Statement[] = [];
  let section = '';
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const h = /^(#{2,6}) (.*)$/.exec(l);
    if (h) {
      if (h[1] === '##') section = h[2]!;
      heading = h[2]!;
      continue;
    }
    const fence = /^```(\S*)\s*$/.exec(l);
    if (!fence) continue;
    const lang = fence[1]!;
    const body: Array<{ n: number; text: string }> = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push({ n: i + 1, text: lines[i]! });
    if (!SHELL_LANGS.has(lang)) continue;
    const typed = lang as Statement['lang'];
    let cur: { line: number; parts: string[]; heredoc?: string; shownErrors: string[] } | undefined;
    const flush = () => {
      if (!cur) return;
      const text = cur.parts.join('\n');
      out.push({ line: cur.line, text, section, heading, lang: typed, expectedExit: expectedExitOf(text), shownErrors: cur.shownErrors, invokesFormctl: invokesFormctl(text) });
      cur = undefined;
    };
    let lastConsole: Statement | undefined;
    for (const { n, text } of body) {
      if (cur) {
        // Inside an unfinished statement: everything belongs to it.
        cur.parts.push(typed === 'console' ? text.replace(/^> /, '') : text);
        if (cur.heredoc) {
          if (text.trim() === cur.heredoc) cur.heredoc = undefined;
        } else {
          cur.heredoc = heredocTerminator(text);
        }
        const o = openness(cur.parts.join('\n'));
        if (!cur.heredoc && o.depth <= 0 && !o.continues) {
          flush();
          if (typed === 'console') lastConsole = out.at(-1);
        }
        continue;
      }
      let cmd = text;
      if (typed === 'console') {
        if (!text.startsWith('$ ')) {
          if (lastConsole && /^(error|hint): /.test(text)) lastConsole.shownErrors.push(text);
          continue;
        }
        cmd = text.slice(2);
      }
      if (cmd.trim() === '' || cmd.trim().startsWith('#')) continue;
      cur = { line: n, parts: [cmd], heredoc: heredocTerminator(cmd), shownErrors: [] };
      const o = openness(cmd);
      if (!cur.heredoc && o.depth <= 0 && !o.continues) {
        flush();
        if (typed === 'console') lastConsole = out.at(-1);
      }
    }
    if (cur) throw new Error(`README.md:${(cur as { line: number }).line}: unfinished shell statement at the end of its block`);
  }
  return out;
}

export function readReadme(): Statement[] {
  return parseReadme(readFileSync(join(ROOT, 'README.md'), 'utf8'));
}

// ---------------------------------------------------------------------------------------------
// How each statement is run

/**
 * Statements that never end on their own (servers). The runner starts them in the background
 * (as a second terminal would), waits until they say they are ready, and stops them with Ctrl-C
 * (SIGINT) at the end of the section; a server must then exit 0, as the README promises.
 */
export const SERVERS: Array<{ pattern: RegExp; ready: { stream: 'out' | 'err'; grep: string } }> = [
  { pattern: /^formctl sandbox(?:\s|$)(?!.*--json)/, ready: { stream: 'out', grep: 'Sandbox listening on http' } },
  { pattern: /^formctl sandbox\s.*--json/, ready: { stream: 'out', grep: 'http://127[.]0[.]0[.]1:[0-9]+' } },
  { pattern: /^formctl webhook listen(?:\s|$)/, ready: { stream: 'err', grep: '^Listening on http' } },
  // Follows the event log until Ctrl-C; it has printed the existing events once the runner moves on.
  { pattern: /^formctl webhook events .*--follow/, ready: { stream: 'err', grep: '' } },
];

/**
 * Statements that are not run by this file, each with the test that covers it instead. A line
 * matching none of these and no SERVERS entry is run. Every entry must match at least one README
 * statement (no stale entries), and `covers` must name an existing test file containing `needle`.
 */
export const ELSEWHERE: Array<{ pattern: RegExp; why: string; covers?: { file: string; needle: string } }> = [
  {
    pattern: /^npm install && npm run demo\b/,
    why: 'installs dependencies and runs the narrated demo; the demo is run by its own test',
    covers: { file: 'test/e2e/demo.test.ts', needle: "scripts', 'demo.mjs'" },
  },
  {
    pattern: /^npm test\b/,
    why: 'the test suite itself (this file is part of it)',
    covers: { file: 'package.json', needle: '"test": "npm run build && npm run typecheck && vitest run"' },
  },
  {
    pattern: /^npm run test:unit\b/,
    why: 'a subset of the test suite (this file is part of the whole)',
    covers: { file: 'package.json', needle: '"test:unit": "vitest run test/unit test/sandbox"' },
  },
  {
    pattern: /^npm install && npm run build\b/,
    why: 'installs dependencies and builds; the suite runs after `npm run build` on an installed tree',
    covers: { file: 'package.json', needle: '"build": "node scripts/build.mjs"' },
  },
  { pattern: /^npm link\b/, why: 'changes the global npm install; the runner defines `formctl` as the built bin/formctl.js instead' },
  {
    pattern: /^npm run build\b/,
    why: 'the suite runs after `npm run build`',
    covers: { file: 'package.json', needle: '"build": "node scripts/build.mjs"' },
  },
  {
    pattern: /^npm run completions\b/,
    why: 'regenerates completions/; its --check mode is run by the completion freshness test',
    covers: { file: 'test/unit/completion/fresh.test.ts', needle: 'completions' },
  },
  {
    pattern: /^node bench\/startup\.mjs\b/,
    why: 'a benchmark taking tens of seconds of CPU; not a functional check',
  },
  // On a terminal these prompt; readme-interactive.test.ts runs each of them in tmux.
  ...[
    /^formctl auth login(?:\s+#|$)/,
    /^formctl auth login --base-url \S+(?:\s+#|$)/,
    /^formctl form create(?:\s+#|$)/,
    /^formctl form edit \S+(?:\s+#|$)/,
    /^formctl form delete \d+\s+# asks/,
    /^formctl submission delete \d+ \d+\s+# asks/,
    /^formctl member remove \S+(?:\s+#|$)/,
  ].map((pattern) => ({
    pattern,
    why: 'prompts on a terminal',
    covers: { file: 'test/e2e/readme-interactive.test.ts', needle: pattern.source },
  })),
];

export function serverFor(s: Statement): (typeof SERVERS)[number] | undefined {
  return SERVERS.find((x) => x.pattern.test(s.text));
}

export function elsewhereFor(s: Statement): (typeof ELSEWHERE)[number] | undefined {
  return ELSEWHERE.find((x) => x.pattern.test(s.text));
}

/** Fixed ports the README shows; each run maps them to free ports so parallel runs never collide. */
export const README_PORTS = [8787, 8788, 8080, 3000] as const;

/** Hosts the README shows for "your own instance"; the runner points them at the section's sandbox. */
export const README_HOSTS = ['https://forms.example.com'];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Substitutions {
  ports: Map<number, number>;
  baseUrl: string;
}

/**
 * The statement as the runner executes it: README ports → free ports (a server line without
 * --port gets the mapped default 8787), README hosts → the sandbox, and `formctl sandbox` without
 * a rate limit (a replay sends a section's requests within a second or two; a person does not).
 */
export function substitute(s: Statement, sub: Substitutions): string {
  let t = s.text;
  for (const [from, to] of sub.ports) {
    t = t.replace(new RegExp(`(--port\\s+|127\\.0\\.0\\.1:|localhost:)${from}\\b`, 'g'), `$1${to}`);
  }
  for (const host of README_HOSTS) t = t.split(host).join(sub.baseUrl);
  const server = serverFor(s);
  if (server && /^formctl (sandbox|webhook listen)\b/.test(t) && !/--port\s/.test(t)) {
    t = t.replace(/^formctl (sandbox|webhook listen)/, `formctl $1 --port ${sub.ports.get(8787)}`);
  }
  if (/^formctl sandbox\b/.test(t) && !/--rate-limit/.test(t)) t = t.replace(/^formctl sandbox/, 'formctl sandbox --rate-limit 0');
  return t;
}

// ---------------------------------------------------------------------------------------------
// Running a section

export interface StatementResult {
  statement: Statement;
  ran: string;
  kind: 'run' | 'server';
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface SectionRun {
  results: StatementResult[];
  /** Exit codes of the servers after Ctrl-C, by statement line. */
  serverExits: Map<number, number | null>;
  scriptStderr: string;
  timedOut: boolean;
}

export interface SectionEnv {
  dir: string;
  env: NodeJS.ProcessEnv;
  sub: Substitutions;
  /** Shell lines run before the section, hidden from results (the story's setup). */
  prelude: string[];
  timeoutMs?: number;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Writes one bash script for the statements and runs it in `dir`. Each statement runs in the same
 * shell (variables and the working directory carry on), with its own stdout/stderr files; `$?`
 * after it is its exit code, so a README line may branch on the previous one (`case $? in …`).
 */
export async function runSection(statements: Statement[], e: SectionEnv): Promise<SectionRun> {
  const d = join(e.dir, '.readme-run');
  mkdirSync(d, { recursive: true });
  const script: string[] = [
    'set -o pipefail',
    // With __FCRC set (servers), each formctl call appends its own exit code there: in a pipeline
    // Ctrl-C also stops jq or head, and the pipeline's status would be theirs, not formctl's.
    `formctl() { ${q(process.execPath)} ${q(BIN)} "$@"; local r=$?; [ -n "\${__FCRC:-}" ] && echo $r >> "$__FCRC"; return $r; }`,
    '__ret() { return "$1"; }',
    '__servers=()',
    // Ctrl-C for one server ("index:pid:port"), as a person would before starting another on its port.
    `__stop1() { local i=\${1%%:*} r=\${1#*:}; local p=\${r%%:*}; kill -INT -- "-$p" 2>/dev/null; wait "$p"; local c=$?; [ -s ${q(d)}/"$i.fcrc" ] && c=$(sort -n ${q(d)}/"$i.fcrc" | tail -1); echo $c > ${q(d)}/"$i.stopped"; }`,
    `__stop() { for s in "\${__servers[@]}"; do __stop1 "$s"; done; }`,
    `__stopport() { local keep=(); for s in "\${__servers[@]}"; do if [ "\${s##*:}" = "$1" ]; then __stop1 "$s"; else keep+=("$s"); fi; done; __servers=("\${keep[@]}"); }`,
    'trap __stop EXIT',
    // Job control: each background server gets its own process group, so Ctrl-C reaches all of it.
    'set -m',
    ...e.prelude.map((l) => `{ ${l}\n} >>${q(d)}/prelude.log 2>&1 </dev/null || { echo "prelude failed: ${l.replace(/["$`\\]/g, '')}" >&2; cat ${q(d)}/prelude.log >&2; exit 97; }`),
  ];
  const kinds: Array<'run' | 'server'> = [];
  const ran: string[] = [];
  statements.forEach((s, i) => {
    let text = substitute(s, e.sub);
    ran.push(text);
    const f = `${q(d)}/${i}`;
    const server = serverFor(s);
    if (server) {
      kinds.push('server');
      // A server line written for a script ends in `&`; the runner backgrounds it itself.
      text = text.replace(/\s*&\s*(#.*)?$/, '');
      const file = `${f}.${server.ready.stream}`;
      const port = /--port\s+(\d+)/.exec(text)?.[1] ?? '0';
      script.push(
        ...(port !== '0' ? [`__stopport ${port}`] : []),
        `{ export __FCRC=${f}.fcrc; ${text}\n} >${f}.out 2>${f}.err </dev/null &`,
        `__servers+=("${i}:$!:${port}")`,
        // Ready when the server says so; a server that exits first is a failure with its code.
        server.ready.grep === ''
          ? `sleep 1; if kill -0 $! 2>/dev/null; then __rc=0; else wait $!; __rc=$?; [ $__rc = 0 ] && __rc=125; fi; echo $__rc >${f}.rc`
          : `__rc=124; for __t in $(seq 1 200); do if grep -Eq ${q(server.ready.grep)} ${file} 2>/dev/null; then __rc=0; break; fi; if ! kill -0 $! 2>/dev/null; then wait $!; __rc=$?; [ $__rc = 0 ] && __rc=125; break; fi; sleep 0.05; done; echo $__rc >${f}.rc`,
        // The README refers to the sandbox's read-only token as READONLY_TOKEN ("from its banner").
        ...(/^formctl sandbox\b/.test(text) ? [`__t=$(sed -n 's/^  readonly  *//p' ${f}.out); [ -n "$__t" ] && export READONLY_TOKEN="$__t"`] : []),
      );
      return;
    }
    kinds.push('run');
    script.push(`{ ${text}\n} >${f}.out 2>${f}.err </dev/null`, `__rc=$?; echo $__rc >${f}.rc`);
    // A visitor's answer is delivered to webhooks in the background; a person reads the receiver's
    // output before typing on, so the runner waits (up to 5 s) for the listener to save it.
    if (/^curl .*\/forms\/[^/\s]+\/answer\b/.test(text)) {
      script.push(`__n=$(ls deliveries/*.body 2>/dev/null | wc -l); for __t in $(seq 1 100); do [ "$(ls deliveries/*.body 2>/dev/null | wc -l)" -gt "$__n" ] && break; sleep 0.05; done`);
    }
    script.push('__ret $__rc');
  });
  const path = join(d, 'script.sh');
  writeFileSync(path, script.join('\n') + '\n');

  const { stderr, timedOut } = await new Promise<{ stderr: string; timedOut: boolean }>((resolve, reject) => {
    const child = spawn('bash', [path], { cwd: e.dir, env: e.env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let err = '';
    let timedOut = false;
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }, e.timeoutMs ?? 45_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ stderr: err, timedOut });
    });
  });

  const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : '');
  const results = statements.map((statement, i): StatementResult => {
    const rc = read(join(d, `${i}.rc`)).trim();
    return {
      statement,
      ran: ran[i]!,
      kind: kinds[i]!,
      code: rc === '' ? null : Number(rc),
      stdout: read(join(d, `${i}.out`)),
      stderr: read(join(d, `${i}.err`)),
    };
  });
  const serverExits = new Map<number, number | null>();
  statements.forEach((s, i) => {
    if (kinds[i] !== 'server') return;
    const v = read(join(d, `${i}.stopped`)).trim();
    serverExits.set(s.line, v === '' ? null : Number(v));
  });
  return { results, serverExits, scriptStderr: stderr, timedOut };
}

/** Copies examples/ into `dir`, as a reader's clone has it. */
export function copyExamples(dir: string): void {
  cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
}

/** What is wrong with one statement's result, or undefined. */
export function problemOf(r: StatementResult): string | undefined {
  const s = r.statement;
  const where = `README.md:${s.line} (${s.heading})\n  $ ${r.ran.replace(/\n/g, '\n    ')}`;
  const tail = `\n  exit ${r.code}\n  stdout: ${r.stdout.slice(0, 600).trim()}\n  stderr: ${r.stderr.slice(0, 1200).trim()}`;
  if (r.code === null) return `${where}\n  did not run (an earlier line ended the script, or the section timed out)${tail}`;
  if (/^\s+at .+:\d+:\d+\)?$/m.test(r.stderr) || /this is a bug in formctl/i.test(r.stderr)) return `${where}\n  printed a stack trace${tail}`;
  if (r.kind === 'server') {
    if (r.code !== 0) return `${where}\n  server did not become ready (exit ${r.code})${tail}`;
    return undefined;
  }
  if (s.shownErrors.length > 0) {
    if (r.code === 0) return `${where}\n  the README shows an error, but it exited 0${tail}`;
    const norm = (x: string) => x.replace(/\s+/g, ' ').trim();
    const got = norm(r.stderr);
    for (const shown of s.shownErrors) {
      const re = new RegExp(
        norm(shown)
          .split(/…|<[^>]+>/)
          .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*?'),
      );
      if (!re.test(got)) return `${where}\n  stderr does not show the README's line: ${shown}${tail}`;
    }
    if (s.expectedExit !== 0 && r.code !== s.expectedExit) return `${where}\n  expected exit ${s.expectedExit}${tail}`;
    return undefined;
  }
  if (r.code !== s.expectedExit) return `${where}\n  expected exit ${s.expectedExit}${tail}`;
  return undefined;
}
