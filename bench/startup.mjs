#!/usr/bin/env node
// Startup bench (#20's goals): CPU time (user + sys) and wall time of formctl's cheapest commands next
// to what Node itself needs for the same job, on every Node given, side by side in one run:
//   `formctl --help`                       CPU next to `node -e 0`
//   `formctl workspace list --json`        CPU and wall next to a bare node:http GET script (same server,
//                                          same answer); also how long after its output it exits
//   `formctl __complete workspace use ''`  CPU next to `node -e 0`, answered from the completion cache,
//                                          with the token in FORMCTL_TOKEN and from a saved profile
// Beside them, for the record: the same GET with Node's global fetch and with the undici package
// (bundled as a build would), the least a client on either costs; and, with --bin, another build of
// formctl (e.g. an older commit's bin/formctl.js) for the one-request command.
// CPU is each process's own rusage, read by a preload in its 'exit' event (process.cpuUsage(): all
// threads), the same preload for every case. Wall time is spawn to exit.
// Usage: npm run build && node bench/startup.mjs [--runs 15] [--warmup 2] [--node /path/to/node]… [--bin other/bin/formctl.js]
// The other Nodes can also come from FORMCTL_BENCH_NODES (paths separated by ':'); default: only this node.
// Loopback only: the server is a node:http stub this script starts on 127.0.0.1:0. Bounded: every
// spawn has a 10 s kill timer and the whole bench stops after 300 s.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { STARTUP_USAGE, startupArgs } from './startup-args.mjs';

const parsed = startupArgs(process.argv.slice(2), process.env);
if (parsed.help) {
  process.stdout.write(STARTUP_USAGE);
  process.exit(0);
}
if (parsed.error) {
  process.stderr.write(`error: ${parsed.error}\n${STARTUP_USAGE}`);
  process.exit(2);
}
const RUNS = parsed.runs;
const WARMUP = parsed.warmup;
const BIN = fileURLToPath(new URL('../bin/formctl.js', import.meta.url));
const nodes = [process.execPath, ...parsed.nodes];
const otherBin = parsed.bin;
const deadline = Date.now() + 300_000;

const WORKSPACES = JSON.stringify([
  { id: 1, name: 'Acme', icon: '🚀', is_readonly: false },
  { id: 2, name: 'Side project', icon: null, is_readonly: false },
]);
// The service answers every throttled request with X-RateLimit-Limit and -Remaining (docs/service.md),
// and formctl shares that budget through a file (src/api/ratelimit.ts): the stub does the same, counting
// formctl's requests (the token's) in a fixed 60 s window, so the bench times the path users run.
// Each token has its own budget, as each user has on the service (the profile case logs in with another token).
const LIMIT = 100;
const windows = new Map();
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/open/workspaces') {
    const headers = { 'content-type': 'application/json' };
    if (req.headers.authorization) {
      let w = windows.get(req.headers.authorization);
      if (!w || Date.now() - w.start >= 60_000) windows.set(req.headers.authorization, (w = { start: Date.now(), used: 0 }));
      const used = ++w.used;
      lowest = Math.min(lowest, LIMIT - used);
      Object.assign(headers, { 'x-ratelimit-limit': String(LIMIT), 'x-ratelimit-remaining': String(Math.max(0, LIMIT - used)) });
    }
    res.writeHead(200, headers);
    res.end(WORKSPACES);
  } else {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"message":"Not found"}');
  }
});
let lowest = LIMIT;
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const home = mkdtempSync(join(tmpdir(), 'formctl-bench-'));

// Every process runs without NODE_EXTRA_CA_CERTS (loading a CA bundle costs time unrelated to formctl).
// The compile cache (Node >= 22.1) lives in the bench's own temporary directory: the warm-up runs
// fill it, so timed runs are warm, as every run after a user's first is.
const env = {
  ...process.env,
  NO_COLOR: '1',
  FORMCTL_BASE_URL: baseUrl,
  FORMCTL_TOKEN: 'bench-token',
  FORMCTL_CONFIG_DIR: join(home, 'config'),
  FORMCTL_STATE_DIR: join(home, 'state'),
  FORMCTL_CACHE_DIR: join(home, 'cache'),
  HOME: home,
  TMPDIR: home,
};
for (const name of ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS', 'NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'FORMCTL_DEBUG']) delete env[name];

