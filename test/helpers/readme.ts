// Reads README.md into runnable statements, and runs a README section as one bash script against
// a sandbox: every command the README shows is exercised by a test (see docs/contributing.md,
// "The README is replayed").
//
// The format, all of it visible in README.md's source:
// - every ```sh, ```bash and ```console block is replayed (other languages are not shell);
// - a *statement* is what one prompt would run: bash itself says where it ends (the shortest run of
//   lines `bash -n` accepts without complaint; a line ending in `\` always continues). In console
//   blocks only `$ ` lines (and their `> ` continuations) are commands; the other lines are the
//   output the README shows, and its `error:`/`hint:` lines must appear on stderr;
// - a trailing `# exit N` comment is the exit code the statement must end with (else 0);
// - an HTML comment right above a block (invisible on GitHub) takes a command of that block out of
//   this replay, and says why:
//     <!-- replay skips `COMMAND`: why (covered by FILE: `TEXT IN FILE`) -->
//     <!-- replay in a terminal: `COMMAND` -->      (run by readme-interactive.test.ts)
//   COMMAND is the statement without its trailing comment; the `(covered by …)` part is optional
//   and is checked: FILE exists and contains the text.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { killGroup, killProcessesWith, spawnTracked as spawn, track } from './processes.js';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BIN, ROOT } from './cli.js';

/** A `<!-- replay … -->` note: a command of the block below that this replay does not run. */
export interface Note {
  how: 'skips' | 'in a terminal';
  command: string;
  why: string;
  covers?: { file: string; needle: string };
  /** 1-based line of the note in README.md. */
  line: number;
}

export interface Statement {
  /** 1-based line in README.md where the statement starts. */
  line: number;
  /** The statement as shown (continuation lines joined with "\n"; console `$ `/`> ` removed). */
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
  /** The note that takes it out of this replay, if any. */
  note?: Note;
}

const SHELL_LANGS = new Set(['sh', 'bash', 'console']);

/** Whether bash reads `text` as finished statements (no open quote, loop, heredoc or pipe). */
function complete(text: string): boolean {
  if (/\\$/.test(text)) return false;
  const r = spawnSync('bash', ['-n'], { input: text + '\n', encoding: 'utf8' });
  return r.status === 0 && r.stderr === '';
}

const EXIT_COMMENT = /(?:^|\s)#\s*(?:→\s*)?exit (\d+)\b/m;

