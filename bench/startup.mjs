#!/usr/bin/env node
// Startup bench: median wall time of formctl's cheapest commands next to what Node itself needs
// for the same job, on this Node and (optionally) on a second one, side by side in one run.
//   `formctl --version`, `formctl --help`  next to  `node -e 0`
//   `formctl workspace list --json`         next to  a bare node:http GET script (same server, same answer),
//                                            and a bare undici GET script: the least any client on undici needs
// Usage: npm run build && node bench/startup.mjs [--runs 15] [--warmup 2] [--node /path/to/other/node]…
// The other Node can also come from FORMCTL_BENCH_NODES (paths separated by ':'); default: only this node.
// Loopback only: the server is a node:http stub this script starts on 127.0.0.1:0. Bounded: every
// spawn has a 10 s kill timer and the whole bench stops after 180 s.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : def;
};
const RUNS = opt('--runs', 15);
const WARMUP = opt('--warmup', 2);
const BIN = fileURLToPath(new URL('../bin/formctl.js', import.meta.url));
const nodes = [process.execPath];
for (let i = 0; i < argv.length; i++) if (argv[i] === '--node') nodes.push(argv[++i]);
for (const p of (process.env.FORMCTL_BENCH_NODES ?? '').split(':')) if (p) nodes.push(p);
const deadline = Date.now() + 180_000;

const WORKSPACES = JSON.stringify([
  { id: 1, name: 'Acme', icon: '🚀', is_readonly: false },
  { id: 2, name: 'Side project', icon: null, is_readonly: false },
]);
// The service answers every throttled request with X-RateLimit-Limit and -Remaining (docs/service.md),
// and formctl shares that budget through a file (src/api/ratelimit.ts): the stub does the same, counting
// formctl's requests (the token's) in a fixed 60 s window, so the bench times the path users run.
const LIMIT = 100;
let windowStart = 0;
let used = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/open/workspaces') {
    const headers = { 'content-type': 'application/json' };
    if (req.headers.authorization) {
      if (Date.now() - windowStart >= 60_000) [windowStart, used] = [Date.now(), 0];
      used++;
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
// The same GET through undici, loaded as formctl loads it: bundled by esbuild from its public entry
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

/** Runs one process to completion and returns its wall time in ms (spawn to exit). */
function once(node, args) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${node} ${args.join(' ')} exited ${code}: ${err.trim()}`));
      else resolve(ms);
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'node:http GET script', args: ['-e', GET] },
  { name: 'undici GET script', args: [join(undiciDir, 'get.cjs')], base: 'node:http GET script' },
  { name: 'formctl --version', args: [BIN, '--version'], base: 'node -e 0' },
  { name: 'formctl --help', args: [BIN, '--help'], base: 'node -e 0', goal: { 24: 1.2, 20: 2.5 } },
  {
    name: 'formctl workspace list --json',
    args: [BIN, 'workspace', 'list', '--json'],
    base: 'node:http GET script',
    goal: { 24: 1.5, 20: 2.5 },
    also: 'undici GET script',
  },
];

try {
  const versions = nodes.map((n) => spawnSync(n, ['-v'], { encoding: 'utf8' }).stdout.trim());
  const times = nodes.map(() => new Map(cases.map((c) => [c.name, []])));
  for (let i = 0; i < Math.max(WARMUP, 1); i++) for (const n of nodes) for (const c of cases) await once(n, c.args);
  // Interleaved (every case on every Node, round after round) so that machine noise hits all alike.
  for (let i = 0; i < RUNS; i++) {
    if (Date.now() > deadline) throw new Error('bench exceeded 180 s; try --runs 5');
    for (const [k, n] of nodes.entries()) for (const c of cases) times[k].get(c.name).push(await once(n, c.args));
  }
  console.log(`${RUNS} runs after ${WARMUP} warm-ups, median wall time, all Node versions interleaved`);
  const load = loadavg()[0];
  if (load > availableParallelism()) {
    console.log(`  (load average ${load.toFixed(1)} on ${availableParallelism()} cores: wall times are inflated; compare ratios, rerun when quieter)`);
  }
  for (const [k, version] of versions.entries()) {
    const major = Number(version.slice(1).split('.')[0]);
    console.log(`node ${version}`);
    for (const c of cases) {
      const m = median(times[k].get(c.name));
      let note = '';
      if (c.base) {
        const ratio = m / median(times[k].get(c.base));
        const goal = c.goal?.[major >= 24 ? 24 : 20];
        note = `${ratio.toFixed(2)}x ${c.base}` + (goal ? ` (goal <= ${goal}x: ${ratio <= goal ? 'met' : 'MISSED'})` : '');
        if (c.also) note += `, ${(m / median(times[k].get(c.also))).toFixed(2)}x ${c.also}`;
      }
      console.log(`  ${c.name.padEnd(30)} ${m.toFixed(1).padStart(7)} ms  ${note}`);
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