// The reference for a one-request command: what a script doing only that GET costs.
const GET = `require('node:http').get(${JSON.stringify(`${baseUrl}/open/workspaces`)}, (r) => { const b = []; r.on('data', (d) => b.push(d)); r.on('end', () => process.stdout.write(Buffer.concat(b))); });`;
// The same GET with Node's global fetch (the undici Node carries, precompiled into the binary).
const FETCH_GET = `fetch(${JSON.stringify(`${baseUrl}/open/workspaces`)}).then((r) => r.arrayBuffer()).then((b) => process.stdout.write(Buffer.from(b)));`;
// The floor of a command built as formctl is, with nothing of formctl: Commander (a package of the
// design card, from its public entry) parses `workspace list --json`, the token is keyed with FNV-1a
// in JavaScript (as the shared rate budget names its file, src/name-key.ts: the token is never in a
// file name; SHA-256 from node:crypto until 2026-11-28), then the node:http GET, its JSON printed
// indented. What formctl costs above this is its own code.
const shapeDir = join(home, 'shape-floor');
mkdirSync(shapeDir, { recursive: true });
writeFileSync(
  join(shapeDir, 'get.cjs'),
  [
    `const { Command } = require(${JSON.stringify(createRequire(import.meta.url).resolve('commander'))});`,
    `const program = new Command('formctl');`,
    `program.command('workspace').command('list').option('--json').action(() => {`,
    `  let h = 0x811c9dc5; for (const c of process.env.FORMCTL_TOKEN ?? '') h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);`,
    `  require('node:http').get(${JSON.stringify(`${baseUrl}/open/workspaces`)}, (r) => { const b = []; r.on('data', (d) => b.push(d)); r.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(Buffer.concat(b).toString()), null, 2) + '\\n')); });`,
    `});`,
    `program.parse(['node', 'formctl', 'workspace', 'list', '--json']);`,
    '',
  ].join('\n'),
);
// The same GET through the undici package, bundled as a build would: bundled by esbuild from its public entry
// point into one ES module, imported from a CommonJS file that turns on the compile cache. What this
// costs above the node:http script is undici's, whatever a client built on it does.
const undiciDir = join(home, 'undici-get');
await (
  await import('esbuild')
).build({
  stdin: {
    contents: `const { request } = await import('undici');\nconst r = await request(${JSON.stringify(`${baseUrl}/open/workspaces`)});\nprocess.stdout.write(Buffer.from(await r.body.arrayBuffer()));\n`,
    resolveDir: fileURLToPath(new URL('..', import.meta.url)),
  },
  outfile: join(undiciDir, 'get.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  banner: { js: "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);" },
  logLevel: 'warning',
});
writeFileSync(join(undiciDir, 'get.cjs'), "require('node:module').enableCompileCache?.();\nimport('./get.mjs');\n");

// Every process, the references too, runs under this preload: at exit it writes its CPU time.
const probe = join(home, 'cpu-probe.cjs');
writeFileSync(
  probe,
  "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.BENCH_CPU_FILE, String((u.user + u.system) / 1000)); });\n",
);
const cpuFile = join(home, 'cpu.txt');

/** Runs one process to completion: its wall time (spawn to exit), CPU time and how long after its first output byte it exited, in ms. */
function once(node, args, caseEnv = env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    let firstOut;
    const child = spawn(node, ['--require', probe, ...args], { env: { ...caseEnv, BENCH_CPU_FILE: cpuFile }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.on('data', () => (firstOut ??= process.hrtime.bigint()));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', reject);
    let exitedAt;
    child.on('exit', () => (exitedAt = process.hrtime.bigint()));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${node} ${args.join(' ')} exited ${code}: ${err.trim()}`));
      const ms = (a, b) => Number(b - a) / 1e6;
      resolve({ wall: ms(t0, exitedAt), cpu: Number(readFileSync(cpuFile, 'utf8')), afterOutput: firstOut ? ms(firstOut, exitedAt) : undefined });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// A saved profile: `auth login` stores the token in its own config directory; no FORMCTL_TOKEN.
const profileEnv = { ...env, FORMCTL_CONFIG_DIR: join(home, 'profile-config') };
delete profileEnv.FORMCTL_TOKEN;
delete profileEnv.FORMCTL_BASE_URL;
await new Promise((resolve, reject) => {
  const login = spawn(process.execPath, [BIN, 'auth', 'login', '--with-token', '--base-url', baseUrl], { env: profileEnv, stdio: ['pipe', 'ignore', 'pipe'] });
  let err = '';
  login.stderr.on('data', (d) => (err += d));
  login.on('error', reject);
  login.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`auth login for the profile case exited ${code}: ${err.trim()}`))));
  login.stdin.end('bench-profile-token\n');
});

// goal: the largest ratio allowed, by Node major (22 stands for 22, 24 and 26; 20 for 20); `on`: what is compared.
const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'node:http GET script', args: ['-e', GET] },
  { name: 'fetch GET script', args: ['-e', FETCH_GET], base: 'node:http GET script' },
  { name: 'undici GET script', args: [join(undiciDir, 'get.cjs')], base: 'node:http GET script' },
  { name: 'Commander+key+GET script', args: [join(shapeDir, 'get.cjs')], base: 'node:http GET script' },
  { name: 'formctl --version', args: [BIN, '--version'], base: 'node -e 0' },
  { name: 'formctl --help', args: [BIN, '--help'], base: 'node -e 0', goal: { 22: 1.2, 20: 2.5 } },
  {
    name: 'formctl workspace list --json',
    args: [BIN, 'workspace', 'list', '--json'],
    base: 'node:http GET script',
    goal: { 22: 1.3, 20: 2.5 },
    wallGoal: { 22: 1.3, 20: 2.5 },
    exitGoalMs: 20,
  },
  ...(otherBin ? [{ name: '--bin workspace list --json', args: [otherBin, 'workspace', 'list', '--json'], base: 'node:http GET script', exitGoalMs: 20 }] : []),
  { name: 'formctl __complete (cached)', args: [BIN, '__complete', 'workspace', 'use', ''], base: 'node -e 0', goal: { 24: 1.3 } },
  // The same Tab with the token saved by `auth login` (a terminal's usual case) rather than in
  // FORMCTL_TOKEN: its cache key needs no hash (src/completion/cache.ts).
  {
    name: '  … from a saved profile',
    args: [BIN, '__complete', 'workspace', 'use', ''],
    env: profileEnv,
    base: 'node -e 0',
    goal: { 24: 1.3 },
  },
];

/** The goal for a Node major: 22 stands for 22 and later, 24 for 24 and later, 20 for 20. */
const goalFor = (goal, major) => (goal ? (major >= 24 && goal[24] !== undefined ? goal[24] : major >= 22 ? goal[22] : goal[20]) : undefined);
const verdict = (ratio, goal) => (goal === undefined ? '' : ` (goal <= ${goal}x: ${ratio <= goal ? 'met' : 'MISSED'})`);

try {
  const versions = nodes.map((n) => spawnSync(n, ['-v'], { encoding: 'utf8' }).stdout.trim());
  const times = nodes.map(() => new Map(cases.map((c) => [c.name, []])));
  // Each Node line runs with its own token, so its own budget at the stub (a user runs one Node): all
  // lines in one minute with one token would pass half the limit, and formctl would then share its
  // budget under a lock, which is not the usual path. The profile case keeps its saved token.
  const envFor = (k, c) => c.env ?? { ...env, FORMCTL_TOKEN: `bench-token-${k}` };
  // The warm-up also fills the completion cache (the first __complete asks the stub).
  for (let i = 0; i < Math.max(WARMUP, 1); i++) for (const [k, n] of nodes.entries()) for (const c of cases) await once(n, c.args, envFor(k, c));
  // Interleaved (every case on every Node, round after round) so that machine noise hits all alike.
  for (let i = 0; i < RUNS; i++) {
    if (Date.now() > deadline) throw new Error('bench exceeded 300 s; try --runs 5');
    for (const [k, n] of nodes.entries()) for (const c of cases) times[k].get(c.name).push(await once(n, c.args, envFor(k, c)));
  }
  const [l1, l5] = loadavg();
  console.log(
    `${RUNS} runs after ${WARMUP} warm-ups, medians, all Node versions interleaved; load average ${l1.toFixed(1)} (5 min: ${l5.toFixed(1)}) on ${availableParallelism()} cores`,
  );
  if (l1 > availableParallelism()) console.log('  (the machine is busy: wall times are inflated; CPU ratios suffer least; rerun when quieter)');
  const med = (k, name, field) => median(times[k].get(name).map((r) => r[field]));
  for (const [k, version] of versions.entries()) {
    const major = Number(version.slice(1).split('.')[0]);
    console.log(`node ${version}`);
    console.log(`  ${'case'.padEnd(30)} ${'CPU ms'.padStart(7)} ${'wall ms'.padStart(8)}  ratios`);
    for (const c of cases) {
      const cpu = med(k, c.name, 'cpu');
      const wall = med(k, c.name, 'wall');
      const notes = [];
      if (c.base) {
        const r = cpu / med(k, c.base, 'cpu');
        notes.push(`CPU ${r.toFixed(2)}x ${c.base}${verdict(r, goalFor(c.goal, major))}`);
      }
      if (c.wallGoal || c.exitGoalMs) {
        const r = wall / med(k, c.base, 'wall');
        notes.push(`wall ${r.toFixed(2)}x${verdict(r, goalFor(c.wallGoal, major))}`);
        const after = med(k, c.name, 'afterOutput');
        notes.push(`exits ${after.toFixed(1)} ms after its output${verdict(after, c.exitGoalMs).replace('x:', ' ms:')}`);
      }
      console.log(`  ${c.name.padEnd(30)} ${cpu.toFixed(1).padStart(7)} ${wall.toFixed(1).padStart(8)}  ${notes.join('; ')}`);
    }
  }
  if (lowest <= LIMIT / 2) {
    console.log(
      `  (formctl sent more than half the stub's ${LIMIT}/min: it then shares the budget under a lock, as near the limit; use fewer --runs to time the usual path)`,
    );
  }
} finally {
  server.close();
  rmSync(home, { recursive: true, force: true });
}