/** `formctl` as a command word, outside single quotes and `#` comments. */
export function invokesFormctl(text: string): boolean {
  const code = text.replace(/'[^'\n]*'/g, "''").replace(/(^|\s)#.*$/gm, '$1');
  return /(?:^|[\s|;&(`]|\$\()formctl(?=\s|$|\))/m.test(code);
}

const NOTE = /^<!-- replay (skips|in a terminal:) `([^`]+)`(?::\s*(.*?))?\s*-->$/;

function parseNote(text: string, line: number): Note {
  const m = NOTE.exec(text.trim());
  if (!m) throw new Error(`README.md:${line}: not a replay note: ${text}`);
  const why = m[3] ?? '';
  const c = /\(covered by ([^:\s]+): `([^`]+)`\)$/.exec(why);
  return { how: m[1]!.replace(':', '') as Note['how'], command: m[2]!, why, line, ...(c ? { covers: { file: c[1]!, needle: c[2]! } } : {}) };
}

/** Whether a note names this statement: all of it but a trailing `# comment`. */
export function noteMatches(n: Note, text: string): boolean {
  return text.startsWith(n.command) && /^(?:\s+#.*)?$/.test(text.slice(n.command.length));
}

/** Every shell statement of a markdown document, in order, and the replay notes. */
export function parseReadme(markdown: string): { statements: Statement[]; notes: Note[] } {
  const lines = markdown.split('\n');
  const statements: Statement[] = [];
  const notes: Note[] = [];
  let section = '';
  let heading = '';
  let pending: Note[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const h = /^(#{2,6}) (.*)$/.exec(l);
    if (h) {
      if (h[1] === '##') section = h[2]!;
      heading = h[2]!;
    }
    if (l.startsWith('<!-- replay')) {
      pending.push(parseNote(l, i + 1));
      continue;
    }
    const fence = /^```(\S*)\s*$/.exec(l);
    if (!fence) {
      if (pending.length) throw new Error(`README.md:${pending[0]!.line}: a replay note with no block right below it`);
      continue;
    }
    const lang = fence[1]!;
    const blockNotes = pending;
    pending = [];
    const body: Array<{ n: number; text: string }> = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push({ n: i + 1, text: lines[i]! });
    if (!SHELL_LANGS.has(lang)) {
      if (blockNotes.length) throw new Error(`README.md:${blockNotes[0]!.line}: a replay note above a ${lang || 'plain'} block`);
      continue;
    }
    notes.push(...blockNotes);
    const typed = lang as Statement['lang'];
    let cur: { line: number; parts: string[] } | undefined;
    let last: Statement | undefined;
    for (const { n, text } of body) {
      if (cur) {
        cur.parts.push(typed === 'console' ? text.replace(/^> /, '') : text);
      } else if (typed === 'console' && text.startsWith('$ ')) {
        cur = { line: n, parts: [text.slice(2)] };
      } else if (typed === 'console') {
        if (last && /^(error|hint): /.test(text)) last.shownErrors.push(text);
        continue;
      } else if (text.trim() === '' || text.trim().startsWith('#')) {
        continue;
      } else {
        cur = { line: n, parts: [text] };
      }
      const joined = cur.parts.join('\n');
      if (!complete(joined)) continue;
      last = {
        line: cur.line,
        text: joined,
        section,
        heading,
        lang: typed,
        expectedExit: Number(EXIT_COMMENT.exec(joined)?.[1] ?? 0),
        shownErrors: [],
        invokesFormctl: invokesFormctl(joined),
        note: blockNotes.find((x) => noteMatches(x, joined)),
      };
      statements.push(last);
      cur = undefined;
    }
    if (cur) throw new Error(`README.md:${cur.line}: unfinished shell statement at the end of its block`);
  }
  if (pending.length) throw new Error(`README.md:${pending[0]!.line}: a replay note with no block right below it`);
  return { statements, notes };
}

export function readReadme(): { statements: Statement[]; notes: Note[] } {
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

export function serverFor(s: Statement): (typeof SERVERS)[number] | undefined {
  return SERVERS.find((x) => x.pattern.test(s.text));
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
  /** The exit code of every `formctl` call the statement made, in order (a server's: its own only). */
  calls: number[];
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
  /** Stops the section as its timeout would (a test of the runner stops it at a chosen moment). */
  signal?: AbortSignal;
  /** The value of SECTION_MARKER for this section's processes (a fresh one unless given). */
  marker?: string;
}

/** The environment variable that marks every process of one replayed section. */
export const SECTION_MARKER = 'FORMCTL_TEST_SECTION';

/**
 * How long a section may take before the runner stops it: a bound for a section that hangs, not a
 * measure of speed, so it is generous (a loaded 2-core machine runs a formctl call in 2–3 s).
 */
export function sectionTimeoutMs(statements: number): number {
  return 60_000 + 10_000 * statements;
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
    // __CALLS does the same for every statement: a call inside `$(…)` or a loop can fail while the
    // statement as a whole exits 0 (`printf … "$(formctl …)"`), and that must not go unseen.
    `formctl() { ${q(process.execPath)} ${q(BIN)} "$@"; local r=$?; [ -n "\${__FCRC:-}" ] && echo $r >> "$__FCRC"; [ -n "\${__CALLS:-}" ] && echo $r >> "$__CALLS"; return $r; }`,
    '__ret() { return "$1"; }',
    '__servers=()',
    // Ctrl-C for one server ("index:pid:port"), as a person would before starting another on its port.
    `__stop1() { local i=\${1%%:*} r=\${1#*:}; local p=\${r%%:*}; kill -INT -- "-$p" 2>/dev/null; wait "$p"; local c=$?; [ -s ${q(d)}/"$i.fcrc" ] && c=$(sort -n ${q(d)}/"$i.fcrc" | tail -1); echo $c > ${q(d)}/"$i.stopped"; }`,
    `__stop() { for s in "\${__servers[@]}"; do __stop1 "$s"; done; }`,
    `__stopport() { local keep=(); for s in "\${__servers[@]}"; do if [ "\${s##*:}" = "$1" ]; then __stop1 "$s"; else keep+=("$s"); fi; done; __servers=("\${keep[@]}"); }`,
    'trap __stop EXIT',
    // Job control: each background server gets its own process group, so Ctrl-C reaches all of it.
    'set -m',
    ...e.prelude.map(
      (l) =>
        `{ ${l}\n} >>${q(d)}/prelude.log 2>&1 </dev/null || { echo "prelude failed: ${l.replace(/["$`\\]/g, '')}" >&2; cat ${q(d)}/prelude.log >&2; exit 97; }`,
    ),
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
        `{ export __FCRC=${f}.fcrc; __CALLS=; ${text}\n} >${f}.out 2>${f}.err </dev/null &`,
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
    script.push(`__CALLS=${f}.calls; { ${text}\n} >${f}.out 2>${f}.err </dev/null`, `__rc=$?; __CALLS=; echo $__rc >${f}.rc`);
    // A visitor's answer (curl, or `webhook trigger`, which posts one) is delivered to webhooks in the
    // background; a person reads the receiver's output before typing on, so the runner waits (up to
    // 5 s) for the listener to save it (a loaded machine delivers after the next command started).
    if (/^curl .*\/forms\/[^/\s]+\/answer\b/.test(text) || /^formctl webhook trigger\b/.test(text)) {
      script.push(
        `__n=$(ls deliveries/*.body 2>/dev/null | wc -l); for __t in $(seq 1 100); do [ "$(ls deliveries/*.body 2>/dev/null | wc -l)" -gt "$__n" ] && break; sleep 0.05; done`,
      );
    }
    script.push('__ret $__rc');
  });
  const path = join(d, 'script.sh');
  writeFileSync(path, script.join('\n') + '\n');

  // Every process of the section (the script, the servers it put in process groups of their own, what
  // they started) carries this marker, so all of them can be stopped, whatever their process group.
  const marker = e.marker ?? randomUUID();
  const { stderr, timedOut } = await new Promise<{ stderr: string; timedOut: boolean }>((resolve, reject) => {
    const child = spawn('bash', [path], { cwd: e.dir, env: { ...e.env, [SECTION_MARKER]: marker }, stdio: ['ignore', 'ignore', 'pipe'] });
    const stopAll = async () => {
      killGroup(child);
      await killProcessesWith(SECTION_MARKER, marker);
    };
    // Also when the test ends before the section does (a vitest timeout abandons this promise).
    const untrack = track(stopAll);
    let err = '';
    let timedOut = false;
    child.stderr!.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const stopNow = () => {
      timedOut = true;
      void stopAll();
    };
    const timer = setTimeout(stopNow, e.timeoutMs ?? sectionTimeoutMs(statements.length));
    e.signal?.addEventListener('abort', stopNow, { once: true });
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      untrack();
      // The script's EXIT trap stops its servers with Ctrl-C and waits for them; whatever is left
      // (the script was killed, or a server ignored Ctrl-C: its exit code says so) goes now.
      void stopAll().then(() => resolve({ stderr: err, timedOut }));
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
      calls: read(join(d, `${i}.calls`))
        .split('\n')
        .filter(Boolean)
        .map(Number),
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
  // An expected failure must be the one the README means, not a mistyped flag or verb, which also
  // exits 2.
  const parse = /^error: (unknown option|unknown command|too many arguments|missing required argument)\b.*/m.exec(r.stderr);
  if (s.expectedExit !== 0 && parse) return `${where}\n  failed to parse (${parse[0]}), not for the reason the README means${tail}`;
  // Every formctl call must succeed, also one whose failure the statement's own exit code hides,
  // unless the statement itself branches on that failure (`if ! x=$(formctl …)`, `case $? in`).
  const failed = r.calls.filter((c) => c !== 0);
  if (s.expectedExit === 0 && failed.length > 0 && !HANDLES_FAILURE.test(s.text))
    return `${where}\n  a formctl call inside it failed (exit ${failed.join(', ')}) though the statement exited 0${tail}`;
  return undefined;
}

/** A statement that decides itself what a failing formctl call means. */
const HANDLES_FAILURE = /^\s*if\s|\|\|\s*(?:true|:|echo)\b|\bcase \$\? in\b/m;
